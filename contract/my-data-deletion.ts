import * as z from 'zod/mini';
import { digits } from './common';
import { PIN_LENGTH } from './login.constants';
import { OTP_LENGTH } from './onboarding';

/**
 * 'Eliminar mi cuenta' (issue 45 item 6): for the patient of the live session only. The PIN (counted
 * against login's lockout) sends an SMS code to the registered mobile; the code asks for the
 * deletion, which waits MY_DATA_DELETION_WAIT_HOURS and can be cancelled until then.
 */
export const deletionPaths = {
  status: '/api/mis-datos/eliminar',
  code: '/api/mis-datos/eliminar/codigo',
  confirm: '/api/mis-datos/eliminar',
  cancel: '/api/mis-datos/eliminar/cancelar',
} as const;

export const deletionCodeRequest = z.object({ pin: digits(PIN_LENGTH, PIN_LENGTH) });

export const deletionCodeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** when another code may be asked */
  resendAfterSeconds: z.number(),
});
export type DeletionCodeResponse = z.infer<typeof deletionCodeResponse>;

export const deletionConfirmRequest = z.object({ codigo: digits(OTP_LENGTH, OTP_LENGTH) });

/** The pending deletion, if any: when the account will be deleted. */
export const deletionStatusResponse = z.object({
  success: z.literal(true),
  deletion: z.nullable(z.object({ dueAt: z.string() })),
  /** how long a deletion waits once asked (MY_DATA_DELETION_WAIT_HOURS) */
  waitHours: z.number(),
});
export type DeletionStatusResponse = z.infer<typeof deletionStatusResponse>;
export type PendingDeletion = NonNullable<DeletionStatusResponse['deletion']>;
