import { z } from 'zod';
import { num, parseEnv } from '../env';

/** 'Eliminar mi cuenta' (issue 45 item 6): the cooling-off period and how often the job looks. */
export type DeletionSettings = {
  /** how long a requested deletion waits, cancellable, before the job deletes the account */
  waitMs: number;
  /** how often the deletion job looks for due requests (and once at start) */
  checkEveryMs: number;
};

const schema = z.object({
  // Fractions allowed, so tests and e2e can wait seconds (0.002 hours: 7.2 s).
  MY_DATA_DELETION_WAIT_HOURS: num(24, 0, 24 * 365),
  MY_DATA_DELETION_CHECK_SECONDS: num(60, 0.1, 24 * 3600),
});

export function loadDeletionSettings(env: Record<string, string | undefined>): DeletionSettings {
  const c = parseEnv(schema, env);
  return {
    waitMs: Math.round(c.MY_DATA_DELETION_WAIT_HOURS * 3_600_000),
    checkEveryMs: Math.round(c.MY_DATA_DELETION_CHECK_SECONDS * 1000),
  };
}
