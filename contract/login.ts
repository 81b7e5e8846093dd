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

export const loginPaths = { login: '/api/auth/login' } as const;
