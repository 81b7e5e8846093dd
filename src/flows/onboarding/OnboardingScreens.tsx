import { lazy, Suspense } from 'react';
import {
  selectKycActor,
  selectOnboardingScreen,
  selectOtpActor,
} from '../../../machines/onboarding/onboarding.selectors';
import { Redirect } from '../../components/Navigation';
import { OnboardingActor } from './onboarding.context';
import { KycLoadScreen } from './screens/KycLoadScreen';
import { CompleteScreen, PatientExistsScreen } from './screens/OutcomeScreen';
import { PinCreationScreen } from './screens/PinCreationScreen';
import { RegisteringScreen } from './screens/RegisteringScreen';
import { RegistrationScreen } from './screens/RegistrationScreen';
import { UnexpectedScreen } from './screens/UnexpectedScreen';
import { VerificationScreen } from './screens/VerificationScreen';
import { WelcomeScreen } from './screens/WelcomeScreen';

// Step 4's screens (camera, selfie, documents, review) are a chunk of their own, with the KYC
// machine the wizard loads (and preloads on step 3): steps 0-3 never download them.
const KycScreen = lazy(() => import('./screens/KycScreen').then((m) => ({ default: m.KycScreen })));

/** The wizard's state to its screen; the children (OTP, KYC) render their own states. */
export function OnboardingScreens() {
  const screen = OnboardingActor.useSelector(selectOnboardingScreen);
  const otp = OnboardingActor.useSelector(selectOtpActor);
  const kyc = OnboardingActor.useSelector(selectKycActor);
  switch (screen) {
    case 'registration':
      return <RegistrationScreen />;
    case 'verification':
      return otp ? <VerificationScreen otp={otp} /> : null;
    case 'pinCreation':
      return <PinCreationScreen />;
    case 'welcome':
      return <WelcomeScreen />;
    case 'kyc':
      return kyc ? (
        <Suspense fallback={<KycLoadScreen />}>
          <KycScreen kyc={kyc} />
        </Suspense>
      ) : (
        <KycLoadScreen />
      );
    case 'registering':
      return <RegisteringScreen />;
    case 'unexpected':
      return <UnexpectedScreen />;
    case 'complete':
      return <CompleteScreen />;
    case 'patientExists':
      return <PatientExistsScreen />;
    case 'home':
      // Every back or cancel ended the wizard: go to the landing page.
      return <Redirect to="/" />;
  }
}
