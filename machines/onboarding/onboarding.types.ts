import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import type { RegistrationStage, RegistrationStatusResponse } from '../../contract/onboarding';
import type { KycOutput, KycResult, KycResume, SupplementaryData } from '../kyc/kyc.types';
import type { PollingEvent } from '../shared/polling';

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
  | 'linkRefused';

export type OnboardingError = { code: OnboardingErrorCode; serverMessage?: string };

export type FieldErrors = {
  phone: 'phoneInvalid' | null;
  email: 'emailInvalid' | null;
};

export type OnboardingContext = {
  /** the phone field as typed, after the fixed +595 */
  phoneInput: string;
  emailInput: string;
  fieldErrors: FieldErrors;
  /** normalised 09XXXXXXXX, fixed by the first valid submit */
  phone: string | null;
  /** trimmed, null when left empty */
  email: string | null;
  /** the resend wait the server announced with the first code */
  resendAfterSeconds: number | null;
  pinInput: string;
  termsAccepted: boolean;
  /** the chosen PIN, kept in memory only until the register call */
  pin: string | null;
  sessionId: string | null;
  kycResult: KycResult | null;
  supplementaryData: SupplementaryData | null;
  error: OnboardingError | null;
  /** failed submits so far: each sends the focus to the first field to fix */
  failures: number;
  /** the registration the verified mobile opened or resumed (validate-otp, or the SMS link) */
  registrationToken: string | null;
  /** the registration continued where it was left (a notice says so) */
  resumed: boolean;
  /** where step 4 continues (a passed selfie, a read document); used once */
  kycResume: KycResume | null;
  /** the SMS link's token, on the phone that opened it (null on the first device) */
  linkToken: string | null;
  /** 'Seguí en tu celular': the link sent and how far the phone got */
  handoff: { link: string; stage: RegistrationStage; expiresInSeconds: number } | null;
};

/** The phone that opened the SMS link starts from its token (src/flows/onboarding). */
export type OnboardingInput = { linkToken?: string | null | undefined };

/** What keeps a PIN step's 'Validar' disabled: no PIN typed, the terms not accepted, or both. */
export type PinMissing = 'pinAndTerms' | 'pin' | 'terms';

export type OnboardingEvent =
  | { type: 'phone.change'; value: string }
  | { type: 'phone.blur' }
  | { type: 'email.change'; value: string }
  | { type: 'email.blur' }
  | { type: 'form.submit' }
  | { type: 'pin.change'; value: string }
  | { type: 'terms.change'; accepted: boolean }
  | { type: 'welcome.next' }
  | { type: 'register.retry' }
  /** step 4's code failed to load: try again */
  | { type: 'kycLoad.retry' }
  /** the spawned KYC child (loaded on step 4) finished or failed */
  | DoneActorEvent<KycOutput, 'kyc'>
  | ErrorActorEvent<unknown, 'kyc'>
  /** every back arrow and 'Cancelar': the flow ends and the view goes home */
  | { type: 'flow.back' }
  /** step 4: 'Seguir en mi celular' (the KYC child forwards its view's choice) */
  | { type: 'handoff.start' }
  /** 'Reenviar el enlace' */
  | { type: 'handoff.resend' }
  /** 'Usar la cámara de este dispositivo': back to step 4 here */
  | { type: 'handoff.cancel' }
  /** the first device follows the phone */
  | PollingEvent<RegistrationStatusResponse>
  /** the phone's link was refused: verify the mobile by SMS instead */
  | { type: 'link.restart' };

/** The fields a failed submit sends the focus to. */
export type OnboardingField = 'phone' | 'email' | 'pin' | 'terms';

/** The spec's step numbers (section 2): 0 registration ... 5 completion. */
export type OnboardingStep = 0 | 1 | 2 | 3 | 4 | 5;
