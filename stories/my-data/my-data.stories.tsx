import type { Meta, StoryObj } from '@storybook/react-vite';
import { myDataFixtures } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { MyDataActor } from '../../src/flows/my-data/my-data.context';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { fromPromise } from 'xstate';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { AtSnapshot, pending, type StoryParameters } from '../support';

/** No story calls the API: the load never settles. */
const storyMachine = myDataMachine.provide({
  actors: { loadMyData: fromPromise(() => pending<MyDataLoaded>()) },
});

const meta = {
  title: 'Mis datos/Pantallas',
  component: MyDataScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={MyDataActor.Provider}
        logic={storyMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof MyDataScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/mis-datos' },
});

export const Loading = at(myDataFixtures.loading);
export const Data = at(myDataFixtures.data);
export const Accesses = at(myDataFixtures.accesses);
export const AccessesEmpty = at(myDataFixtures.accessesEmpty);
export const Failed = at(myDataFixtures.failed);
export const SessionEnded = at(myDataFixtures.sessionEnded);
