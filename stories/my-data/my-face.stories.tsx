import type { Meta, StoryObj } from '@storybook/react-vite';
import { useActorRef } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { MyFaceCodeResponse, MyFaceResponse } from '../../contract/my-face';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { myDataAtFace, myFaceFixtures } from '../../machines/my-data/my-face.fixtures';
import { myFaceMachine } from '../../machines/my-data/my-face.machine';
import { MyDataActor } from '../../src/flows/my-data/my-data.context';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { MyDataFrame } from '../../src/flows/my-data/screens/MyDataFrame';
import { FacePanel } from '../../src/flows/my-data/screens/MyFaceScreen';
import { AtSnapshot, pending, type StoryParameters } from '../support';

/** No story calls the API: every call of both machines never settles. */
const storyFaceMachine = myFaceMachine.provide({
  actors: {
    loadFace: fromPromise(() => pending<MyFaceResponse>()),
    lockFace: fromPromise(() => pending<MyFaceResponse>()),
    sendCode: fromPromise(() => pending<MyFaceCodeResponse>()),
    unlockFace: fromPromise(() => pending<MyFaceResponse>()),
    withdrawFace: fromPromise(() => pending<MyFaceResponse>()),
  },
});
const storyMachine = myDataMachine.provide({
  actors: {
    loadMyData: fromPromise(() => pending<MyDataLoaded>()),
    myFace: storyFaceMachine,
  },
});

/** The face section with its child restored at a fixture, inside the area's frame. */
function FaceAt({ snapshot }: { snapshot: SnapshotFrom<typeof myFaceMachine> }) {
  const face = useActorRef(storyFaceMachine, { snapshot });
  return (
    <MyDataFrame>
      <FacePanel face={face} />
    </MyDataFrame>
  );
}

const meta = {
  title: 'Mis datos/Mi rostro',
  component: MyDataScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={MyDataActor.Provider}
        logic={storyMachine}
        snapshot={(parameters as { area?: StoryParameters['snapshot'] }).area ?? myDataAtFace.face}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof MyDataScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: SnapshotFrom<typeof myFaceMachine>): Story => ({
  parameters: { snapshot, path: '/mis-datos' },
  render: () => <FaceAt snapshot={snapshot} />,
});

/** The area on its 'Mi rostro' section while the child loads (the myData machine's leaf). */
export const Section: Story = {
  parameters: { snapshot: myDataAtFace.face, area: myDataAtFace.face, path: '/mis-datos' },
};
export const Loading = at(myFaceFixtures.loading);
export const Failed = at(myFaceFixtures.failed);
export const SessionEnded = at(myFaceFixtures.sessionEnded);
export const Active = at(myFaceFixtures.unlocked);
export const JustUnlocked = at(myFaceFixtures.justUnlocked);
export const Locking = at(myFaceFixtures.locking);
export const Locked = at(myFaceFixtures.locked);
export const SendingCode = at(myFaceFixtures.sendingCode);
export const SmsFailed = at(myFaceFixtures.smsFailed);
export const NoFace = at(myFaceFixtures.none);
export const EnterPinAndCode = at(myFaceFixtures.entering);
export const WrongPin = at(myFaceFixtures.enteringWrongPin);
export const Unlocking = at(myFaceFixtures.unlockingSubmitting);
export const ResendingCode = at(myFaceFixtures.resending);
export const ConfirmWithdrawal = at(myFaceFixtures.confirming);
export const ConfirmWithdrawalWrongPin = at(myFaceFixtures.confirmingWrongPin);
export const Withdrawing = at(myFaceFixtures.withdrawSubmitting);
export const Withdrawn = at(myFaceFixtures.withdrawn);
