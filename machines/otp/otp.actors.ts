import { fromPromise } from 'xstate';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from './otp.types';

/** Raised when a parent invokes the OTP machine without plugging in its endpoints. */
export class OtpEndpointMissing extends Error {
  constructor(readonly actor: 'validateCode' | 'resendCode') {
    super(`otp: the parent must provide '${actor}' with otpMachine.provide({ actors })`);
    this.name = 'OtpEndpointMissing';
  }
}

/**
 * The OTP machine owns the code, the countdown and the error rules, not the endpoints: each parent
 * (onboarding, PIN recovery) provides these two actors through `otpMachine.provide({ actors })`.
 * These defaults only make a missing wiring fail loudly.
 */
export const validateCode = fromPromise<OtpVerdict, OtpValidateInput>(async () => {
  throw new OtpEndpointMissing('validateCode');
});

export const resendCode = fromPromise<OtpVerdict, OtpResendInput>(async () => {
  throw new OtpEndpointMissing('resendCode');
});
