import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { FaceLoginStartResponse, KioskActivateResponse } from '../contract/face-login';
import { attemptMachine } from '../machines/face-login/attempt.machine';
import { attemptFixtures, faceLoginFixtures } from '../machines/face-login/face-login.fixtures';
import { faceLoginMachine } from '../machines/face-login/face-login.machine';
import { FaceLoginActor } from '../src/flows/face-login/face-login.context';
import { FaceLoginScreen } from '../src/flows/face-login/FaceLoginScreen';
import { AtSnapshot, pending, type StoryParameters } from './support';

/** No camera, no API: every collaborator waits forever, so a story stays in the state it shows. */
const faceLoginStoryMachine = faceLoginMachine.provide({
  actors: {
    stopSession: fromPromise(() => pending<void>()),
    activateDevice: fromPromise(() => pending<KioskActivateResponse>()),
    camera: fromCallback(() => () => {}),
    cameraPermission: fromPromise(() => pending<PermissionState | 'unknown'>()),
    cameraWatchdog: fromCallback(() => () => {}),
    attempt: attemptMachine.provide({
      actors: {
        startSession: fromPromise(() => pending<FaceLoginStartResponse>()),
        framePolling: fromCallback(() => () => {}),
      },
    }),
  },
});

/** A story's snapshot, and the page's when the snapshot is the attempt child's. */
type FaceLoginStoryParameters = StoryParameters & { page?: SnapshotFrom<typeof faceLoginMachine> };

const meta = {
  title: 'FaceLogin/FaceLoginScreen',
  component: FaceLoginScreen,
  decorators: [
    (Story, { parameters }) => {
      const { page, snapshot } = parameters as FaceLoginStoryParameters;
      return (
        <AtSnapshot
          Provider={FaceLoginActor.Provider}
          logic={faceLoginStoryMachine}
          snapshot={page ?? snapshot}
        >
          <Story />
        </AtSnapshot>
      );
    },
  ],
} satisfies Meta<typeof FaceLoginScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/face-login' },
});

export const CameraOff = at(faceLoginFixtures.cameraOff);
export const CameraOffChecking = at(faceLoginFixtures.cameraOffChecking);
export const CameraOffAllowed = at(faceLoginFixtures.cameraOffAllowed);
export const CameraOpening = at(faceLoginFixtures.cameraOpening);
export const CameraFailed = at(faceLoginFixtures.cameraFailed);
export const ManualReady = at(faceLoginFixtures.manualReady);
export const ManualStarting = at(faceLoginFixtures.manualStarting);
export const ManualPolling = at(faceLoginFixtures.manualPolling);
export const ManualRecognised = at(faceLoginFixtures.manualRecognised);
export const ManualNotRecognised = at(faceLoginFixtures.manualNotRecognised);
export const ManualStopped = at(faceLoginFixtures.manualStopped);
export const ManualFailed = at(faceLoginFixtures.manualFailed);
export const ManualDeviceNotActivated = at(faceLoginFixtures.manualDeviceNotActivated);
export const KioskWaiting = at(faceLoginFixtures.kioskWaiting);
export const KioskStarting = at(faceLoginFixtures.kioskStarting);
export const KioskPolling = at(faceLoginFixtures.kioskPolling);
export const KioskCooldownRecognised = at(faceLoginFixtures.kioskCooldownRecognised);
export const KioskCooldownNotRecognised = at(faceLoginFixtures.kioskCooldownNotRecognised);
export const KioskRetrying = at(faceLoginFixtures.kioskRetrying);
/** Nobody blinked within the liveness time: the message and 'Iniciar validación'. */
export const KioskTimedOut = at(faceLoginFixtures.kioskTimedOut);
export const KioskBlocked = at(faceLoginFixtures.kioskBlocked);
export const DeviceActivating = at(faceLoginFixtures.deviceActivating);
export const DeviceActivated = at(faceLoginFixtures.deviceActivated);
export const DeviceActivationFailed = at(faceLoginFixtures.deviceActivationFailed);

/** The attempt child's steps, as the page shows them (manual mode). */
const attemptAt = (
  attempt: StoryParameters['snapshot'],
  page: SnapshotFrom<typeof faceLoginMachine>,
): Story => ({ parameters: { snapshot: attempt, page, path: '/face-login' } });

export const AttemptStarting = attemptAt(
  attemptFixtures.starting,
  faceLoginFixtures.manualStarting,
);
export const AttemptPolling = attemptAt(attemptFixtures.polling, faceLoginFixtures.manualPolling);
export const AttemptDecided = attemptAt(
  attemptFixtures.decided,
  faceLoginFixtures.manualRecognised,
);
export const AttemptFailed = attemptAt(attemptFixtures.failed, faceLoginFixtures.manualFailed);
