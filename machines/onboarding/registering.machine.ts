import { assign, setup } from 'xstate';
import { registerPatient } from './onboarding.actors';
import {
  isExistsAnswer,
  isExistsError,
  isPinRefusedError,
  registerErrorFrom,
  withMessage,
} from './onboarding.errors';
import type {
  RegisteringContext,
  RegisteringEvent,
  RegisteringInput,
  RegisteringOutput,
} from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

/** A final state handing the wizard how the registration ended. */
const ended = (outcome: RegisteringOutput['outcome']) =>
  ({ type: 'final', output: (): RegisteringOutput => ({ outcome }) }) as const;

/**
 * The final register call, the wizard's `registering` child (between step 4 and 5): what the
 * wizard gathered (its required input) sent once, a failure with 'Reintentar' (the same request)
 * and 'Cancelar', and how it ended as the output: registered (step 5), the patient exists, the
 * server's copy of the card refused the PIN (the wizard asks for another), or cancelled.
 */
export const registeringMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as RegisteringContext,
    events: {} as RegisteringEvent,
    input: {} as RegisteringInput,
    output: {} as RegisteringOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: { registerPatient },
}).createMachine({
  id: 'registering',
  meta: { insight: { step: 'register' } },
  context: ({ input }) => ({ request: input, error: null }),
  initial: 'submitting',
  states: {
    // A double submit cannot happen: the register call is not reachable again while in flight,
    // and back is not taken then (the wizard hands its back to this child).
    submitting: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'registerPatient',
        src: 'registerPatient',
        input: ({ context }) => context.request,
        onDone: [
          { guard: ({ event }) => event.output.success, target: 'registered' },
          { guard: ({ event }) => isExistsAnswer(event.output), target: 'exists' },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                withMessage('registerFailed', event.output.message || undefined),
            }),
          },
        ],
        onError: [
          { guard: ({ event }) => isExistsError(event.error), target: 'exists' },
          // The server's copy of the card refused the PIN: the wizard asks for another.
          { guard: ({ event }) => isPinRefusedError(event.error), target: 'pinRefused' },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => registerErrorFrom(event.error) }),
          },
        ],
      },
    },
    failed: {
      tags: ['error'],
      on: { 'register.retry': 'submitting', 'flow.back': 'cancelled' },
    },
    registered: ended('registered'),
    exists: ended('exists'),
    pinRefused: ended('pinRefused'),
    cancelled: ended('cancelled'),
  },
  output: ({ event }) => event.output as RegisteringOutput,
});

export type RegisteringMachine = typeof registeringMachine;
