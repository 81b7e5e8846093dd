import { assign, setup } from 'xstate';
import { toFlowError } from '../shared/errors';
import { loadMyData } from './my-data.actors';
import type { MyDataContext, MyDataEvent } from './my-data.types';

/**
 * 'Mis datos' (issue 45): loads what the service holds and who looked, then shows one section at a
 * time. The menu lists only the sections built (items 1 and 3); later items add states here.
 */
export const myDataMachine = setup({
  types: {} as { context: MyDataContext; events: MyDataEvent },
  actors: { loadMyData },
  guards: {
    isAccessesSection: ({ event }) => event.type === 'section.show' && event.section === 'accesses',
  },
  actions: {
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'myData',
  context: { loaded: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'loadMyData',
        src: 'loadMyData',
        onDone: { target: 'showing', actions: assign({ loaded: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toFlowError(event.error) }),
        },
      },
    },
    showing: {
      initial: 'data',
      on: {
        'section.show': [{ guard: 'isAccessesSection', target: '.accesses' }, { target: '.data' }],
      },
      states: {
        data: {},
        accesses: {},
      },
    },
    failed: {
      tags: ['error'],
      on: { 'load.retry': 'loading' },
    },
  },
});

export type MyDataMachine = typeof myDataMachine;
