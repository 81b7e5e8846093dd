import * as z from 'zod/mini';
import { digits, resultResponse } from './common';
import { DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from './login.constants';

export { DOCUMENT_MAX, DOCUMENT_MIN, loginPaths, PIN_LENGTH } from './login.constants';

export const loginRequest = z.object({
  numero_documento: digits(DOCUMENT_MIN, DOCUMENT_MAX),
  pin: digits(PIN_LENGTH, PIN_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = resultResponse;
export type LoginResponse = z.infer<typeof loginResponse>;
