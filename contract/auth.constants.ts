/**
 * The login's limits and paths, without zod: the login page's first load imports these (the form,
 * its machine), while the response schemas (./auth.ts) load beside the first request.
 */
export const DOCUMENT_MIN = 5;
export const DOCUMENT_MAX = 12;
export const PIN_LENGTH = 6;

export const authPaths = {
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  session: '/api/auth/session',
} as const;
