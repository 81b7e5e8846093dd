import type { Db } from '../../db/client';
import { IdentityError, identityMessages } from '../errors';

/**
 * `kyc_sessions`: every read and write of the table is here (the liveness, document and face
 * authentication services and the dev routes call these functions; none writes it itself).
 */

type KycStatus = 'liveness' | 'live' | 'completed' | 'rejected';
export type SessionRow = {
  id: string;
  status: KycStatus;
  decider: string;
  liveness_state: unknown;
  frame_seq: number;
  selfie_embedding: number[] | null;
  result: unknown;
  /** The face worker's eye anchor of the last analysed frame (worker/analyze.ts), or null. */
  eye_anchor: Uint8Array | null;
  expired: boolean;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isSessionId = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);

/** Loads a session, or throws 'invalid session' (unknown id) / 'session expired'. */
export async function loadSession(db: Db, id: string, forUpdate = false): Promise<SessionRow> {
  if (!isSessionId(id)) throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
  const { rows } = await db.query<SessionRow>(
    `SELECT id, status, decider, liveness_state, frame_seq, selfie_embedding, result, eye_anchor,
            expires_at < now() OR (status IN ('liveness', 'live')
              AND updated_at < now() - (idle_ms * interval '1 millisecond')) AS expired
       FROM kyc_sessions WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
  if (row.expired) throw new IdentityError('session_expired', identityMessages.sessionExpired);
  return row;
}

export async function insertSession(
  db: Db,
  id: string,
  decider: string,
  state: unknown,
  ttlMs: number,
  idleMs = 600_000,
): Promise<void> {
  await db.query(
    `INSERT INTO kyc_sessions (id, decider, liveness_state, expires_at, idle_ms)
     VALUES ($1, $2, $3::jsonb, now() + ($4::bigint * interval '1 millisecond'), $5)`,
    [id, decider, JSON.stringify(state), ttlMs, idleMs],
  );
}

/**
 * A session made by the server, not by a liveness challenge (issue 30): 'live' for the repeat of one
 * side of the card (the face is `embedding`), or 'completed' with `result` (an operator's approval:
 * its identity and face `sealed` instead, no `embedding`; issue 42, L4). It lives until
 * `expiresAt`, and may stay idle that long (the patient comes back when told by SMS).
 */
export async function insertMadeSession(
  db: Db,
  input: {
    id: string;
    decider: string;
    status: 'live' | 'completed';
    state: unknown;
    embedding: ArrayLike<number> | null;
    result: unknown;
    sealed?: Uint8Array | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO kyc_sessions (id, decider, status, liveness_state, selfie_embedding, result,
                               expires_at, idle_ms, live_at, completed_at, sealed_result)
     VALUES ($1, $2, $3, $4::jsonb, $5::real[], $6::jsonb, $7::timestamptz,
             greatest(0, ceil(extract(epoch FROM ($7::timestamptz - now())) * 1000))::bigint,
             now(), CASE WHEN $3 = 'completed' THEN now() END, $8::bytea)`,
    [
      input.id,
      input.decider,
      input.status,
      JSON.stringify(input.state),
      input.embedding ? Array.from(input.embedding) : null,
      input.result === null ? null : JSON.stringify(input.result),
      input.expiresAt.toISOString(),
      input.sealed ?? null,
    ],
  );
}

/**
 * Counts one document attempt of a session, atomically: false when the session already used `max`
 * (concurrent attempts cannot overshoot: the row is updated only while under the cap).
 */
export async function countScanAttempt(db: Db, id: string, max: number): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE kyc_sessions SET scan_attempts = scan_attempts + 1, updated_at = now()
      WHERE id = $1 AND scan_attempts < $2 RETURNING scan_attempts`,
    [id, max],
  );
  return rows.length > 0;
}

/**
 * Counts `n` liveness frames of a session against its cap, atomically and before any analysis:
 * false when they would take it past `max` (nothing is counted then). One UPDATE whose condition
 * PostgreSQL re-checks on the locked row, so two concurrent requests cannot both get past the cap.
 */
export async function countFrames(db: Db, id: string, n: number, max: number): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE kyc_sessions SET frames_received = frames_received + $2
      WHERE id = $1 AND frames_received + $2 <= $3 RETURNING frames_received`,
    [id, n, max],
  );
  return rows.length > 0;
}

/** What one liveness request leaves in its session. */
type LivenessProgress = {
  /** The decider's state after the request's frames. */
  state: unknown;
  /** The last stored frame's sequence number. */
  frameSeq: number;
  /** The challenge is passed: the session becomes 'live'. */
  live: boolean;
  /**
   * The best open-eye frame of this request, when it found one: its description becomes the
   * session's selfie; its photo is kept only when given (IDENTITY_STORE_PHOTOS, KYC sessions).
   */
  selfie: { embedding: number[]; photo: Uint8Array | null } | null;
  /**
   * The eye anchor for the next request (a piece of the patient's eye image): kept only while the
   * session is in liveness, so pass null once live.
   */
  anchor: Uint8Array | null;
};

/** Saves a liveness request's outcome, in the transaction that locked the session row. */
export async function saveLivenessProgress(
  tx: Db,
  id: string,
  progress: LivenessProgress,
): Promise<void> {
  await tx.query(
    `UPDATE kyc_sessions SET liveness_state = $2::jsonb, frame_seq = $3, updated_at = now(),
       status = CASE WHEN $4 THEN 'live' ELSE status END,
       live_at = CASE WHEN $4 THEN now() ELSE live_at END,
       selfie_embedding = COALESCE($5::real[], selfie_embedding),
       selfie_photo = CASE WHEN $5::real[] IS NOT NULL AND $6::bytea IS NOT NULL THEN $6::bytea ELSE selfie_photo END,
       eye_anchor = CASE WHEN $4 THEN NULL ELSE $7::bytea END
     WHERE id = $1`,
    [
      id,
      JSON.stringify(progress.state),
      progress.frameSeq,
      progress.live,
      progress.selfie?.embedding ?? null,
      progress.selfie?.photo ?? null,
      progress.anchor,
    ],
  );
}

/** The selfie's description of a session (face authentication identifies it), or null. */
export async function sessionSelfie(db: Db, id: string): Promise<number[] | null> {
  const { rows } = await db.query<{ selfie_embedding: number[] | null }>(
    'SELECT selfie_embedding FROM kyc_sessions WHERE id = $1',
    [id],
  );
  return rows[0]?.selfie_embedding?.map(Number) ?? null;
}

/** A live session whose document was verified: completed with its result (id_data, checks, face). */
export async function completeSession(db: Db, id: string, result: unknown): Promise<void> {
  await db.query(
    `UPDATE kyc_sessions SET status = 'completed', completed_at = now(), updated_at = now(), result = $2::jsonb
      WHERE id = $1 AND status = 'live'`,
    [id, JSON.stringify(result)],
  );
}

/**
 * Ends a session as rejected and forgets its face (selfie description and photo) and result. With
 * `decider`, only a session of that profile (face authentication forgets its kiosk sessions).
 */
export async function rejectSession(
  db: Db,
  id: string,
  reason: string,
  opts: { decider?: string } = {},
): Promise<void> {
  await db.query(
    `UPDATE kyc_sessions SET status = 'rejected', reject_reason = $2, updated_at = now(), result = NULL,
       selfie_embedding = NULL, selfie_photo = NULL, eye_anchor = NULL WHERE id = $1 AND ($3::text IS NULL OR decider = $3)`,
    [id, reason.slice(0, 500), opts.decider ?? null],
  );
}

/** Expires a session now (development: the browser's 'La sesión expiró' path); false when unknown. */
export async function expireSession(db: Db, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1 RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/**
 * What the register endpoint reads: the verified identity data and the selfie embedding to enroll.
 * A session an approval made has them in `sealed` (open with ../evidence.ts `openVerified`;
 * `idData` and `embedding` are then empty).
 */
export type CompletedKyc<IdData = Record<string, unknown>> = {
  sessionId: string;
  idData: IdData;
  embedding: number[];
  completedAt: string;
  sealed: Uint8Array | null;
};

/**
 * The completed KYC of a session, or null if it is unknown, expired, not completed or already used.
 * Pass `consume: true` inside the register transaction so one verification registers one patient.
 */
export async function getCompletedKyc(
  db: Db,
  sessionId: string,
  options: { consume?: boolean } = {},
): Promise<CompletedKyc | null> {
  if (!isSessionId(sessionId)) return null;
  const { rows } = await db.query<{
    result: { id_data?: Record<string, unknown> } | null;
    selfie_embedding: number[] | null;
    sealed_result: Uint8Array | null;
    completed_at: Date;
  }>(
    `SELECT result, selfie_embedding, sealed_result, completed_at FROM kyc_sessions
      WHERE id = $1 AND status = 'completed' AND consumed_at IS NULL AND expires_at > now()
      ${options.consume ? 'FOR UPDATE' : ''}`,
    [sessionId],
  );
  const row = rows[0];
  if (!row || (!row.selfie_embedding && !row.sealed_result)) return null;
  if (options.consume)
    await db.query('UPDATE kyc_sessions SET consumed_at = now() WHERE id = $1', [sessionId]);
  return {
    sessionId,
    idData: row.result?.id_data ?? {},
    embedding: row.selfie_embedding?.map(Number) ?? [],
    completedAt: new Date(row.completed_at).toISOString(),
    sealed: row.sealed_result ? Buffer.from(row.sealed_result) : null,
  };
}

/**
 * A valid session's status for resuming a registration: 'live' (selfie passed) while not idle or
 * expired, 'completed' (document read) while unused and not expired; null otherwise.
 */
export async function sessionStage(
  db: Db,
  sessionId: string,
): Promise<
  | { status: 'live' }
  | { status: 'completed'; idData: Record<string, unknown>; sealed: Uint8Array | null }
  | null
> {
  if (!isSessionId(sessionId)) return null;
  const { rows } = await db.query<{
    status: KycStatus;
    result: { id_data?: Record<string, unknown> } | null;
    sealed_result: Uint8Array | null;
  }>(
    `SELECT status, result, sealed_result FROM kyc_sessions
      WHERE id = $1 AND expires_at > now() AND consumed_at IS NULL
        AND (status = 'completed'
             OR (status = 'live' AND updated_at >= now() - (idle_ms * interval '1 millisecond')))`,
    [sessionId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.status === 'completed' && (row.result?.id_data || row.sealed_result))
    return {
      status: 'completed',
      idData: row.result?.id_data ?? {},
      sealed: row.sealed_result ? Buffer.from(row.sealed_result) : null,
    };
  return row.status === 'live' ? { status: 'live' } : null;
}

/** Deletes sessions past their retention (`replayWindowMs` after they expired). */
export async function purgeExpiredSessions(db: Db, replayWindowMs: number): Promise<void> {
  // An expired session's eye anchor (eye pixels) goes at once; the row stays for the replay window.
  await db.query(
    `UPDATE kyc_sessions SET eye_anchor = NULL WHERE eye_anchor IS NOT NULL AND expires_at < now()`,
  );
  await db.query(
    `DELETE FROM kyc_sessions WHERE expires_at < now() - ($1::bigint * interval '1 millisecond')`,
    [replayWindowMs],
  );
}

/**
 * A patient withdrew their face (issue 45 item 4): their KYC session keeps no description or photo
 * of it. A consumed session (the registration was done) also drops its sealed result, which holds
 * the approved face's description; a case's own sealed evidence stays until its purge.
 */
export async function forgetSessionFace(db: Db, id: string): Promise<void> {
  await db.query(
    `UPDATE kyc_sessions SET selfie_embedding = NULL, selfie_photo = NULL, eye_anchor = NULL,
            sealed_result = CASE WHEN consumed_at IS NOT NULL THEN NULL ELSE sealed_result END
      WHERE id::text = $1`,
    [id],
  );
}
