import { z } from 'zod';
import { parseEnv } from '../sms/config';

/**
 * PIN recovery's own limits (issue 8). The code itself follows the onboarding code's settings
 * (5 minutes, single use, wrong tries per code and per phone, the 30 s resend wait, the per-phone
 * and per-address SMS caps): see server/onboarding/config.ts.
 */
export type RecoverySettings = {
  /** send-pin-otp calls per document number, whether or not it exists or the mobile matches */
  sendsPerDocumentPerHour: number;
  sendsPerDocumentPerDay: number;
  /** validate-pin-otp calls per document number (a right code gives its try back) */
  validationsPerDocumentPerHour: number;
  /** how long the recovery grant lets the browser set a new PIN */
  grantTtlMs: number;
};

const int = (def: number) => z.coerce.number().int().positive().default(def);
const schema = z.object({
  RECOVERY_MAX_PER_DOCUMENT_HOUR: int(5),
  RECOVERY_MAX_PER_DOCUMENT_DAY: int(10),
  RECOVERY_MAX_VALIDATIONS_PER_DOCUMENT_HOUR: int(10),
  RECOVERY_GRANT_MINUTES: int(10),
});

export function loadRecoverySettings(env: Record<string, string | undefined>): RecoverySettings {
  const c = parseEnv(schema, env);
  return {
    sendsPerDocumentPerHour: c.RECOVERY_MAX_PER_DOCUMENT_HOUR,
    sendsPerDocumentPerDay: c.RECOVERY_MAX_PER_DOCUMENT_DAY,
    validationsPerDocumentPerHour: c.RECOVERY_MAX_VALIDATIONS_PER_DOCUMENT_HOUR,
    grantTtlMs: c.RECOVERY_GRANT_MINUTES * 60_000,
  };
}

export const DEFAULT_RECOVERY_SETTINGS: RecoverySettings = loadRecoverySettings({});
