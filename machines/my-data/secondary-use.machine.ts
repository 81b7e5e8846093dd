import { assign, setup } from 'xstate';
import type { SecondaryUseResponse } from '../../contract/my-data-download';
import { toFlowError, type FlowError } from '../shared/errors';
import { loadSecondaryUse, storeSecondaryUse } from './download.actors';

/**
 * 'Otros usos de mis datos' (issue 45 item 7), the child the myData machine invokes on its
 * section: the choice loaded, then changed and saved. The choice the patient made stays on the
 * screen when saving fails (`chosen`), to save again.
 */
export type SecondaryUseContext = {
  saved: Omit<SecondaryUseResponse, 'success'> | null;
  /** what the patient chose and is saving (or failed to save) */
  chosen: boolean | null;
  error: FlowError | null;
};
export type SecondaryUseEvent =
  { type: 'secondaryUse.choose'; optedOut: boolean } | { type: 'secondaryUse.retry' };

const keep = ({ event }: { event: { output: SecondaryUseResponse } }) => ({
  optedOut: event.output.optedOut,
  changedAt: event.output.changedAt,
});

export const secondaryUseMachine = setup({
  types: {} as { context: SecondaryUseContext; events: SecondaryUseEvent },
  actors: { loadSecondaryUse, storeSecondaryUse },
  actions: {
    assignError: assign({
      error: ({ event }) => toFlowError((event as { error?: unknown }).error),
    }),
  },
}).createMachine({
  id: 'secondaryUse',
  context: { saved: null, chosen: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSecondaryUse',
        src: 'loadSecondaryUse',
        onDone: { target: 'showing', actions: assign({ saved: keep }) },
        onError: { target: 'loadFailed', actions: 'assignError' },
      },
    },
    loadFailed: { tags: ['error'], on: { 'secondaryUse.retry': 'loading' } },
    showing: {
      initial: 'idle',
      on: {
        'secondaryUse.choose': {
          target: '.saving',
          actions: assign({ chosen: ({ event }) => event.optedOut, error: null }),
        },
      },
      states: {
        idle: {},
        saving: {
          tags: ['busy'],
          on: { 'secondaryUse.choose': undefined },
          invoke: {
            id: 'storeSecondaryUse',
            src: 'storeSecondaryUse',
            input: ({ context }) => ({ optedOut: context.chosen ?? false }),
            onDone: { target: 'saved', actions: assign({ saved: keep, chosen: null }) },
            onError: { target: 'saveFailed', actions: 'assignError' },
          },
        },
        saved: {},
        saveFailed: { tags: ['error'], on: { 'secondaryUse.retry': 'saving' } },
      },
    },
  },
});

export type SecondaryUseMachine = typeof secondaryUseMachine;
