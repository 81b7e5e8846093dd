import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import type {
  RegisterRequest,
  RegistrationResume,
  RegistrationStage,
  RegistrationStatusResponse,
} from '../../contract/onboarding';
import type { pinOwnDataOf } from '../../contract/pin';
import type {
  HandoffStartEvent,
  KycOutput,
  KycResult,
  KycResume,
  SupplementaryData,
} from '../kyc/kyc.types';
import type { PollingEvent } from '../shared/polling';

/** The terms' versions the PIN step accepts (and /tyc shows): the server's (contract/terms.ts). */
export { PRIVACY_VERSION, TERMS_VERSION } from '../../contract/terms';

/** Why a wizard step stopped; each code has its Spanish text in src/copy/es.onboarding.ts. */
export type OnboardingErrorCode =
  /** submit with an invalid phone (banner) */
  | 'phoneInvalidSubmit'
  /** the phone field's own line */
  | 'phoneInvalid'
  | 'emailInvalid'
  /** POST /start refused without a message of its own */
  | 'startFailed'
  /** the code could not be sent (no answer, unreadable answer) */
  | 'sendCodeFailed'
  | 'tooManyAttempts'
  | 'pinInvalid'
  /** the PIN is made from the card's birth date or number (contract/pin.ts): choose another */
  | 'pinFromOwnData'
  | 'termsRequired'
  /** POST /register refused (HTTP not OK or success false) */
  | 'registerFailed'
  /** POST /register answered something that is not the contract's JSON */
  | 'registerInvalidResponse'
  /** POST /register got no answer */
  | 'registerNetwork'
  /** step 4's code could not be downloaded (offline, a deploy replaced it): retry in place */
  | 'kycLoadFailed'
  /** a child step (OTP, KYC) stopped with an error of its own: nothing to retry in place */
  | 'unexpected'
  /** step 2 could not be kept server-side (no answer, or the server's refusal) */
  | 'savePinFailed'
  /** the SMS with the link could not be sent (or not yet: the resend wait) */
  | 'handoffFailed'
  /** the first device lost the registration while following the phone (re-verified elsewhere) */
  | 'handoffStopped'
  /** the phone's link was refused: used, expired, or not valid */
  | 'linkRefused'
  /** the phone's link was real and its registration finished: log in (issue 29 item 16) */
  | 'linkRegistrationComplete';

export type OnboardingError = { code: OnboardingErrorCode; serverMessage?: string };

export type FieldErrors = {
  phone: 'phoneInvalid' | null;
  email: 'emailInvalid' | null;
};

/** The wizard: only the order of the steps and what one step hands the next (never a field). */
export type OnboardingContext = {
  /** normalised 09XXXXXXXX: the registration form's, then the registration's */
  phone: string | null;
  /** trimmed, null when left empty */
  email: string | null;
  /** the resend wait the server announced with the first code */
  resendAfterSeconds: number | null;
  /** the chosen PIN, kept in memory only until the register call */
  pin: string | null;
  sessionId: string | null;
  kycResult: KycResult | null;
  supplementaryData: SupplementaryData | null;
  /** the wizard's own errors (step 4's load, the link, the register call, a broken child) */
  error: OnboardingError | null;
  /** the registration the verified mobile opened or resumed (validate-otp, or the SMS link) */
  registrationToken: string | null;
  /** the registration continued where it was left (a notice says so) */
  resumed: boolean;
  /** where step 4 continues (a passed selfie, a read document); used once */
  kycResume: KycResume | null;
  /** the SMS link's token, on the phone that opened it (null on the first device) */
  linkToken: string | null;
  /** the server refused the PIN at register: 'Elegí otro PIN' opens with the reason */
  pinRefused: boolean;
  /** back from step 1: the code sent and its wait left, for step 0's form */
  codeSent: CodeSent | null;
  /** step 4 found no usable camera on this device (handed to the phone for that reason) */
  cameraMissing: boolean;
};

/** The phone that opened the SMS link starts from its token (src/flows/onboarding). */
export type OnboardingInput = { linkToken?: string | null | undefined };

/** What keeps a PIN step's 'Validar' disabled: no PIN typed, the terms not accepted, or both. */
export type PinMissing = 'pinAndTerms' | 'pin' | 'terms';

export type OnboardingEvent =
  | { type: 'welcome.next' }
  /** step 4's code failed to load: try again */
  | { type: 'kycLoad.retry' }
  /** the spawned KYC child (loaded on step 4) finished or failed */
  | DoneActorEvent<KycOutput, 'kyc'>
  | ErrorActorEvent<unknown, 'kyc'>
  /** every back arrow and 'Cancelar': the flow ends and the view goes home */
  | { type: 'flow.back' }
  /** step 4: 'Seguir en mi celular' (the KYC child forwards its view's choice) */
  | HandoffStartEvent
  /** 'Usar la cámara de este dispositivo': back to step 4 here */
  | { type: 'handoff.cancel' }
  /** the phone's link was refused: verify the mobile by SMS instead */
  | { type: 'link.restart' };

/** The fields a failed submit sends the focus to. */
export type OnboardingField = 'phone' | 'email' | 'pin' | 'terms';

/** The spec's step numbers (section 2): 0 registration ... 5 completion. */
export type OnboardingStep = 0 | 1 | 2 | 3 | 4 | 5;

/** The card's data a PIN must not come from (contract/pin.ts). */
type PinOwnData = ReturnType<typeof pinOwnDataOf>;

// ---------------------------------------------------------------------------------------------
// The wizard's children: one machine per step that has fields or calls of its own.

/** Step 0's form (registration.machine.ts). */
export type RegistrationFormContext = {
  /** the phone field as typed or pasted, after the fixed +595 */
  phoneInput: string;
  emailInput: string;
  fieldErrors: FieldErrors;
  /** normalised 09XXXXXXXX, fixed by the first valid submit */
  phone: string | null;
  email: string | null;
  /** the resend wait the server announced with the code */
  resendAfterSeconds: number | null;
  error: OnboardingError | null;
  /** failed submits so far: each sends the focus to the first field to fix */
  failures: number;
  /** a code already on its way to this mobile, within its resend wait (back from step 1) */
  codeSent: CodeSent | null;
};
/**
 * The code step's back arrow (issue 29 item 11): the code sent stays usable, so the same number
 * again within the resend wait goes back to the code step without a new send.
 */
export type CodeSent = { phone: string; email: string | null; secondsLeft: number };
export type RegistrationFormInput = { codeSent?: CodeSent | null | undefined } | undefined;
export type RegistrationFormEvent =
  | { type: 'phone.change'; value: string }
  | { type: 'phone.blur' }
  | { type: 'email.change'; value: string }
  | { type: 'email.blur' }
  | { type: 'form.submit' }
  | { type: 'flow.back' };
/** The code was sent to the mobile, or the mobile already belongs to a patient. */
export type RegistrationFormOutput =
  | { outcome: 'sent'; phone: string; email: string | null; resendAfterSeconds: number | null }
  | { outcome: 'exists' };

/** Step 2 (pinCreation) and, once the card is read, 'Elegí otro PIN' (pinRenewal): pin.machine.ts. */
export type PinContext = {
  pinInput: string;
  termsAccepted: boolean;
  /** the chosen PIN, handed to the wizard when the step ends */
  pin: string | null;
  error: OnboardingError | null;
  failures: number;
  /** step 2: the registration the PIN's hash is kept with (null for 'Elegí otro PIN': not kept) */
  save: PinCreationInput | null;
  /** once the card is read: the card's data the PIN must not come from */
  ownData: PinOwnData;
};
export type PinCreationInput = { registrationToken: string; email: string | null };
/** `refused`: the server refused the PIN at register (its copy of the card): the reason shows. */
export type PinRenewalInput = { ownData: PinOwnData; refused: boolean };
export type PinEvent =
  | { type: 'pin.change'; value: string }
  | { type: 'terms.change'; accepted: boolean }
  | { type: 'form.submit' }
  | { type: 'flow.back' };
export type PinOutput = { pin: string };

/** 'Seguí en tu celular' on the first device (handoff.machine.ts). */
export type HandoffContext = {
  registrationToken: string;
  /** the verified mobile the SMS goes to */
  phone: string;
  /** this device has no usable camera: 'Usar la cámara de este dispositivo' is not offered */
  cameraMissing: boolean;
  /** the link sent and how far the phone got */
  sent: { link: string; stage: RegistrationStage; expiresInSeconds: number } | null;
  error: OnboardingError | null;
};
export type HandoffInput = { registrationToken: string; phone: string; cameraMissing: boolean };
export type HandoffEvent =
  /** 'Reenviar el enlace' */
  | { type: 'handoff.resend' }
  /** the first device follows the phone */
  | PollingEvent<RegistrationStatusResponse>;

/** The phone opened the SMS link (link.machine.ts). */
export type LinkContext = {
  linkToken: string;
  /** the registration the link continues, once opened */
  registration: RegistrationResume | null;
  /** why the link was refused */
  error: OnboardingError | null;
};
export type LinkInput = { linkToken: string };
export type LinkOutput =
  | { outcome: 'opened'; registration: RegistrationResume }
  | { outcome: 'refused'; error: OnboardingError };

/** The final register call and what follows it (registering.machine.ts). */
export type RegisteringContext = {
  /** what the wizard gathered, sent as is (again on a retry) */
  request: RegisterRequest;
  error: OnboardingError | null;
};
export type RegisteringInput = RegisterRequest;
export type RegisteringEvent =
  /** 'Reintentar' after a failure: the same request again */
  | { type: 'register.retry' }
  /** 'Cancelar' after a failure (not while the call is in flight) */
  | { type: 'flow.back' };
/**
 * The patient was created; the document is a patient's already; the server's copy of the card
 * refused the PIN (another is asked for); or the patient cancelled after a failure.
 */
export type RegisteringOutput = {
  outcome: 'registered' | 'exists' | 'pinRefused' | 'cancelled';
};
