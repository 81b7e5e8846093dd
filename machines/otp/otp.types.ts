import type { RegistrationResume } from '../../contract/onboarding';
/** 6 digits; 30 s before a new code may be asked for unless the server says otherwise (spec 9). */
export { OTP_LENGTH, OTP_RESEND_WAIT_SECONDS } from '../../contract/onboarding';

/**
 * Who the code was sent to. Onboarding knows only the mobile; PIN recovery adds the document
 * number. The parent's validate and resend actors turn it into their endpoint's body.
 */
type OtpRecipient = { celular: string; numeroDocumento?: string };

/** Why a code step failed; each code has its Spanish text in src/copy/es.onboarding.ts. */
export type OtpErrorCode = 'wrongCode' | 'network' | 'tooManyAttempts' | 'resendFailed';

export type OtpError = { code: OtpErrorCode; serverMessage?: string; retryAfterSeconds?: number };

/** What the parent's validate and resend actors resolve with (the API's success/message pair). */
export type OtpVerdict = {
  success: boolean;
  message?: string | undefined;
  /** the server's own resend wait, when it sends one */
  resendAfterSeconds?: number | undefined;
  /** onboarding: the registration the verified mobile opened or resumes (contract/onboarding.ts) */
  registration?: RegistrationResume | undefined;
};

export type OtpValidateInput = { recipient: OtpRecipient; code: string };
export type OtpResendInput = { recipient: OtpRecipient };

type OtpNotice = 'codeResent';

export type OtpContext = {
  recipient: OtpRecipient;
  code: string;
  /** last validation failure (wrong code, network, too many attempts) */
  error: OtpError | null;
  /** last resend failure */
  resendError: OtpError | null;
  /** length of the current resend wait: the server's when it said one, else 30 s */
  waitSeconds: number;
  /** whole seconds until resend is allowed, mirrored from the countdown child */
  secondsLeft: number;
  notice: OtpNotice | null;
  /** the 6th digit validates at once (onboarding); PIN recovery waits for 'Validar código' */
  autoValidate: boolean;
  /** failed validations so far: each sends the focus back to the code field */
  failures: number;
  /** what the right code's answer said of the registration (onboarding), null before it */
  registration: RegistrationResume | null;
};

export type OtpInput = {
  recipient: OtpRecipient;
  /** the resend wait the server announced when it sent the first code */
  resendAfterSeconds?: number | undefined;
  /** default true: typing the 6th digit validates without a button press */
  autoValidate?: boolean | undefined;
};

export type OtpOutput = { recipient: OtpRecipient; registration: RegistrationResume | null };

export type OtpEvent =
  { type: 'code.change'; value: string } | { type: 'code.submit' } | { type: 'code.resend' };
