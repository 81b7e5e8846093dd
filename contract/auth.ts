import * as z from 'zod/mini';
import { DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from './auth.constants';
import { digits, resultResponse } from './common';

export { authPaths, DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from './auth.constants';

export const loginRequest = z.object({
  numero_documento: digits(DOCUMENT_MIN, DOCUMENT_MAX),
  pin: digits(PIN_LENGTH, PIN_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = resultResponse;
export type LoginResponse = z.infer<typeof loginResponse>;

export const logoutResponse = z.looseObject({ success: z.literal(true) });

export const sessionResponse = z.discriminatedUnion('authenticated', [
  z.object({
    authenticated: z.literal(true),
    patient: z.object({ nombre: z.string(), apellido: z.string() }),
    expiresAt: z.string(),
  }),
  z.object({ authenticated: z.literal(false) }),
]);
export type SessionResponse = z.infer<typeof sessionResponse>;
