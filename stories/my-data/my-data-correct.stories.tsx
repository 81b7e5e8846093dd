import type { Meta, StoryObj } from '@storybook/react-vite';
import { myDataCorrectFixtures as f } from '../../machines/my-data/correct.fixtures';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { atMyData, atMyDataSnapshot } from './support';

const meta = {
  title: 'Mis datos/Corregir',
  component: MyDataScreens,
  decorators: [atMyDataSnapshot],
} satisfies Meta<typeof MyDataScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: Parameters<typeof atMyData>[0]): Story => atMyData(snapshot);

export const Loading = at(f.loading);
export const Failed = at(f.failed);
export const SessionEnded = at(f.sessionEnded);
export const Requests = at(f.list);
export const NoRequests = at(f.empty);
export const Choosing = at(f.choosing);
export const Writing = at(f.writing);
export const WritingFromAList = at(f.writingChoice);
export const Sending = at(f.sending);
export const Refused = at(f.refused);
export const Sent = at(f.sent);
