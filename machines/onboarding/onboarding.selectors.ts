import type { ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { KycMachine } from '../kyc/kyc.machine';
import type { HandoffMachine } from './handoff.machine';
import type { OnboardingMachine } from './onboarding.machine';
import type { PinCreationMachine, PinRenewalMachine } from './pin.machine';
import type { RegisteringMachine } from './registering.machine';
import type { RegistrationFormMachine } from './registration.machine';
import type { InsightStep } from '../../contract/insight';
import type { OnboardingField, OnboardingStep, PinMissing } from './onboarding.types';

type Snapshot = SnapshotFrom<OnboardingMachine>;
type RegistrationFormSnapshot = SnapshotFrom<RegistrationFormMachine>;
type PinCreationSnapshot = SnapshotFrom<PinCreationMachine>;
type PinRenewalSnapshot = SnapshotFrom<PinRenewalMachine>;
type HandoffSnapshot = SnapshotFrom<HandoffMachine>;
type RegisteringSnapshot = SnapshotFrom<RegisteringMachine>;

type OnboardingScreen =
  | 'linkOpening'
  | 'linkRefused'
  | 'handoff'
  | 'registration'
  | 'verification'
  | 'pinCreation'
  | 'welcome'
  | 'kyc'
  | 'pinRenewal'
  | 'registering'
  | 'unexpected'
  | 'complete'
  | 'patientExists'
  | 'leaving'
  | 'home';

const screens: readonly OnboardingScreen[] = [
  'linkOpening',
  'linkRefused',
  'handoff',
  'registration',
  'verification',
  'pinCreation',
  'welcome',
  'kyc',
  'pinRenewal',
  'registering',
  'unexpected',
  'complete',
  'patientExists',
  'leaving',
  'home',
];

export const selectOnboardingScreen = (s: Snapshot): OnboardingScreen =>
  screens.find((screen) => s.matches(screen)) ?? 'registration';

const steps: Partial<Record<OnboardingScreen, OnboardingStep>> = {
  registration: 0,
  verification: 1,
  pinCreation: 2,
  welcome: 3,
  kyc: 4,
  handoff: 4,
  linkOpening: 4,
  pinRenewal: 4,
  registering: 4,
  complete: 5,
};

/** The spec's step number, or null on the pages outside the numbered steps. */
export const selectOnboardingStep = (s: Snapshot): OnboardingStep | null =>
  steps[selectOnboardingScreen(s)] ?? null;

/**
 * How many steps 'Paso N de M' counts (issue 43 item 6): the spec's steps 0 to 3, then the
 * identity step's parts as steps of their own (the selfie; the card's photos, front and back, and
 * their check; the review; the complementary data), so its longest part does not read as the end.
 */
export const ONBOARDING_PROGRESS_STEPS = 8;

const progressSteps: Partial<Record<OnboardingScreen, number>> = {
  registration: 1,
  verification: 2,
  pinCreation: 3,
  welcome: 4,
  // The identity step before its child runs (its code loading), and on the way to the phone:
  // its first part.
  kyc: 5,
  handoff: 5,
  linkOpening: 5,
  // 'Elegí otro PIN' and the register call end the last part.
  pinRenewal: 8,
  registering: 8,
};

/** The identity step's parts, as the KYC child's states declare them (their meta's step). */
const identityParts: Partial<Record<InsightStep, number>> = {
  selfie: 5,
  document: 6,
  review: 7,
  supplementary: 8,
};

/**
 * The progress step of the identity step's part the KYC child is on: its deepest state's declared
 * step. Null on the way out to a person (the offer and the case: no step of the patient's) and
 * once it is done.
 */
export const selectKycProgressStep = (s: SnapshotFrom<KycMachine>): number | null => {
  const declared = Object.values(s.getMeta()).flatMap((meta) =>
    meta?.insight?.step ? [meta.insight.step] : [],
  );
  const part = declared.at(-1);
  return part ? (identityParts[part] ?? null) : null;
};

/**
 * 'Paso N de 8' (ONBOARDING_PROGRESS_STEPS); on the identity step, the KYC child's part
 * (selectKycProgressStep: a view subscribes to the child for it). Null on the pages outside the
 * numbered steps (completion, patient exists).
 */
export const selectOnboardingProgress = (s: Snapshot): { step: number; of: number } | null => {
  const kyc = selectKycActor(s);
  const step = kyc
    ? selectKycProgressStep(kyc.getSnapshot())
    : (progressSteps[selectOnboardingScreen(s)] ?? null);
  return step === null ? null : { step, of: ONBOARDING_PROGRESS_STEPS };
};

/** Every back or cancel ended the flow: the view goes home. */
export const selectGoHome = (s: Snapshot): boolean => s.matches('home');

/** Step 0's form (the `registrationForm` child). */
export const selectRegistrationView = (s: RegistrationFormSnapshot) => {
  const sending = s.matches('sending');
  const { phone, email } = s.context.fieldErrors;
  const focus: OnboardingField = phone || !email ? 'phone' : 'email';
  return {
    /** failed submits, and the first field to fix after one (the phone when the send failed) */
    failures: s.context.failures,
    focus,
    phoneInput: s.context.phoneInput,
    emailInput: s.context.emailInput,
    phoneError: s.context.fieldErrors.phone,
    emailError: s.context.fieldErrors.email,
    error: s.matches('invalid') || s.matches('failed') ? s.context.error : null,
    sending,
    canSubmit: s.can({ type: 'form.submit' }),
    canGoBack: s.can({ type: 'flow.back' }),
  };
};

/** Step 2's form (the `pinCreation` child). */
export const selectPinCreationView = (s: PinCreationSnapshot) => {
  const { pinInput, termsAccepted } = s.context;
  const error = s.matches('invalid') || s.matches('saveFailed') ? s.context.error : null;
  const missing: PinMissing | null =
    !pinInput && !termsAccepted
      ? 'pinAndTerms'
      : !pinInput
        ? 'pin'
        : !termsAccepted
          ? 'terms'
          : null;
  const focus: OnboardingField = error?.code === 'termsRequired' ? 'terms' : 'pin';
  return {
    pinInput,
    termsAccepted,
    /** the PIN is being kept with the registration, or could not be (the banner) */
    saving: s.matches('saving'),
    saveError: s.matches('saveFailed') ? s.context.error : null,
    // 'Validar' stays disabled until a PIN is typed and the terms are checked (spec 5).
    canSubmit: missing === null && s.can({ type: 'form.submit' }),
    /** what keeps 'Validar' disabled, said beside it */
    missing,
    error,
    /** each field's own message */
    pinError: error?.code === 'pinInvalid' ? error : null,
    termsError: error?.code === 'termsRequired' ? error : null,
    failures: s.context.failures,
    focus,
  };
};

/** After the card (the `pinRenewal` child): a PIN not made from the birth date or document number. */
export const selectPinRenewalView = (s: PinRenewalSnapshot) => ({
  pinInput: s.context.pinInput,
  canSubmit: s.context.pinInput.length > 0 && s.can({ type: 'form.submit' }),
  missing: s.context.pinInput.length > 0 ? null : ('pin' as const),
  pinError: s.matches('invalid') ? s.context.error : null,
  failures: s.context.failures,
});

/** The final register call (the `registering` child): in flight, or failed with a retry. */
export const selectRegisteringView = (s: RegisteringSnapshot) => ({
  submitting: s.matches('submitting'),
  error: s.matches('failed') ? s.context.error : null,
  canRetry: s.can({ type: 'register.retry' }),
  canCancel: s.can({ type: 'flow.back' }),
});

/**
 * 'Retomamos tu registro': the registration continued where it was left (not at the PIN), said
 * once, on the first screen after the resume (issue 29 item 13): the welcome, or step 4's first
 * screen, which the KYC child knows (`selectKycResumed`; 'kyc' here: ask the child).
 */
export const selectResumed = (s: Snapshot): boolean | 'kyc' => {
  if (!s.context.resumed) return false;
  if (s.matches('welcome')) return true;
  if (s.matches({ kyc: 'loading' })) return s.context.kycResume !== null;
  return s.matches({ kyc: 'running' }) ? 'kyc' : false;
};

/**
 * Step 4's first screen of a resumed registration (the KYC child's own snapshot): the notice shows.
 * Here, not in kyc.selectors: steps 0-3 must not download the KYC chunk for it.
 */
export const selectKycResumed = (s: SnapshotFrom<KycMachine>): boolean => s.context.resumedHere;

/**
 * 'Seguí en tu celular' on the first device (the `handoff` child): the link being sent, sent (with
 * how far the phone got), not sent (with the reason and a new try), or no longer this device's
 * registration.
 */
export const selectHandoffView = (s: HandoffSnapshot) => ({
  sending: s.matches('sending'),
  waiting: s.matches('waiting'),
  stage: s.context.sent?.stage ?? null,
  /** the link's validity, in whole minutes */
  expiresInMinutes: s.context.sent ? Math.round(s.context.sent.expiresInSeconds / 60) : null,
  /** the verified mobile the SMS went to */
  phone: s.context.phone,
  error: s.matches('failed') || s.matches('stopped') ? s.context.error : null,
  canResend: s.can({ type: 'handoff.resend' }),
  /**
   * 'Usar la cámara de este dispositivo' (the wizard's), while the registration is this device's
   * and this device has a camera (issue 29 item 12)
   */
  canUseThisDevice: !s.context.cameraMissing && !s.matches('stopped') && s.status === 'active',
});

/** The phone opening the SMS link, or the link refused (with the reason and the SMS way back). */
export const selectLinkView = (s: Snapshot) => ({
  opening: s.matches('linkOpening'),
  error: s.matches('linkRefused') ? s.context.error : null,
  /** the link's registration finished: log in, not the SMS code again (issue 29 item 16) */
  complete: s.matches('linkRefused') && s.context.error?.code === 'linkRegistrationComplete',
});

export const selectUnexpectedView = (s: Snapshot) => ({
  error: s.matches('unexpected') ? s.context.error : null,
});

/** The OTP child while on step 1 (its own selectors render it). */
export const selectOtpActor = (s: Snapshot) => s.children.otp;

/** Step 0's form while on step 0. */
export const selectRegistrationFormActor = (s: Snapshot) => s.children.registrationForm;

/** Step 2's form while on step 2. */
export const selectPinCreationActor = (s: Snapshot) => s.children.pinCreation;

/** 'Elegí otro PIN' while the card's data refused the PIN. */
export const selectPinRenewalActor = (s: Snapshot) => s.children.pinRenewal;

/** The final register call while it runs or failed. */
export const selectRegisteringActor = (s: Snapshot) => s.children.registering;

/** 'Seguí en tu celular' while this device follows the phone. */
export const selectHandoffActor = (s: Snapshot) => s.children.handoff;

/** The KYC child while on step 4 (spawned once its chunk has loaded; undefined before). */
export const selectKycActor = (s: Snapshot): ActorRefFrom<KycMachine> | undefined =>
  s.matches({ kyc: 'running' })
    ? ((s.children as Record<string, AnyActorRef | undefined>).kyc as
        ActorRefFrom<KycMachine> | undefined)
    : undefined;

/**
 * Step 4 before its screens show: the KYC code loading (also while the child runs and its screens'
 * chunk finishes: the view's Suspense fallback), or the load failed, with a retry.
 */
export const selectKycLoadView = (s: Snapshot) => ({
  loading: s.matches('kyc') && !s.matches({ kyc: 'loadFailed' }),
  error: s.matches({ kyc: 'loadFailed' }) ? s.context.error : null,
  canRetry: s.can({ type: 'kycLoad.retry' }),
});
