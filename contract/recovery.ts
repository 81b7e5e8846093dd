import * as z from 'zod/mini';
import { DOCUMENT_MAX, DOCUMENT_MIN } from './login';
import { digits, resultResponse } from './common';
import { OTP_LENGTH, resendOtpResponse } from './onboarding';
import { isAcceptablePin } from './pin';
import { normalizeParaguayPhone } from './phone';

/** PIN recovery (spec sections 3, 5 and 7; issue 8). */

/** The registered mobile as step 0 takes it: digits only, at most 10 (spec 5 and 9). */
const RECOVERY_CELULAR_MAX = 10;

/** The recovery grant's cookie (HttpOnly, SameSite=Strict, path /api/auth). */
export const RECOVERY_GRANT_COOKIE = 'recovery_grant';

const documento = digits(DOCUMENT_MIN, DOCUMENT_MAX);
const celular = z.string().check(
  z.regex(new RegExp(`^\\d{1,${RECOVERY_CELULAR_MAX}}$`)),
  z.refine((v) => normalizeParaguayPhone(v) !== null),
);

// POST /api/auth/send-pin-otp (also the resend of step 1)
export const sendPinOtpRequest = z.object({ numero_documento: documento, celular });
export type SendPinOtpRequest = z.input<typeof sendPinOtpRequest>;
/**
 * The same answer whether or not the document and mobile belong to a patient; the shape of
 * onboarding's resend answer (`resendAfterSeconds`: the server's wait before another send).
 */
export const sendPinOtpResponse = resendOtpResponse;
export type SendPinOtpResponse = z.infer<typeof sendPinOtpResponse>;

// POST /api/auth/validate-pin-otp: on the right code, sets the recovery grant cookie.
export const validatePinOtpRequest = z.object({
  numero_documento: documento,
  celular,
  otp: digits(OTP_LENGTH, OTP_LENGTH),
});
export type ValidatePinOtpRequest = z.input<typeof validatePinOtpRequest>;
export const validatePinOtpResponse = resultResponse;
export type ValidatePinOtpResponse = z.infer<typeof validatePinOtpResponse>;

// POST /api/auth/set-new-pin: needs the grant cookie issued for this document.
export const setNewPinRequest = z.object({
  numero_documento: documento,
  pin: z.string().check(z.refine((pin) => isAcceptablePin(pin))),
});
export type SetNewPinRequest = z.input<typeof setNewPinRequest>;
export const setNewPinResponse = resultResponse;
export type SetNewPinResponse = z.infer<typeof setNewPinResponse>;

export const recoveryPaths = {
  sendPinOtp: '/api/auth/send-pin-otp',
  validatePinOtp: '/api/auth/validate-pin-otp',
  setNewPin: '/api/auth/set-new-pin',
} as const;
