import { assign, setup } from 'xstate';
import { toFlowError } from '../shared/errors';
import { downloadMachine } from './download.machine';
import { deletionMachine } from './deletion.machine';
import { correctMachine, type IdentityValue } from './correct.machine';
import { loadMyData } from './my-data.actors';
import { myFaceMachine } from './my-face.machine';
import { secondaryUseMachine } from './secondary-use.machine';
import type { MyDataContext, MyDataEvent } from './my-data.types';

/**
 * 'Mis datos' (issue 45): loads what the service holds and who looked, then shows one section at a
 * time. The menu lists only the sections built (items 1, 2, 3, 5, 6 and 7); later items add states here.
 */
export const myDataMachine = setup({
  types: {} as {
    context: MyDataContext;
    events: MyDataEvent;
    children: {
      loadMyData: 'loadMyData';
      download: 'download';
      secondaryUse: 'secondaryUse';
      deletion: 'deletion';
      myFace: 'myFace';
      correct: 'correct';
    };
  },
  actors: {
    loadMyData,
    download: downloadMachine,
    secondaryUse: secondaryUseMachine,
    deletion: deletionMachine,
    myFace: myFaceMachine,
    correct: correctMachine,
  },
  guards: {
    isAccessesSection: ({ event }) => event.type === 'section.show' && event.section === 'accesses',
    isDownloadSection: ({ event }) => event.type === 'section.show' && event.section === 'download',
    isSecondaryUseSection: ({ event }) =>
      event.type === 'section.show' && event.section === 'secondaryUse',
    isDeletionSection: ({ event }) => event.type === 'section.show' && event.section === 'deletion',
    isFaceSection: ({ event }) => event.type === 'section.show' && event.section === 'face',
    isCorrectionsSection: ({ event }) =>
      event.type === 'section.show' && event.section === 'corrections',
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
      // 'Eliminar mi cuenta' (item 6): its own child, alive on every section, so a pending deletion
      // shows with its time wherever the patient is in Mis datos; its screens talk to it directly.
      invoke: { id: 'deletion', src: 'deletion' },
      on: {
        'section.show': [
          { guard: 'isAccessesSection', target: '.accesses' },
          { guard: 'isDownloadSection', target: '.download' },
          { guard: 'isSecondaryUseSection', target: '.secondaryUse' },
          { guard: 'isDeletionSection', target: '.deletion' },
          { guard: 'isFaceSection', target: '.face' },
          { guard: 'isCorrectionsSection', target: '.corrections' },
          { target: '.data' },
        ],
      },
      states: {
        data: {},
        accesses: {},
        // Items 2 and 7: children of their own (download.machine.ts, secondary-use.machine.ts).
        download: { invoke: { id: 'download', src: 'download' } },
        secondaryUse: { invoke: { id: 'secondaryUse', src: 'secondaryUse' } },
        deletion: {},
        // 'Mi rostro' (item 4): its own child machine (my-face.machine.ts)
        face: { invoke: { id: 'myFace', src: 'myFace' } },
        // 'Corregir' (item 5): the child `correct`, given the fields as shown
        corrections: {
          invoke: {
            id: 'correct',
            src: 'correct',
            input: ({ context }) => ({
              identity: (context.loaded?.data.identity ?? []) as IdentityValue[],
            }),
          },
        },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'load.retry': 'loading' },
    },
  },
});

export type MyDataMachine = typeof myDataMachine;
