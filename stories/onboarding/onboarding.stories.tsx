import type { Meta, StoryObj } from '@storybook/react-vite';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { otpFixtures } from '../../machines/otp/otp.fixtures';
import { OnboardingScreens } from '../../src/flows/onboarding/OnboardingScreens';
import type { StoryParameters } from '../support';
import { AtWizard, KycAt, OtpAt } from './support';

const meta = {
  title: 'Onboarding/Wizard',
  component: OnboardingScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtWizard snapshot={(parameters as StoryParameters).snapshot}>
        <Story />
      </AtWizard>
    ),
  ],
} satisfies Meta<typeof OnboardingScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/onboarding' },
});

export const RegistrationEditing = at(onboardingFixtures.registrationEditing);
export const RegistrationEditingFilled = at(onboardingFixtures.registrationEditingFilled);
export const RegistrationEditingPhoneInline = at(onboardingFixtures.registrationEditingPhoneInline);
export const RegistrationInvalid = at(onboardingFixtures.registrationInvalid);
export const RegistrationInvalidEmail = at(onboardingFixtures.registrationInvalidEmail);
export const RegistrationSending = at(onboardingFixtures.registrationSending);
export const RegistrationFailed = at(onboardingFixtures.registrationFailed);
export const RegistrationFailedStart = at(onboardingFixtures.registrationFailedStart);
export const RegistrationFailedServerMessage = at(
  onboardingFixtures.registrationFailedServerMessage,
);
export const RegistrationFailedTooManyAttempts = at(
  onboardingFixtures.registrationFailedTooManyAttempts,
);
/** Step 1: a restored wizard has no live children, so the OTP child is restored from its own fixture. */
export const Verification: Story = {
  ...at(onboardingFixtures.verification),
  render: () => <OtpAt snapshot={otpFixtures.editing} />,
};
export const PinCreationEditing = at(onboardingFixtures.pinCreationEditing);
export const PinCreationEditingReady = at(onboardingFixtures.pinCreationEditingReady);
export const PinCreationInvalid = at(onboardingFixtures.pinCreationInvalid);
export const PinCreationInvalidTerms = at(onboardingFixtures.pinCreationInvalidTerms);
export const Welcome = at(onboardingFixtures.welcome);
/** Step 4 while its code (its own chunk) downloads: 'Cargando...'. */
export const KycLoading = at(onboardingFixtures.kycLoading);
/** Step 4's code could not be downloaded (offline): the reason and 'Reintentar'. */
export const KycLoadFailed = at(onboardingFixtures.kycLoadFailed);
/** Step 4: the KYC child restored from its own fixture. */
export const Kyc: Story = {
  ...at(onboardingFixtures.kycRunning),
  render: () => <KycAt snapshot={kycFixtures.starting} />,
};
/** After the card: the PIN chosen at step 2 came from the birth date or the document number. */
export const PinRenewalEditing = at(onboardingFixtures.pinRenewalEditing);
export const PinRenewalEditingTyped = at(onboardingFixtures.pinRenewalEditingTyped);
export const PinRenewalInvalid = at(onboardingFixtures.pinRenewalInvalid);
export const PinRenewalInvalidBanned = at(onboardingFixtures.pinRenewalInvalidBanned);
export const RegisteringSubmitting = at(onboardingFixtures.registeringSubmitting);
export const RegisteringFailed = at(onboardingFixtures.registeringFailed);
export const RegisteringFailedServerMessage = at(onboardingFixtures.registeringFailedServerMessage);
export const RegisteringFailedInvalidResponse = at(
  onboardingFixtures.registeringFailedInvalidResponse,
);
export const RegisteringFailedNetwork = at(onboardingFixtures.registeringFailedNetwork);
export const Unexpected = at(onboardingFixtures.unexpected);
export const Complete = at(onboardingFixtures.complete);
export const PatientExists = at(onboardingFixtures.patientExists);
/** Back or cancel: the wizard ends and the landing page shows. */
export const Home = at(onboardingFixtures.home);
