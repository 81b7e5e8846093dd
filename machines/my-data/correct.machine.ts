import { assign, setup } from 'xstate';
import { CORRECTION_REQUEST_REASON, type CorrectionRequest } from '../../contract/my-data-correct';
import { toFlowError, type FlowError } from '../shared/errors';
import {
  listCorrections,
  sendCorrection,
  type CorrectionField,
  type CorrectionItem,
} from './correct.api';

export type { CorrectionField, CorrectionItem } from './correct.api';

/** The identity fields as Mis datos shows them (what the patient may ask to correct). */
export type IdentityValue = { field: CorrectionField; value: string | null };

export type CorrectContext = {
  identity: IdentityValue[];
  requests: CorrectionItem[];
  /** what the patient is writing: kept through an error, cleared once sent */
  field: CorrectionField | null;
  value: string;
  reason: string;
  error: FlowError | null;
};

export type CorrectEvent =
  | { type: 'correct.start' }
  | { type: 'field.pick'; field: CorrectionField }
  | { type: 'value.change'; value: string }
  | { type: 'reason.change'; reason: string }
  | { type: 'send' }
  | { type: 'back' }
  | { type: 'retry' };

/**
 * 'Corregir' in Mis datos (issue 45 item 5), the parent's child `correct`: the patient's requests
 * and their state, then a new one: choose the field (one with a request pending cannot be chosen),
 * write the right value and the reason, send. An error keeps everything written.
 */
export const correctMachine = setup({
  types: {} as {
    context: CorrectContext;
    events: CorrectEvent;
    input: { identity: IdentityValue[] };
  },
  actors: { listCorrections, sendCorrection },
  guards: {
    isFree: ({ context, event }) =>
      event.type === 'field.pick' &&
      !context.requests.some((r) => r.field === event.field && r.state === 'pending'),
    canSend: ({ context }) =>
      context.field !== null &&
      context.value.trim().length > 0 &&
      context.reason.trim().length >= CORRECTION_REQUEST_REASON.min,
  },
  actions: {
    setError: assign({
      error: ({ event }) => toFlowError((event as unknown as { error: unknown }).error),
    }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'correct',
  context: ({ input }) => ({
    identity: input.identity,
    requests: [],
    field: null,
    value: '',
    reason: '',
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        src: 'listCorrections',
        onDone: { target: 'list', actions: assign({ requests: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    failed: { tags: ['error'], on: { retry: 'loading' } },
    list: { on: { 'correct.start': 'choosing' } },
    choosing: {
      on: {
        'field.pick': {
          guard: 'isFree',
          target: 'writing',
          actions: assign({
            field: ({ event }) => event.field,
            value: ({ context, event }) => (event.field === context.field ? context.value : ''),
          }),
        },
        back: { target: 'list', actions: 'clearError' },
      },
    },
    writing: {
      on: {
        'value.change': { actions: assign({ value: ({ event }) => event.value }) },
        'reason.change': { actions: assign({ reason: ({ event }) => event.reason }) },
        send: { guard: 'canSend', target: 'sending' },
        back: { target: 'choosing', actions: 'clearError' },
      },
    },
    sending: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        src: 'sendCorrection',
        input: ({ context }) =>
          ({
            field: context.field!,
            value: context.value.trim(),
            reason: context.reason.trim(),
          }) as CorrectionRequest,
        onDone: {
          target: 'sent',
          actions: assign({
            requests: ({ context, event }) => [event.output, ...context.requests],
            field: null,
            value: '',
            reason: '',
          }),
        },
        onError: { target: 'writing', actions: 'setError' },
      },
    },
    sent: { on: { back: 'list' } },
  },
});

export type CorrectMachine = typeof correctMachine;
