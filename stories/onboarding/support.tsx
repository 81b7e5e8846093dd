import { useActorRef } from '@xstate/react';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { PhotoHint } from '../../machines/shared/photo-hint';
import type { ScanIdResponse } from '../../contract/identity';
import type {
  CurrentRegistrationResponse,
  OpenLinkResponse,
  Place,
  RegisterResponse,
  SendLinkResponse,
  StartResponse,
} from '../../contract/onboarding';
import type { ResultResponse } from '../../contract/common';
import type { CaseStatus, CentresResponse } from '../../contract/cases';
import { assistMachine } from '../../machines/kyc/kyc.assist.machine';
import { kycMachine, type KycMachine } from '../../machines/kyc/kyc.machine';
import { supplementaryMachine } from '../../machines/kyc/supplementary.machine';
import type { KycSession } from '../../machines/kyc/kyc.types';
import { handoffMachine } from '../../machines/onboarding/handoff.machine';
import { linkOpeningMachine } from '../../machines/onboarding/link.machine';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { pinCreationMachine } from '../../machines/onboarding/pin.machine';
import { registeringMachine } from '../../machines/onboarding/registering.machine';
import { registrationFormMachine } from '../../machines/onboarding/registration.machine';
import { otpMachine } from '../../machines/otp/otp.machine';
import type { OtpVerdict } from '../../machines/otp/otp.types';
import LandingPage from '../../src/pages/LandingPage';
import { OnboardingActor } from '../../src/flows/onboarding/onboarding.context';
import { KycProgress } from '../../src/flows/onboarding/OnboardingProgress';
import { KycScreen } from '../../src/flows/onboarding/screens/KycScreen';
import { SupplementaryScreen } from '../../src/flows/onboarding/screens/kyc/SupplementaryScreen';
import { AssistSteps } from '../../src/flows/onboarding/screens/kyc/AssistScreen';
import { VerificationScreen } from '../../src/flows/onboarding/screens/VerificationScreen';
import { AtSnapshot, pending } from '../support';

/** The OTP and KYC children with calls that never settle: stories stay in the state they show. */
export const storyOtpMachine = otpMachine.provide({
  actors: {
    validateCode: fromPromise(() => pending<OtpVerdict>()),
    resendCode: fromPromise(() => pending<OtpVerdict>()),
  },
});
export const storySupplementaryMachine = supplementaryMachine.provide({
  actors: {
    loadDepartments: fromPromise(() => pending<Place[]>()),
    loadCities: fromPromise(() => pending<Place[]>()),
  },
});
export const storyAssistMachine = assistMachine.provide({
  actors: {
    keepFront: fromPromise(() => pending<ScanIdResponse>()),
    openCase: fromPromise(() => pending<CaseStatus>()),
    readCaseStatus: fromPromise(() => pending<CaseStatus | null>()),
    loadCentres: fromPromise(() => pending<CentresResponse>()),
  },
});
export const storyKycMachine = kycMachine.provide({
  actors: {
    ensureSession: fromPromise(() => pending<KycSession>()),
    // No camera in stories: the views show their still poster.
    camera: fromCallback(() => () => {}),
    livenessSampling: fromCallback(() => () => {}),
    frameCapture: fromPromise(() => pending<Blob>()),
    imageScaling: fromPromise(() => pending<Blob>()),
    photoHint: fromPromise(() => pending<PhotoHint | null>()),
    verifyDocuments: fromPromise(() => pending<ScanIdResponse>()),
    rejectKyc: fromPromise(() => pending<void>()),
    supplementary: storySupplementaryMachine,
    assist: storyAssistMachine,
  },
});

/** The wizard for stories: no call reaches the API (its children's neither). */
export const storyOnboardingMachine = onboardingMachine.provide({
  actors: {
    registrationForm: registrationFormMachine.provide({
      actors: { sendCode: fromPromise(() => pending<StartResponse>()) },
    }),
    pinCreation: pinCreationMachine.provide({
      actors: { savePin: fromPromise(() => pending<ResultResponse>()) },
    }),
    handoff: handoffMachine.provide({
      actors: {
        sendLink: fromPromise(() => pending<SendLinkResponse>()),
        registrationStatus: fromCallback(() => () => {}),
      },
    }),
    linkOpening: linkOpeningMachine.provide({
      actors: { openLink: fromPromise(() => pending<OpenLinkResponse>()) },
    }),
    registering: registeringMachine.provide({
      actors: { registerPatient: fromPromise(() => pending<RegisterResponse>()) },
    }),
    otp: storyOtpMachine,
    // A restored wizard has no live children; its step-4 stories restore the KYC child themselves.
    loadKyc: fromPromise(() => pending<KycMachine>()),
    restoreRegistration: fromPromise(() => pending<CurrentRegistrationResponse>()),
    forgetRegistration: fromPromise(() => pending<ResultResponse>()),
  },
});

/** The wizard restored at a fixture, on /onboarding; its 'home' end lands on the real landing page. */
export function AtWizard({
  snapshot,
  children,
}: {
  snapshot: SnapshotFrom<typeof onboardingMachine>;
  children: ReactNode;
}) {
  return (
    <Routes>
      <Route
        path="/onboarding"
        element={
          <AtSnapshot
            Provider={OnboardingActor.Provider}
            logic={storyOnboardingMachine}
            snapshot={snapshot}
          >
            {children}
          </AtSnapshot>
        }
      />
      <Route path="/" element={<LandingPage />} />
    </Routes>
  );
}

/** Step 1 with the OTP child restored at a fixture (a restored wizard has no live children). */
export function OtpAt({ snapshot }: { snapshot: SnapshotFrom<typeof otpMachine> }) {
  const otp = useActorRef(storyOtpMachine, {
    snapshot,
    input: { recipient: snapshot.context.recipient },
  });
  return <VerificationScreen otp={otp} />;
}

/** Step 4 with the KYC child restored at a fixture, under the wizard's 'Paso N de 8'. */
export function KycAt({ snapshot }: { snapshot: SnapshotFrom<typeof kycMachine> }) {
  const kyc = useActorRef(storyKycMachine, { snapshot, input: {} });
  return (
    <>
      <KycProgress kyc={kyc} />
      <KycScreen kyc={kyc} />
    </>
  );
}

/** 'Datos complementarios' with its child restored at a fixture. */
export function SupplementaryAt({
  snapshot,
  notice,
}: {
  snapshot: SnapshotFrom<typeof supplementaryMachine>;
  /** what the KYC step says above the form (a person's decision) */
  notice?: ReactNode;
}) {
  const { form, hasDocumentNumber } = snapshot.context;
  const supplementary = useActorRef(storySupplementaryMachine, {
    snapshot,
    input: { form, hasDocumentNumber },
  });
  return <SupplementaryScreen supplementary={supplementary} notice={notice} />;
}

/** The way out with its child restored at a fixture, alone (its end: the KYC machine leaves it). */
export function AssistAt({ snapshot }: { snapshot: SnapshotFrom<typeof assistMachine> }) {
  const { registrationToken, assist, case: found, unsentFront, claim } = snapshot.context;
  const child = useActorRef(storyAssistMachine, {
    snapshot,
    input: { registrationToken, assist, case: found, unsentFront, claim },
  });
  return <AssistSteps assist={child} />;
}
