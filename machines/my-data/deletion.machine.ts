import { assign, setup } from 'xstate';
import { toFlowError } from '../shared/errors';
import { onlyDigits, PIN_LENGTH } from '../shared/input';
import { cancel, confirm, loadDeletion, sendCode } from './deletion.actors';
import type { DeletionContext, DeletionEvent } from './deletion.types';

/**
 * 'Eliminar mi cuenta' (issue 45 item 6), the `deletion` child of the Mis datos machine: what is
 * deleted and what is not, then the PIN, then the SMS code; the pending deletion with its time and
 * 'Cancelar'; cancelled (ask again). What the patient typed stays in context across an error; an
 * ended session (401) shows its own screen; a request already made elsewhere (409) reloads.
 */
const statusOf = (event: object) => toFlowError((event as { error?: unknown }).error).status;
const failure = (target: string) =>
  [
    { guard: 'sessionEnded', target: '#myDataDeletion.sessionEnded' },
    { guard: 'conflict', target: '#myDataDeletion.loading' },
    { target, actions: 'assignError' },
  ] as const;

const EMPTY: DeletionContext = {
  pin: '',
  code: '',
  pending: null,
  waitHours: null,
  error: null,
  failures: 0,
};

export const deletionMachine = setup({
  types: {} as { context: DeletionContext; events: DeletionEvent },
  actors: { loadDeletion, sendCode, confirm, cancel },
  guards: {
    sessionEnded: ({ event }) => statusOf(event) === 401,
    conflict: ({ event }) => statusOf(event) === 409,
    pinComplete: ({ context }) => context.pin.length === PIN_LENGTH,
    codeComplete: ({ context }) => context.code.length === PIN_LENGTH,
  },
  actions: {
    assignError: assign({
      error: ({ event }) => toFlowError((event as { error?: unknown }).error),
      failures: ({ context }) => context.failures + 1,
    }),
    clearError: assign({ error: null }),
    forgetTyped: assign({ pin: '', code: '' }),
  },
}).createMachine({
  id: 'myDataDeletion',
  context: EMPTY,
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadDeletion',
        onDone: [
          {
            guard: ({ event }) => event.output.deletion !== null,
            target: 'pending',
            actions: assign({
              pending: ({ event }) => event.output.deletion,
              waitHours: ({ event }) => event.output.waitHours,
              error: null,
            }),
          },
          {
            target: 'intro',
            actions: assign({
              pending: null,
              waitHours: ({ event }) => event.output.waitHours,
              error: null,
            }),
          },
        ],
        onError: [
          { guard: 'sessionEnded', target: 'sessionEnded' },
          { target: 'failed', actions: 'assignError' },
        ],
      },
    },
    intro: {
      on: { 'deletion.start': { target: 'pin', actions: 'clearError' } },
    },
    pin: {
      on: {
        'pin.change': {
          actions: assign({ pin: ({ event }) => onlyDigits(event.value, PIN_LENGTH) }),
        },
        'pin.submit': { guard: 'pinComplete', target: 'sendingCode', actions: 'clearError' },
        'deletion.back': { target: 'intro', actions: ['forgetTyped', 'clearError'] },
      },
    },
    sendingCode: {
      tags: ['busy'],
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({ pin: context.pin }),
        onDone: 'code',
        onError: failure('#myDataDeletion.pin'),
      },
    },
    code: {
      on: {
        'code.change': {
          actions: assign({ code: ({ event }) => onlyDigits(event.value, PIN_LENGTH) }),
        },
        'code.submit': { guard: 'codeComplete', target: 'confirming', actions: 'clearError' },
        'code.resend': { target: 'resending', actions: 'clearError' },
        'deletion.back': { target: 'intro', actions: ['forgetTyped', 'clearError'] },
      },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({ pin: context.pin }),
        onDone: 'code',
        onError: failure('#myDataDeletion.code'),
      },
    },
    confirming: {
      tags: ['busy'],
      invoke: {
        src: 'confirm',
        input: ({ context }) => ({ code: context.code }),
        onDone: {
          target: 'pending',
          actions: [assign({ pending: ({ event }) => event.output }), 'forgetTyped'],
        },
        onError: failure('#myDataDeletion.code'),
      },
    },
    pending: {
      on: { 'deletion.cancel': { target: 'cancelling', actions: 'clearError' } },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        src: 'cancel',
        onDone: { target: 'cancelled', actions: assign({ pending: null }) },
        onError: failure('#myDataDeletion.pending'),
      },
    },
    cancelled: {
      on: { 'deletion.start': { target: 'pin', actions: 'clearError' } },
    },
    failed: {
      tags: ['error'],
      on: { 'load.retry': 'loading' },
    },
    sessionEnded: { tags: ['error'] },
  },
});

export type DeletionMachine = typeof deletionMachine;
