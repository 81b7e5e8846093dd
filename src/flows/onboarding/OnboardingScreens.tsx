import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../machines/kyc/kyc.machine';
import {
  selectKycActor,
  selectOnboardingScreen,
  selectHandoffActor,
  selectOtpActor,
  selectPinCreationActor,
  selectPinRenewalActor,
  selectRegisteringActor,
  selectRegistrationFormActor,
  selectKycResumed,
  selectResumed,
} from '../../../machines/onboarding/onboarding.selectors';
import { Redirect } from '../../components/Navigation';
import { Muted, Page } from '../../components/Page';
import { onboarding } from '../../copy/es.onboarding';
import { OnboardingActor } from './onboarding.context';
import { OnboardingProgress } from './OnboardingProgress';
import { KycLoadScreen } from './screens/KycLoadScreen';
import { LeavingScreen } from './screens/LeavingScreen';
import { HandoffScreen } from './screens/HandoffScreen';
import { LinkOpeningScreen, LinkRefusedScreen } from './screens/LinkScreens';
import { CompleteScreen, PatientExistsScreen } from './screens/OutcomeScreen';
import { PinCreationScreen } from './screens/PinCreationScreen';
import { PinRenewalScreen } from './screens/PinRenewalScreen';
import { RegisteringScreen } from './screens/RegisteringScreen';
import { RegistrationScreen } from './screens/RegistrationScreen';
import { UnexpectedScreen } from './screens/UnexpectedScreen';
import { VerificationScreen } from './screens/VerificationScreen';
import { WelcomeScreen } from './screens/WelcomeScreen';

// Step 4's screens (camera, selfie, documents, review) are a chunk of their own, with the KYC
// machine the wizard loads (and preloads on step 3): steps 0-3 never download them.
const KycScreen = lazy(() => import('./screens/KycScreen').then((m) => ({ default: m.KycScreen })));

const resumedNotice = <Muted data-testid="onboarding-resumed">{onboarding.resumed}</Muted>;

/** 'Retomamos tu registro donde lo dejaste.' once, on the first screen after the resume. */
function ResumedNotice() {
  const resumed = OnboardingActor.useSelector(selectResumed);
  const kyc = OnboardingActor.useSelector(selectKycActor);
  if (resumed === 'kyc') return kyc ? <KycResumedNotice kyc={kyc} /> : null;
  return resumed ? resumedNotice : null;
}

/** Step 4's first screen of a resumed registration (its child knows which one it is). */
function KycResumedNotice({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  return useSelector(kyc, selectKycResumed) ? resumedNotice : null;
}

/** The wizard's state to its screen; each step's child renders its own states. */
export function OnboardingScreens() {
  return (
    <Page>
      <OnboardingProgress />
      <ResumedNotice />
      <OnboardingScreen />
    </Page>
  );
}

function OnboardingScreen() {
  const screen = OnboardingActor.useSelector(selectOnboardingScreen);
  const form = OnboardingActor.useSelector(selectRegistrationFormActor);
  const otp = OnboardingActor.useSelector(selectOtpActor);
  const pinCreation = OnboardingActor.useSelector(selectPinCreationActor);
  const pinRenewal = OnboardingActor.useSelector(selectPinRenewalActor);
  const handoff = OnboardingActor.useSelector(selectHandoffActor);
  const registering = OnboardingActor.useSelector(selectRegisteringActor);
  const kyc = OnboardingActor.useSelector(selectKycActor);
  switch (screen) {
    case 'linkOpening':
      return <LinkOpeningScreen />;
    case 'linkRefused':
      return <LinkRefusedScreen />;
    case 'handoff':
      return handoff ? <HandoffScreen handoff={handoff} /> : null;
    case 'registration':
      return form ? <RegistrationScreen form={form} /> : null;
    case 'verification':
      return otp ? <VerificationScreen otp={otp} /> : null;
    case 'pinCreation':
      return pinCreation ? <PinCreationScreen pinStep={pinCreation} /> : null;
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
    case 'pinRenewal':
      return pinRenewal ? <PinRenewalScreen pinStep={pinRenewal} /> : null;
    case 'registering':
      return registering ? <RegisteringScreen registering={registering} /> : null;
    case 'unexpected':
      return <UnexpectedScreen />;
    case 'complete':
      return <CompleteScreen />;
    case 'patientExists':
      return <PatientExistsScreen />;
    case 'leaving':
      return <LeavingScreen />;
    case 'home':
      // Every back or cancel ended the wizard: go to the landing page.
      return <Redirect to="/" />;
  }
}
