import type { Config } from '../config';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError, tooManyAttempts } from '../http/errors';
import { messages } from '../http/messages';
import { recordLogin } from '../my-data/access-log';

type Guard = {
  consecutive_failures: number;
  failures_since_success: number;
  lock_count: number;
};

type LoginRules = Config['login'];

/** The outcome of counting one guess, decided before the PIN is compared. */
type Ticket =
  | { kind: 'locked'; failures: number; lock: Lock }
  | { kind: 'counted'; failures: number; ipFailureId: string; lock: Lock | null };

/** An account's lock: until when (ms), or `null` for the permanent one only recovery lifts. */
type Lock = { until: number | null };

/**
 * Checks a document number and PIN. An unknown number and a wrong PIN answer the same 401 after
 * about the same time. A locked ledger (from the guess that locks it on) answers 429 'too many
 * attempts', saying when to try again and pointing at PIN recovery (issue 29 item 9): the
 * per-account ledger is keyed by document number, so unknown numbers are delayed and locked
 * exactly like known ones, and that answer tells nobody whether the number is registered.
 *
 * Every guess is counted (per account and per client address) in one transaction, under a row
 * lock, BEFORE its PIN is compared: N concurrent guesses on one account get at most the remaining
 * allowance, and a guess beyond it is never compared at all. A right PIN then clears the ledger.
 */
export async function login(
  ctx: AppContext,
  input: { numero_documento: string; pin: string; clientIp: string },
  /** `record: false`: a PIN confirmed inside a session (issue 45 item 6) is not a login */
  options: { record?: boolean } = {},
): Promise<{ patientId: string }> {
  const { db, config, clock, pins } = ctx;
  const now = clock.now();

  const ticket = await db.transaction((tx) =>
    countGuess(tx, config.login, input.numero_documento, input.clientIp, now),
  );

  const patient = (
    await db.query<{ id: string; pin_hash: string }>(
      'SELECT id::text AS id, pin_hash FROM patients WHERE numero_documento = $1',
      [input.numero_documento],
    )
  ).rows[0];

  // Always spend one Argon2 verification, whatever the account's state; a locked account's PIN
  // is never compared.
  const pinOk =
    ticket.kind === 'counted' && patient
      ? await pins.verify(patient.pin_hash, input.pin)
      : (await pins.verifyDummy(input.pin), false);
  // 'Quién vio mis datos' (issue 45): the same statement for a known or unknown number.
  if (options.record !== false)
    await recordLogin(db, {
      documento: input.numero_documento,
      result: pinOk && patient && ticket.kind === 'counted' ? 'ok' : 'failed',
      at: new Date(now),
    });

  if (pinOk && patient && ticket.kind === 'counted') {
    await clearLoginGuard(ctx, input.numero_documento);
    // A success is not a failure of this address.
    await db.query('DELETE FROM login_failures WHERE id = $1', [ticket.ipFailureId]);
    return { patientId: patient.id };
  }

  await clock.sleep(failureDelayMs(config.login, ticket.failures));
  if (ticket.lock) throw lockedError(ticket.lock, clock.now());
  throw new HttpError(401, messages.loginBadCredentials);
}

/** 429 for a locked ledger: when to try again (Retry-After and the sentence), or recovery only. */
function lockedError(lock: Lock, now: number): HttpError {
  if (lock.until === null) return new HttpError(429, messages.loginLockedForGood);
  const seconds = Math.max(1, Math.ceil((lock.until - now) / 1000));
  return new HttpError(429, messages.loginLocked(seconds), { 'retry-after': String(seconds) });
}

/**
 * Counts one guess inside a transaction: the per-address cap (serialised per address by an
 * advisory lock), then the account's ledger row under FOR UPDATE. A guess on a locked account is
 * refused uncounted by the account (it is never compared) but still counts for the address.
 */
async function countGuess(
  tx: Db,
  rules: LoginRules,
  documento: string,
  clientIp: string,
  now: number,
): Promise<Ticket> {
  const at = new Date(now);
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`login-ip:${clientIp}`]);
  const ip = (
    await tx.query<{ n: number; oldest: Date | null }>(
      'SELECT count(*)::int AS n, min(at) AS oldest FROM login_failures WHERE client_ip = $1 AND at > $2',
      [clientIp, new Date(now - rules.ipWindowMs)],
    )
  ).rows[0];
  if (ip && ip.n >= rules.ipMaxFailures) {
    const oldest = ip.oldest ? new Date(ip.oldest).getTime() : now;
    throw tooManyAttempts((oldest + rules.ipWindowMs - now) / 1000);
  }
  const ipFailureId = (
    await tx.query<{ id: string }>(
      'INSERT INTO login_failures (client_ip, at) VALUES ($1, $2) RETURNING id::text AS id',
      [clientIp, at],
    )
  ).rows[0]!.id;

  // One atomic upsert that locks the row: a separate insert-then-SELECT FOR UPDATE finds no row
  // when a concurrent success (clearLoginGuard) deletes it in between (PostgreSQL, READ COMMITTED).
  const guard =
    // Compared in SQL: a permanent lock is 'infinity', which JavaScript dates cannot hold.
    (
      await tx.query<
        Guard & { had_lock: boolean; locked: boolean; permanent: boolean; until: Date | null }
      >(
        `INSERT INTO login_guards (numero_documento) VALUES ($1)
           ON CONFLICT (numero_documento) DO UPDATE SET numero_documento = EXCLUDED.numero_documento
         RETURNING consecutive_failures, failures_since_success, lock_count,
                   locked_until IS NOT NULL AS had_lock, coalesce(locked_until > $2, false) AS locked,
                   coalesce(locked_until = 'infinity', false) AS permanent,
                   CASE WHEN locked_until = 'infinity' THEN NULL ELSE locked_until END AS until`,
        [documento, at],
      )
    ).rows[0]!;
  if (guard.locked) {
    return {
      kind: 'locked',
      failures: Math.max(guard.consecutive_failures, rules.lockAfter),
      lock: { until: guard.permanent || !guard.until ? null : new Date(guard.until).getTime() },
    };
  }

  // A timed lock that has ended starts a new round; failures since the last success keep counting.
  const next = applyGuess(rules, guard, guard.had_lock, now);
  await tx.query(
    `UPDATE login_guards
        SET consecutive_failures = $2, failures_since_success = $3, lock_count = $4,
            locked_until = $5, locked_at = CASE WHEN $6::boolean THEN $7::timestamptz ELSE locked_at END,
            last_failure_at = $7
      WHERE numero_documento = $1`,
    [
      documento,
      next.consecutive,
      next.sinceSuccess,
      next.lockCount,
      next.lockedUntil,
      next.lockedNow,
      at,
    ],
  );
  // The guess that locks the ledger is answered as locked if its PIN turns out wrong.
  const lock = next.lockedNow
    ? { until: next.lockedUntil instanceof Date ? next.lockedUntil.getTime() : null }
    : null;
  return { kind: 'counted', failures: next.consecutive, ipFailureId, lock };
}

/** The ledger after counting one more guess (a failure until the PIN proves otherwise). */
function applyGuess(
  rules: Pick<LoginRules, 'lockAfter' | 'lockBaseMs' | 'lockMaxMs' | 'hardLockAfter'>,
  guard: Pick<Guard, 'consecutive_failures' | 'failures_since_success' | 'lock_count'>,
  lockEnded: boolean,
  now: number,
): {
  consecutive: number;
  sinceSuccess: number;
  lockCount: number;
  lockedUntil: Date | string | null;
  lockedNow: boolean;
} {
  const consecutive = (lockEnded ? 0 : guard.consecutive_failures) + 1;
  const sinceSuccess = guard.failures_since_success + 1;
  if (sinceSuccess >= rules.hardLockAfter) {
    // NIST SP 800-63B: no more than 100 failures without a success; then only recovery or the
    // operator lifts the lock.
    return {
      consecutive,
      sinceSuccess,
      lockCount: guard.lock_count + 1,
      lockedUntil: 'infinity',
      lockedNow: true,
    };
  }
  if (consecutive >= rules.lockAfter) {
    const lockCount = guard.lock_count + 1;
    return {
      consecutive,
      sinceSuccess,
      lockCount,
      lockedUntil: new Date(now + lockDurationMs(rules, lockCount)),
      lockedNow: true,
    };
  }
  return {
    consecutive,
    sinceSuccess,
    lockCount: guard.lock_count,
    lockedUntil: null,
    lockedNow: false,
  };
}

/** The n-th lock since the last success lasts base x 2^(n-1), up to the cap. */
export function lockDurationMs(
  rules: Pick<LoginRules, 'lockBaseMs' | 'lockMaxMs'>,
  lockNumber: number,
): number {
  return Math.min(rules.lockMaxMs, rules.lockBaseMs * 2 ** Math.max(0, lockNumber - 1));
}

/** No delay for the first failures; from the `delayAfter`-th on, doubling up to the cap. */
export function failureDelayMs(
  login: { delayAfter: number; delayBaseMs: number; delayMaxMs: number },
  failures: number,
): number {
  if (failures < login.delayAfter) return 0;
  return Math.min(login.delayMaxMs, login.delayBaseMs * 2 ** (failures - login.delayAfter));
}

/**
 * Clears the ledger for a document number: lifts any lock, timed or permanent, and resets every
 * count (a successful login, PIN recovery, the operator command, a new registration).
 */
export async function clearLoginGuard(
  ctx: Pick<AppContext, 'db'>,
  documento: string,
): Promise<void> {
  await ctx.db.query('DELETE FROM login_guards WHERE numero_documento = $1', [documento]);
}
