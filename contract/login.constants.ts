/**
 * The login's limits and paths, without zod: the login page's first load imports these (the form,
 * its machine), while the response schema (./login.ts) loads beside the first request.
 */
export const DOCUMENT_MIN = 5;
export const DOCUMENT_MAX = 12;
export const PIN_LENGTH = 6;

export const loginPaths = { login: '/api/auth/login' } as const;
