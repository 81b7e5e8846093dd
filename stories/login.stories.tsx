import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import type { LoginResponse } from '../contract/login';
import { loginFixtures } from '../machines/login/login.fixtures';
import { loginMachine } from '../machines/login/login.machine';
import { LoginActor } from '../src/flows/login/login.context';
import { LoginScreen } from '../src/flows/login/LoginScreen';
import { AtSnapshot, pending, type StoryParameters } from './support';

const storyMachine = loginMachine.provide({
  actors: { submitLogin: fromPromise(() => pending<LoginResponse>()) },
});

const meta = {
  title: 'Login/LoginScreen',
  component: LoginScreen,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={LoginActor.Provider}
        logic={storyMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof LoginScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/login' },
});

export const EditingEmpty = at(loginFixtures.editingEmpty);
/** A PIN of 4 digits: 'Validar' disabled and, beside it, what is missing. */
export const EditingPinMissing = at(loginFixtures.editingPinMissing);
export const EditingFilled = at(loginFixtures.editingFilled);
export const Submitting = at(loginFixtures.submitting);
export const FailedServerMessage = at(loginFixtures.failedServerMessage);
export const FailedLogin = at(loginFixtures.failedLogin);
export const FailedRejected = at(loginFixtures.failedRejected);
export const FailedNetwork = at(loginFixtures.failedNetwork);
export const FailedTooManyAttempts = at(loginFixtures.failedTooManyAttempts);
export const Done = at(loginFixtures.done);
