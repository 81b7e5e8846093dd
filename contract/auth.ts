import * as z from 'zod/mini';
import { digits, resultResponse } from './common';

export const DOCUMENT_MIN = 5;
export const DOCUMENT_MAX = 12;
export const PIN_LENGTH = 6;

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

export const authPaths = {
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  session: '/api/auth/session',
} as const;
