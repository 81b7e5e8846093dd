import type { Meta, StoryObj } from '@storybook/react-vite';
import { myDataFixtures } from '../../machines/my-data/my-data.fixtures';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { atMyData, atMyDataSnapshot } from './support';

const meta = {
  title: 'Mis datos/Pantallas',
  component: MyDataScreens,
  decorators: [atMyDataSnapshot],
} satisfies Meta<typeof MyDataScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: Parameters<typeof atMyData>[0]): Story => atMyData(snapshot);

export const Loading = at(myDataFixtures.loading);
export const Data = at(myDataFixtures.data);
export const DataTermsVersionUnknown = at(myDataFixtures.dataTermsVersionUnknown);
export const Accesses = at(myDataFixtures.accesses);
export const AccessesEmpty = at(myDataFixtures.accessesEmpty);
export const Failed = at(myDataFixtures.failed);
export const SessionEnded = at(myDataFixtures.sessionEnded);
