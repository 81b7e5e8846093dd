import { z } from 'zod';
import { int, parseEnv } from '../env';

/**
 * Settings of the back office's operators (issue 30): where their passkeys belong (the WebAuthn
 * relying party) and how long their sessions last.
 */
const schema = z.object({
  /** The relying party's id: the public host name (default: PUBLIC_URL's, or the request's in development). */
  OPERATOR_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i)
    .optional(),
  /** The origin the operators' browsers open (default: PUBLIC_URL's, or the request's in development). */
  OPERATOR_ORIGIN: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  OPERATOR_RP_NAME: z.string().min(1).max(64).default('Portal del Paciente'),
  OPERATOR_SESSION_IDLE_MINUTES: int(15, 1, 24 * 60),
  OPERATOR_SESSION_HOURS: int(8, 1, 24),
  /** Per client address in 10 minutes: enrolment calls and login calls (options and verify alike). */
  OPERATOR_ENROL_PER_10_MIN: int(20, 1, 10_000),
  OPERATOR_LOGIN_PER_10_MIN: int(40, 1, 10_000),
});

export type OperatorsConfig = {
  /** null: the request's host name (development and tests only). */
  rpId: string | null;
  /** null: the request's own origin (development and tests only). */
  origin: string | null;
  rpName: string;
  idleMs: number;
  absoluteMs: number;
  /** Base of the enrolment link `npm run operadores` prints. */
  publicUrl: string | undefined;
  /** Production without a configured origin: enrolment and login are refused (503). */
  requireConfiguredOrigin: boolean;
  /** Enrolment and login calls allowed per client address in `windowMs`. */
  limits: { enrol: number; login: number; windowMs: number };
};

export function loadOperatorsConfig(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): OperatorsConfig {
  const c = parseEnv(schema, env);
  const base = c.OPERATOR_ORIGIN ?? c.PUBLIC_URL;
  const origin = base ? new URL(base).origin : null;
  return {
    rpId: c.OPERATOR_RP_ID ?? (origin ? new URL(origin).hostname : null),
    origin,
    rpName: c.OPERATOR_RP_NAME,
    idleMs: c.OPERATOR_SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: c.OPERATOR_SESSION_HOURS * 3_600_000,
    publicUrl: base,
    requireConfiguredOrigin: appEnv === 'production',
    limits: {
      enrol: c.OPERATOR_ENROL_PER_10_MIN,
      login: c.OPERATOR_LOGIN_PER_10_MIN,
      windowMs: 10 * 60_000,
    },
  };
}
