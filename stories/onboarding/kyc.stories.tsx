import type { Meta, StoryObj } from '@storybook/react-vite';
import type { SnapshotFrom } from 'xstate';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import type { KycMachine } from '../../machines/kyc/kyc.machine';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import type { StoryParameters } from '../support';
import { AtWizard, KycAt } from './support';

const meta = {
  title: 'Onboarding/Identidad (KYC)',
  decorators: [
    (Story) => (
      <AtWizard snapshot={onboardingFixtures.kyc}>
        <Story />
      </AtWizard>
    ),
  ],
  render: (_args, { parameters }) => (
    <KycAt snapshot={(parameters as StoryParameters).snapshot as SnapshotFrom<KycMachine>} />
  ),
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: SnapshotFrom<KycMachine>): Story => ({
  parameters: { snapshot, path: '/onboarding' },
});

export const Starting = at(kycFixtures.starting);
export const FailedStartKyc = at(kycFixtures.failedStartKyc);
export const FailedServerMessage = at(kycFixtures.failedServerMessage);
export const FailedNetwork = at(kycFixtures.failedNetwork);
export const FailedTooManyAttempts = at(kycFixtures.failedTooManyAttempts);
export const UnexpectedStep = at(kycFixtures.unexpectedStep);
