import type { Decorator } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { correctMachine, type CorrectionItem } from '../../machines/my-data/correct.machine';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { MyDataActor } from '../../src/flows/my-data/my-data.context';
import { AtSnapshot, pending, type StoryParameters } from '../support';

/** No story calls the API: the load, and each section's own calls, never settle. */
const storyMachine = myDataMachine.provide({
  actors: {
    loadMyData: fromPromise(() => pending<MyDataLoaded>()),
    correct: correctMachine.provide({
      actors: {
        listCorrections: fromPromise(() => pending<CorrectionItem[]>()),
        sendCorrection: fromPromise(() => pending<CorrectionItem>()),
      },
    }),
  },
});

/** Mis datos at the story's snapshot (its parameters). */
export const atMyDataSnapshot: Decorator = (Story, { parameters }) => (
  <AtSnapshot
    Provider={MyDataActor.Provider}
    logic={storyMachine}
    snapshot={(parameters as StoryParameters).snapshot}
  >
    <Story />
  </AtSnapshot>
);

export const atMyData = (snapshot: StoryParameters['snapshot']) => ({
  parameters: { snapshot, path: '/mis-datos' },
});
