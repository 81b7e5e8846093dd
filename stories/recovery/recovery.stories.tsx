import type { Meta, StoryObj } from '@storybook/react-vite';
import type { SnapshotFrom } from 'xstate';
import { otpFixtures } from '../../machines/otp/otp.fixtures';
import type { OtpMachine } from '../../machines/otp/otp.machine';
import { recoveryFixtures } from '../../machines/recovery/recovery.fixtures';
import { RecoveryScreens } from '../../src/flows/recovery/RecoveryScreens';
import type { StoryParameters } from '../support';
import { AtRecovery, RecoveryOtpAt } from './support';

const meta = {
  title: 'Recuperar PIN/Pasos',
  component: RecoveryScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtRecovery snapshot={(parameters as StoryParameters).snapshot}>
        <Story />
      </AtRecovery>
    ),
  ],
} satisfies Meta<typeof RecoveryScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/recuperar-pin' },
});

/** Step 1: the OTP child restored from a fixture, with recovery's texts (recipient with document). */
const code = (snapshot: SnapshotFrom<OtpMachine>): Story => ({
  ...at(recoveryFixtures.verification),
  render: () => (
    <RecoveryOtpAt
      snapshot={
        {
          ...snapshot,
          context: {
            ...snapshot.context,
            recipient: { celular: '0981123456', numeroDocumento: '1234567' },
          },
        } as SnapshotFrom<OtpMachine>
      }
    />
  ),
});

export const RequestEditing = at(recoveryFixtures.requestEditing);
export const RequestEditingFilled = at(recoveryFixtures.requestEditingFilled);
export const RequestInvalidDocumento = at(recoveryFixtures.requestInvalidDocumento);
export const RequestInvalidCelular = at(recoveryFixtures.requestInvalidCelular);
export const RequestInvalidBoth = at(recoveryFixtures.requestInvalidBoth);
export const RequestSending = at(recoveryFixtures.requestSending);
export const RequestFailed = at(recoveryFixtures.requestFailed);
export const RequestFailedServerMessage = at(recoveryFixtures.requestFailedServerMessage);
export const RequestFailedTooManyAttempts = at(recoveryFixtures.requestFailedTooManyAttempts);
export const Verification = code(otpFixtures.editing);
export const VerificationCodeTyped = code(otpFixtures.editingPartialCode);
export const VerificationValidating = code(otpFixtures.validating);
export const VerificationWrongCode = code(otpFixtures.failedWrongCode);
export const VerificationNetwork = code(otpFixtures.failedNetwork);
export const VerificationTooManyAttempts = code(otpFixtures.failedTooManyAttempts);
export const VerificationResendAvailable = code(otpFixtures.available);
export const VerificationResending = code(otpFixtures.resending);
export const VerificationCodeResent = code(otpFixtures.waitingCodeResent);
export const VerificationResendFailed = code(otpFixtures.resendFailed);
export const NewPinEditing = at(recoveryFixtures.newPinEditing);
export const NewPinEditingTyped = at(recoveryFixtures.newPinEditingTyped);
export const NewPinInvalid = at(recoveryFixtures.newPinInvalid);
export const NewPinInvalidOwnData = at(recoveryFixtures.newPinInvalidOwnData);
export const NewPinSaving = at(recoveryFixtures.newPinSaving);
export const NewPinFailed = at(recoveryFixtures.newPinFailed);
export const NewPinFailedNoGrant = at(recoveryFixtures.newPinFailedNoGrant);
export const NewPinFailedOwnData = at(recoveryFixtures.newPinFailedOwnData);
export const Unexpected = at(recoveryFixtures.unexpected);
export const Done = at(recoveryFixtures.done);
