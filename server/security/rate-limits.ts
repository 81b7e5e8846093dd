import type { Db } from '../db/client';
import { HttpError, tooManyAttempts } from '../http/errors';

/**
 * At most `max` events per `windowMs` (sliding window). `refusal`: the 429's message when this
 * limit holds the longest wait (a wait that is no fault, as the one between two SMS codes);
 * otherwise 'Demasiados intentos'.
 */
type Limit = { max: number; windowMs: number; refusal?: (seconds: number) => string };

/** How long a check must wait, and the limit's own words for it when it has some. */
type Wait = { ms: number; refusal?: ((seconds: number) => string) | undefined };

/** A key (phone, client address...) in a bucket, with the limits that apply to it. */
export type LimitCheck = { bucket: string; key: string; limits: Limit[] };

/**
 * Milliseconds until one more event fits every limit of the check, or 0 when it fits now.
 * For a limit of `max` per window, the max-th newest event in the window must leave it first.
 */
async function retryAfter(db: Db, check: LimitCheck, now: number): Promise<Wait> {
  let wait: Wait = { ms: 0 };
  for (const limit of check.limits) {
    const { rows } = await db.query<{ at: Date }>(
      `SELECT at FROM rate_limit_events
        WHERE bucket = $1 AND key = $2 AND at > $3
        ORDER BY at DESC OFFSET $4 LIMIT 1`,
      [check.bucket, check.key, new Date(now - limit.windowMs), limit.max - 1],
    );
    const blocking = rows[0];
    if (blocking)
      wait = longer(wait, new Date(blocking.at).getTime() + limit.windowMs - now, limit);
  }
  return wait;
}

/** The longer wait; on a tie, 'Demasiados intentos' (a spent budget) over a limit's own words. */
function longer(wait: Wait, ms: number, limit: Pick<Limit, 'refusal'>): Wait {
  if (ms > wait.ms || (ms === wait.ms && ms > 0 && !limit.refusal))
    return { ms, refusal: limit.refusal };
  return wait;
}

/**
 * The 429 for a limit: Retry-After in seconds and the Spanish message (in seconds under a minute),
 * or the limit's own words (`refusal`).
 */
export function limitExceeded(waitMs: number, refusal?: (seconds: number) => string): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const headers = { 'retry-after': String(seconds) };
  if (refusal) return new HttpError(429, refusal(seconds), headers);
  if (seconds >= 60) return tooManyAttempts(seconds);
  return new HttpError(
    429,
    `Demasiados intentos. Esperá ${seconds} segundos e intentá de nuevo.`,
    headers,
  );
}

/**
 * Atomically checks every limit and, when all allow it, records one event per check (returning
 * their ids, so a caller can release an event that should not count). Throws the 429 otherwise.
 * Concurrent callers (other requests or other API processes) are serialised per bucket and key.
 */
export async function consumeLimits(db: Db, checks: LimitCheck[], now: number): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (tx.kind === 'postgres') {
      const keys = checks.map((c) => `${c.bucket}:${c.key}`).sort();
      for (const k of keys) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [k]);
    }
    await assertWithinLimits(tx, checks, now);
    const ids: string[] = [];
    for (const check of checks) {
      const { rows } = await tx.query<{ id: string }>(
        'INSERT INTO rate_limit_events (bucket, key, at) VALUES ($1, $2, $3) RETURNING id::text AS id',
        [check.bucket, check.key, new Date(now)],
      );
      ids.push(rows[0]!.id);
    }
    return ids;
  });
}

/** Throws the 429 when a check is already over its limits, without recording anything. */
export async function assertWithinLimits(db: Db, checks: LimitCheck[], now: number): Promise<void> {
  let wait: Wait = { ms: 0 };
  for (const check of checks) {
    const w = await retryAfter(db, check, now);
    wait = longer(wait, w.ms, w);
  }
  if (wait.ms > 0) throw limitExceeded(wait.ms, wait.refusal);
}

/** Takes back events that turned out not to count (a failed delivery, a right code). */
export async function releaseEvents(db: Db, ids: string[]): Promise<void> {
  if (ids.length)
    await db.query('DELETE FROM rate_limit_events WHERE id = ANY($1::bigint[])', [ids]);
}

/** Records events without checking (an answer that spends the budget but is not refused by it). */
export async function recordEvent(db: Db, bucket: string, key: string, now: number): Promise<void> {
  await db.query('INSERT INTO rate_limit_events (bucket, key, at) VALUES ($1, $2, $3)', [
    bucket,
    key,
    new Date(now),
  ]);
}

/** Drops events older than the longest window (housekeeping; safe to run from any process). */
export async function pruneEvents(db: Db, olderThanMs: number, now: number): Promise<void> {
  await db.query('DELETE FROM rate_limit_events WHERE at < $1', [new Date(now - olderThanMs)]);
}
