import type { Schema } from './common';

/**
 * GET /api/auth/session's answer. Declared here, without zod, so that neither file imports the
 * other's values and ./session.ts's schema is held to it (no import circle, issue 27 part 5).
 */
export type SessionResponse =
  | { authenticated: true; patient: { nombre: string; apellido: string }; expiresAt: string }
  | { authenticated: false };

/** The session's paths, without zod (the login page's first load; ./session.ts has the schemas). */
export const sessionPaths = {
  logout: '/api/auth/logout',
  session: '/api/auth/session',
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * GET /api/auth/session's answer checked without zod: every page of the session area asks it at
 * load, and zod would then be on /login's first load (issue 19: at most 120 KB). The same
 * shape as ./session.ts's zod `sessionResponse`, unknown keys dropped alike;
 * tests/contract/session.test.ts holds the two to the same answers.
 */
export const sessionResponseCheck: Schema<SessionResponse> = {
  safeParse(data) {
    if (!isRecord(data)) return { success: false };
    if (data.authenticated === false) return { success: true, data: { authenticated: false } };
    const { patient, expiresAt } = data;
    if (
      data.authenticated !== true ||
      !isRecord(patient) ||
      typeof patient.nombre !== 'string' ||
      typeof patient.apellido !== 'string' ||
      typeof expiresAt !== 'string'
    )
      return { success: false };
    return {
      success: true,
      data: {
        authenticated: true,
        patient: { nombre: patient.nombre, apellido: patient.apellido },
        expiresAt,
      },
    };
  },
};
