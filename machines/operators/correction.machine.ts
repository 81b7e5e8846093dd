import { assign, setup } from 'xstate';
import { correctionProblem } from './correction';
import type {
  Correction,
  CorrectionContext,
  CorrectionEvent,
  CorrectionInput,
} from './operators.types';

/**
 * 'Corregir' (a child of the case): the new value and the reason, both required, checked by the
 * field's rule (correction.ts, the server's); ends with the correction as typed. The case sends it
 * (trimmed); a refusal by the server (400) opens the form again at `refused`, with its sentence.
 */
export const correctionMachine = setup({
  types: {
    context: {} as CorrectionContext,
    events: {} as CorrectionEvent,
    input: {} as CorrectionInput,
    output: {} as Correction,
    tags: {} as 'busy' | 'error',
  },
  guards: {
    /** the value passes its field's schema (the server's), differs, and has a reason */
    isComplete: ({ context }) => correctionProblem(context.correction, context.current) === null,
    isRefused: ({ context }) => context.error !== null,
  },
}).createMachine({
  id: 'operatorCorrection',
  context: ({ input }) => ({
    correction: input.correction,
    current: input.current,
    error: input.refusal,
  }),
  initial: 'editing',
  on: {
    'correction.change': {
      target: '.editing',
      actions: assign({
        correction: ({ context, event }) => ({
          ...context.correction,
          ...(event.value !== undefined ? { value: event.value } : {}),
          ...(event.reason !== undefined ? { reason: event.reason } : {}),
        }),
        error: null,
      }),
    },
  },
  states: {
    editing: {
      always: { guard: 'isRefused', target: 'refused' },
      on: {
        'correction.submit': [{ guard: 'isComplete', target: 'done' }, { target: 'incomplete' }],
      },
    },
    /** submitted with a value its field's rule refuses, the same value, or no reason */
    incomplete: { tags: ['error'] },
    /** the server refused it (400): its sentence says why; the form stays */
    refused: { tags: ['error'] },
    done: { type: 'final' },
  },
  output: ({ context }) => context.correction,
});

export type CorrectionMachine = typeof correctionMachine;
