import * as z from 'zod/mini';
import { digits } from './common';
import { PIN_LENGTH } from './login.constants';
import { OTP_LENGTH } from './onboarding';

/**
 * 'Mi rostro' (issue 45 item 4), under Mis datos, for the patient of the live session only:
 * lock face recognition (no code: it only protects), unlock it with the PIN and an SMS code, or
 * withdraw the biometric consent with the PIN (the enrolled face is deleted).
 */
export const myFacePaths = {
  state: '/api/mis-datos/rostro',
  lock: '/api/mis-datos/rostro/bloquear',
  sendCode: '/api/mis-datos/rostro/desbloquear/codigo',
  unlock: '/api/mis-datos/rostro/desbloquear',
  withdraw: '/api/mis-datos/rostro/retirar',
} as const;

/** The patient's face: enrolled or not, since when, and whether recognition is locked. */
export const myFaceState = z.object({
  enrolled: z.boolean(),
  since: z.nullable(z.string()),
  locked: z.boolean(),
  lockedAt: z.nullable(z.string()),
  /** the registered mobile the unlock code goes to, only its last 3 digits shown ('•••••••456') */
  celular: z.nullable(z.string()),
});
export type MyFaceState = z.infer<typeof myFaceState>;

export const myFaceResponse = z.object({
  success: z.literal(true),
  message: z.optional(z.string()),
  face: myFaceState,
});
export type MyFaceResponse = z.infer<typeof myFaceResponse>;

export const myFaceCodeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  resendAfterSeconds: z.number(),
  face: myFaceState,
});
export type MyFaceCodeResponse = z.infer<typeof myFaceCodeResponse>;

const pin = digits(PIN_LENGTH, PIN_LENGTH);

export const myFaceUnlockRequest = z.object({ pin, otp: digits(OTP_LENGTH, OTP_LENGTH) });
export type MyFaceUnlockRequest = z.infer<typeof myFaceUnlockRequest>;

export const myFaceWithdrawRequest = z.object({ pin });
export type MyFaceWithdrawRequest = z.infer<typeof myFaceWithdrawRequest>;
