import type { Meta, StoryObj } from '@storybook/react-vite';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { OnboardingScreens } from '../../src/flows/onboarding/OnboardingScreens';
import type { StoryParameters } from '../support';
import { AtWizard, KycAt } from './support';

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

/** A page opened or reloaded: step 0 while the wizard asks for a registration this browser holds. */
export const RegistrationRestoring = at(onboardingFixtures.registrationRestoring);
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
/** The code is on its way: the form's last look before step 1. */
export const RegistrationSent = at(onboardingFixtures.registrationSent);
/** The mobile is a patient's already: the form's last look before the wizard says so. */
export const RegistrationExists = at(onboardingFixtures.registrationExists);
/** Step 1, with the OTP child restored at its own fixture (its states: otp.stories). */
export const Verification = at(onboardingFixtures.verification);
export const PinCreationEditing = at(onboardingFixtures.pinCreationEditing);
export const PinCreationEditingReady = at(onboardingFixtures.pinCreationEditingReady);
export const PinCreationInvalid = at(onboardingFixtures.pinCreationInvalid);
export const PinCreationInvalidTerms = at(onboardingFixtures.pinCreationInvalidTerms);
/** Step 2 kept with the registration: 'Guardando...'. */
export const PinCreationSaving = at(onboardingFixtures.pinCreationSaving);
/** Step 2 could not be kept: the reason, and the PIN and terms as they were. */
export const PinCreationSaveFailed = at(onboardingFixtures.pinCreationSaveFailed);
/** Kept: step 2's last look before the welcome. */
export const PinCreationSaved = at(onboardingFixtures.pinCreationSaved);
export const Welcome = at(onboardingFixtures.welcome);
/** A lost page, the mobile verified again: the registration continues at the welcome. */
export const WelcomeResumed = at(onboardingFixtures.welcomeResumed);
/** 'Seguí en tu celular': the SMS with the link on its way. */
export const HandoffSending = at(onboardingFixtures.handoffSending);
/** The link sent; the phone has not opened it yet. */
export const HandoffWaiting = at(onboardingFixtures.handoffWaiting);
export const HandoffWaitingOpened = at(onboardingFixtures.handoffWaitingOpened);
export const HandoffWaitingSelfie = at(onboardingFixtures.handoffWaitingSelfie);
export const HandoffWaitingDocument = at(onboardingFixtures.handoffWaitingDocument);
/** A computer without a camera: only the phone can go on ('Usar la cámara...' is not offered). */
export const HandoffWaitingNoCamera = at(onboardingFixtures.handoffWaitingNoCamera);
/** The link could not be sent (here: the SMS resend wait). */
export const HandoffFailed = at(onboardingFixtures.handoffFailed);
/** The registration moved on elsewhere (the mobile verified again on another device). */
export const HandoffStopped = at(onboardingFixtures.handoffStopped);
/** The phone finished: the last look before the completion. */
export const HandoffDone = at(onboardingFixtures.handoffDone);
/** The phone that opened the SMS link, while its registration loads. */
export const LinkOpening = at(onboardingFixtures.linkOpening);
/** The link opened its registration: the last look before its step. */
export const LinkOpeningOpened = at(onboardingFixtures.linkOpeningOpened);
/** The link was refused: the last look before the reason. */
export const LinkOpeningRefused = at(onboardingFixtures.linkOpeningRefused);
/** The link was used already: the reason, and verifying the mobile by SMS instead. */
export const LinkRefused = at(onboardingFixtures.linkRefused);
/** The link was real and its registration finished: 'Tu registro ya está completo. Ingresá.' */
export const LinkRefusedComplete = at(onboardingFixtures.linkRefusedComplete);
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
/** A new PIN: the last look before the register call. */
export const PinRenewalChosen = at(onboardingFixtures.pinRenewalChosen);
export const RegisteringSubmitting = at(onboardingFixtures.registeringSubmitting);
export const RegisteringFailed = at(onboardingFixtures.registeringFailed);
export const RegisteringFailedServerMessage = at(onboardingFixtures.registeringFailedServerMessage);
export const RegisteringFailedInvalidResponse = at(
  onboardingFixtures.registeringFailedInvalidResponse,
);
export const RegisteringFailedNetwork = at(onboardingFixtures.registeringFailedNetwork);
/** Registered: the call's last look before step 5. */
export const RegisteringRegistered = at(onboardingFixtures.registeringRegistered);
/** The document is a patient's already: the call's last look before the wizard says so. */
export const RegisteringExists = at(onboardingFixtures.registeringExists);
/** The server refused the PIN: the call's last look before 'Elegí otro PIN'. */
export const RegisteringPinRefused = at(onboardingFixtures.registeringPinRefused);
/** 'Cancelar' after a failure: the call's last look before the wizard ends. */
export const RegisteringCancelled = at(onboardingFixtures.registeringCancelled);
export const Unexpected = at(onboardingFixtures.unexpected);
export const Complete = at(onboardingFixtures.complete);
export const PatientExists = at(onboardingFixtures.patientExists);
/** A back or cancel with a registration: this browser forgets it on the way home (nothing shows). */
export const Leaving = at(onboardingFixtures.leaving);
/** Back or cancel: the wizard ends and the landing page shows. */
export const Home = at(onboardingFixtures.home);
