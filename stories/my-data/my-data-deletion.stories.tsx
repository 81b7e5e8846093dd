import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import type { DeletionCodeResponse, DeletionStatusResponse } from '../../contract/my-data-deletion';
import {
  dataWithPendingDeletion,
  deletionInMyData,
} from '../../machines/my-data/deletion.fixtures';
import { deletionMachine } from '../../machines/my-data/deletion.machine';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { MyDataActor } from '../../src/flows/my-data/my-data.context';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { AtSnapshot, pending, type StoryParameters } from '../support';

/** No story calls the API: every call never settles. */
const storyMachine = myDataMachine.provide({
  actors: {
    loadMyData: fromPromise(() => pending<MyDataLoaded>()),
    deletion: deletionMachine.provide({
      actors: {
        loadDeletion: fromPromise(() => pending<DeletionStatusResponse>()),
        sendCode: fromPromise(() => pending<DeletionCodeResponse>()),
        confirm: fromPromise(() => pending<DeletionStatusResponse['deletion']>()),
        cancel: fromPromise(() => pending<void>()),
      },
    }),
  },
});

const meta = {
  title: 'Mis datos/Eliminar mi cuenta',
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

export const Loading = at(deletionInMyData.loading);
export const Intro = at(deletionInMyData.intro);
export const Pin = at(deletionInMyData.pin);
export const PinWrong = at(deletionInMyData.pinWrong);
export const SendingCode = at(deletionInMyData.sendingCode);
export const Code = at(deletionInMyData.code);
export const CodeWrong = at(deletionInMyData.codeWrong);
export const Resending = at(deletionInMyData.resending);
export const Confirming = at(deletionInMyData.confirming);
export const Pending = at(deletionInMyData.pending);
export const Cancelling = at(deletionInMyData.cancelling);
export const CancelFailed = at(deletionInMyData.cancelFailed);
export const Cancelled = at(deletionInMyData.cancelled);
export const Failed = at(deletionInMyData.failed);
export const SessionEnded = at(deletionInMyData.sessionEnded);
export const DataWithPendingDeletion = at(dataWithPendingDeletion);
