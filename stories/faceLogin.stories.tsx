import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromCallback, fromPromise } from 'xstate';
import type { FaceAuthStartResponse, KioskActivateResponse } from '../contract/face-auth';
import { faceAuthFixtures } from '../machines/faceAuth/faceAuth.fixtures';
import { faceAuthMachine } from '../machines/faceAuth/faceAuth.machine';
import { FaceAuthActor } from '../src/flows/face-login/faceLogin.context';
import { FaceLoginScreen } from '../src/flows/face-login/FaceLoginScreen';
import { AtSnapshot, pending, type StoryParameters } from './support';

/** No camera, no API: every collaborator waits forever, so a story stays in the state it shows. */
const faceAuthStoryMachine = faceAuthMachine.provide({
  actors: {
    startSession: fromPromise(() => pending<FaceAuthStartResponse>()),
    stopSession: fromPromise(() => pending<void>()),
    activateDevice: fromPromise(() => pending<KioskActivateResponse>()),
    camera: fromCallback(() => () => {}),
    cameraPermission: fromPromise(() => pending<PermissionState | 'unknown'>()),
    cameraWatchdog: fromCallback(() => () => {}),
    framePolling: fromCallback(() => () => {}),
  },
});

const meta = {
  title: 'FaceLogin/FaceLoginScreen',
  component: FaceLoginScreen,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={FaceAuthActor.Provider}
        logic={faceAuthStoryMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof FaceLoginScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/face-login' },
});

export const CameraOff = at(faceAuthFixtures.cameraOff);
export const CameraOffChecking = at(faceAuthFixtures.cameraOffChecking);
export const CameraOffAllowed = at(faceAuthFixtures.cameraOffAllowed);
export const CameraOpening = at(faceAuthFixtures.cameraOpening);
export const CameraFailed = at(faceAuthFixtures.cameraFailed);
export const ManualReady = at(faceAuthFixtures.manualReady);
export const ManualStarting = at(faceAuthFixtures.manualStarting);
export const ManualPolling = at(faceAuthFixtures.manualPolling);
export const ManualRecognised = at(faceAuthFixtures.manualRecognised);
export const ManualNotRecognised = at(faceAuthFixtures.manualNotRecognised);
export const ManualStopped = at(faceAuthFixtures.manualStopped);
export const ManualFailed = at(faceAuthFixtures.manualFailed);
export const ManualDeviceNotActivated = at(faceAuthFixtures.manualDeviceNotActivated);
export const KioskWaiting = at(faceAuthFixtures.kioskWaiting);
export const KioskStarting = at(faceAuthFixtures.kioskStarting);
export const KioskPolling = at(faceAuthFixtures.kioskPolling);
export const KioskCooldownRecognised = at(faceAuthFixtures.kioskCooldownRecognised);
export const KioskCooldownNotRecognised = at(faceAuthFixtures.kioskCooldownNotRecognised);
export const KioskRetrying = at(faceAuthFixtures.kioskRetrying);
export const KioskBlocked = at(faceAuthFixtures.kioskBlocked);
export const DeviceActivating = at(faceAuthFixtures.deviceActivating);
export const DeviceActivated = at(faceAuthFixtures.deviceActivated);
export const DeviceActivationFailed = at(faceAuthFixtures.deviceActivationFailed);
