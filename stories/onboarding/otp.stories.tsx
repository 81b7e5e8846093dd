import type { Meta, StoryObj } from '@storybook/react-vite';
import type { SnapshotFrom } from 'xstate';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { otpFixtures } from '../../machines/otp/otp.fixtures';
import type { OtpMachine } from '../../machines/otp/otp.machine';
import type { StoryParameters } from '../support';
import { AtWizard, OtpAt } from './support';

const meta = {
  title: 'Onboarding/Verificación (OTP)',
  decorators: [
    (Story) => (
      <AtWizard snapshot={onboardingFixtures.verification}>
        <Story />
      </AtWizard>
    ),
  ],
  render: (_args, { parameters }) => (
    <OtpAt snapshot={(parameters as StoryParameters).snapshot as SnapshotFrom<OtpMachine>} />
  ),
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: SnapshotFrom<OtpMachine>): Story => ({
  parameters: { snapshot, path: '/onboarding' },
});

export const Editing = at(otpFixtures.editing);
export const EditingPartialCode = at(otpFixtures.editingPartialCode);
export const Validating = at(otpFixtures.validating);
export const FailedWrongCode = at(otpFixtures.failedWrongCode);
export const FailedNetwork = at(otpFixtures.failedNetwork);
export const FailedTooManyAttempts = at(otpFixtures.failedTooManyAttempts);
export const WaitingTenSeconds = at(otpFixtures.waitingTenSeconds);
export const WaitingCodeResent = at(otpFixtures.waitingCodeResent);
export const Available = at(otpFixtures.available);
export const Resending = at(otpFixtures.resending);
export const ResendFailed = at(otpFixtures.resendFailed);
export const ResendFailedTooManyAttempts = at(otpFixtures.resendFailedTooManyAttempts);
/** The wizard moves on at once; the code step's last look. */
export const Verified = at(otpFixtures.verified);
