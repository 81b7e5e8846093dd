import { z } from 'zod';
import { int, parseEnv } from '../env';

/**
 * PIN recovery's own limits (issue 8). The code itself follows the onboarding code's settings
 * (5 minutes, single use, wrong tries per code and per phone, the 30 s resend wait, the per-phone
 * and per-address SMS caps): see server/onboarding/config.ts.
 */
export type RecoverySettings = {
  /**
   * send-pin-otp calls per document AND mobile (the pair), whether or not they match: a stranger's
   * calls with other mobiles never spend the real pair's budget. The 30 s resend wait is per pair too.
   */
  sendsPerDocumentPerHour: number;
  sendsPerDocumentPerDay: number;
  /** validate-pin-otp calls per document and mobile (a right code gives its try back) */
  validationsPerDocumentPerHour: number;
  /** how long the recovery grant lets the browser set a new PIN */
  grantTtlMs: number;
  /**
   * The work after a send-pin-otp answer (the SMS for a matching pair, housekeeping otherwise)
   * starts at a random moment in this range after the answer has left, for every input alike.
   */
  deliveryDelayMs: { min: number; max: number };
};

const ms = (def: number) => int(def, 0, 60_000);
const schema = z.object({
  RECOVERY_MAX_PER_DOCUMENT_HOUR: int(5),
  RECOVERY_MAX_PER_DOCUMENT_DAY: int(10),
  RECOVERY_MAX_VALIDATIONS_PER_DOCUMENT_HOUR: int(10),
  RECOVERY_GRANT_MINUTES: int(10),
  RECOVERY_SMS_DELAY_MIN_MS: ms(200),
  RECOVERY_SMS_DELAY_MAX_MS: ms(1200),
});

export function loadRecoverySettings(env: Record<string, string | undefined>): RecoverySettings {
  const c = parseEnv(schema, env);
  return {
    sendsPerDocumentPerHour: c.RECOVERY_MAX_PER_DOCUMENT_HOUR,
    sendsPerDocumentPerDay: c.RECOVERY_MAX_PER_DOCUMENT_DAY,
    validationsPerDocumentPerHour: c.RECOVERY_MAX_VALIDATIONS_PER_DOCUMENT_HOUR,
    grantTtlMs: c.RECOVERY_GRANT_MINUTES * 60_000,
    deliveryDelayMs: {
      min: Math.min(c.RECOVERY_SMS_DELAY_MIN_MS, c.RECOVERY_SMS_DELAY_MAX_MS),
      max: Math.max(c.RECOVERY_SMS_DELAY_MIN_MS, c.RECOVERY_SMS_DELAY_MAX_MS),
    },
  };
}
