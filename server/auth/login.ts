import type { AppContext } from '../context';
import { HttpError, tooManyAttempts } from '../http/errors';
import { messages } from '../http/messages';

type Guard = { consecutive_failures: number; locked_at: Date | null };

/**
 * Checks a document number and PIN. An unknown number, a wrong PIN and a locked account all
 * answer the same 401 after about the same time; the per-account ledger is keyed by document
 * number, so unknown numbers are delayed and locked exactly like known ones.
 */
export async function login(
  ctx: AppContext,
  input: { numero_documento: string; pin: string; clientIp: string },
): Promise<{ patientId: string }> {
  const { db, config, clock, pins } = ctx;
  const now = clock.now();
  const windowStart = new Date(now - config.login.ipWindowMs);

  const ipFailures = await db.query<{ n: number; oldest: Date | null }>(
    'SELECT count(*)::int AS n, min(at) AS oldest FROM login_failures WHERE client_ip = $1 AND at > $2',
    [input.clientIp, windowStart],
  );
  const ip = ipFailures.rows[0];
  if (ip && ip.n >= config.login.ipMaxFailures) {
    const oldest = ip.oldest ? new Date(ip.oldest).getTime() : now;
    throw tooManyAttempts((oldest + config.login.ipWindowMs - now) / 1000);
  }

  const patient = (
    await db.query<{ id: string; pin_hash: string }>(
      'SELECT id::text AS id, pin_hash FROM patients WHERE numero_documento = $1',
      [input.numero_documento],
    )
  ).rows[0];
  const guard = (
    await db.query<Guard>(
      'SELECT consecutive_failures, locked_at FROM login_guards WHERE numero_documento = $1',
      [input.numero_documento],
    )
  ).rows[0];

  // Always spend one Argon2 verification, whatever the account's state.
  const pinOk = patient
    ? await pins.verify(patient.pin_hash, input.pin)
    : (await pins.verifyDummy(input.pin), false);

  if (pinOk && patient && !guard?.locked_at) {
    await db.query('DELETE FROM login_guards WHERE numero_documento = $1', [
      input.numero_documento,
    ]);
    return { patientId: patient.id };
  }

  const failures = await recordFailure(ctx, input.numero_documento, input.clientIp, new Date(now));
  await clock.sleep(failureDelayMs(config.login, failures));
  throw new HttpError(401, messages.loginBadCredentials);
}

async function recordFailure(
  ctx: AppContext,
  documento: string,
  clientIp: string,
  at: Date,
): Promise<number> {
  await ctx.db.query('INSERT INTO login_failures (client_ip, at) VALUES ($1, $2)', [clientIp, at]);
  const { rows } = await ctx.db.query<{ consecutive_failures: number }>(
    `INSERT INTO login_guards (numero_documento, consecutive_failures, last_failure_at, locked_at)
          VALUES ($1, 1, $2, CASE WHEN $3::int <= 1 THEN $2::timestamptz END)
     ON CONFLICT (numero_documento) DO UPDATE
          SET consecutive_failures = login_guards.consecutive_failures + 1,
              last_failure_at = $2,
              locked_at = COALESCE(login_guards.locked_at,
                CASE WHEN login_guards.consecutive_failures + 1 >= $3::int THEN $2::timestamptz END)
     RETURNING consecutive_failures`,
    [documento, at, ctx.config.login.lockAfter],
  );
  return rows[0]?.consecutive_failures ?? 1;
}

/** No delay for the first failures; from the `delayAfter`-th on, doubling up to the cap. */
export function failureDelayMs(
  login: { delayAfter: number; delayBaseMs: number; delayMaxMs: number },
  failures: number,
): number {
  if (failures < login.delayAfter) return 0;
  return Math.min(login.delayMaxMs, login.delayBaseMs * 2 ** (failures - login.delayAfter));
}

/** Clears the ledger for a document number (PIN recovery, new registration). */
export async function clearLoginGuard(ctx: AppContext, documento: string): Promise<void> {
  await ctx.db.query('DELETE FROM login_guards WHERE numero_documento = $1', [documento]);
}
