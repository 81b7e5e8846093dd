import type { Db } from '../db/client';
import { IdentityError, identityMessages } from './errors';

/** Database access of the identity engine (PGlite or PostgreSQL through the app's Db). */

export type KycStatus = 'liveness' | 'live' | 'completed' | 'rejected';
export type SessionRow = {
  id: string;
  status: KycStatus;
  decider: string;
  liveness_state: unknown;
  frame_seq: number;
  selfie_embedding: number[] | null;
  result: unknown;
  expired: boolean;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Loads a session, or throws 'invalid session' (unknown id) / 'session expired'. */
export async function loadSession(db: Db, id: string, forUpdate = false): Promise<SessionRow> {
  if (typeof id !== 'string' || !UUID.test(id))
    throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
  const { rows } = await db.query<SessionRow>(
    `SELECT id, status, decider, liveness_state, frame_seq, selfie_embedding, result,
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

export type StoredFrame = { seq: number; thumb: Uint8Array };

/** The Hamming distance of a row's dHash to parameter $n, in SQL (PostgreSQL 14+, PGlite). */
const hammingTo = (n: number) => `bit_count((dhash # $${n}::bigint)::bit(64))`;
const int64 = (dhash: bigint) => BigInt.asIntN(64, dhash).toString();
/**
 * Thumbnails travel as base64 text, decoded natively by Buffer: PGlite decodes a bytea result in
 * JavaScript, byte by byte, and 200 thumbnails of 1728 bytes cost about 4x the rest of the replay
 * search (bench/liveness-replay-cost.ts); base64 is also a third shorter than PostgreSQL's hex.
 */
const thumbText = (column: string) => `encode(${column}, 'base64')`;
const fromThumbText = (text: string): Uint8Array => Buffer.from(text, 'base64');

/**
 * This session's earlier frames whose dHash is within `maxHamming` bits of the new one, the nearest
 * first (then the newest), at most `limit`: the only ones that can be near-duplicates (a re-encode
 * moves a few bits), so only they travel for the fine distance. Nearest first, so that a frame sent
 * again is found however many other frames the session stored since (the primary key's session_id
 * prefix bounds the scan to the session's own frames).
 */
export async function sessionFrames(
  db: Db,
  id: string,
  dhash: bigint,
  opts: { maxHamming: number; limit: number },
): Promise<StoredFrame[]> {
  const { rows } = await db.query<{ seq: number; thumb: string }>(
    `SELECT seq, ${thumbText('thumb')} AS thumb FROM liveness_frames
      WHERE session_id = $1 AND ${hammingTo(2)} <= $3
      ORDER BY ${hammingTo(2)}, seq DESC LIMIT $4`,
    [id, int64(dhash), opts.maxHamming, opts.limit],
  );
  return rows.map((r) => ({ seq: r.seq, thumb: fromThumbText(r.thumb) }));
}

export type ReplayCandidate = { session_id: string; thumb: Uint8Array; distance: number };

/**
 * Replay candidates: counted frames of OTHER sessions in the replay window whose dHash shares a
 * 16-bit band with this one (the four band indexes) and lies within `maxHamming` bits, the NEAREST
 * first (then the oldest), at most `limit`, with their thumbnails for the fine distance.
 *
 * Ordered before the limit, so a replay's source (0-3 bits away) cannot be crowded out by farther
 * band-matching frames, nor, for an exact replay, by later frames with its very dHash. And bounded:
 * per band, only the `scanPerBand` oldest and `scanPerBand` newest frames of the window are scored
 * (index (bN, created_at)), so a frame costs at most 8 x scanPerBand index rows however many frames
 * share its bands. To hide a source, frames of other sessions must outnumber it on both sides in
 * every band it shares with the replayed frame.
 */
export async function replayCandidates(
  db: Db,
  sessionId: string,
  dhash: bigint,
  windowMs: number,
  opts: { maxHamming: number; limit: number; scanPerBand: number },
): Promise<ReplayCandidate[]> {
  return (await replayCandidatesMany(db, sessionId, [dhash], windowMs, opts))[0]!;
}

/**
 * replayCandidates for the frames of one request at once, in two queries whatever their number
 * (they were 4 statements per frame): each distinct (band, value) of the frames is scanned once
 * (consecutive captures of one face share most band values), every frame takes its own nearest
 * `limit` among the scanned rows sharing a band with it (a superset of what it would scan alone,
 * so nothing it would have found is lost), and each candidate's thumbnail travels once, as base64.
 */
export async function replayCandidatesMany(
  db: Db,
  sessionId: string,
  dhashes: bigint[],
  windowMs: number,
  opts: { maxHamming: number; limit: number; scanPerBand: number },
): Promise<ReplayCandidate[][]> {
  if (!dhashes.length) return [];
  const params: unknown[] = [
    sessionId,
    windowMs,
    opts.scanPerBand,
    opts.maxHamming,
    opts.limit,
    dhashes.map(int64),
  ];
  const pairs = new Set<string>();
  const scans: string[] = [];
  for (const h of dhashes)
    bands(h).forEach((value, band) => {
      if (pairs.has(`${band}:${value}`)) return;
      pairs.add(`${band}:${value}`);
      params.push(value);
      for (const order of ['ASC', 'DESC'])
        scans.push(
          `(SELECT session_id, seq, created_at, dhash, b0, b1, b2, b3 FROM liveness_frames
             WHERE counted AND b${band} = $${params.length} AND session_id <> $1
               AND created_at > now() - ($2::bigint * interval '1 millisecond')
             ORDER BY created_at ${order} LIMIT $3)`,
        );
    });
  // Each band's scan must walk its (band, created_at) index and stop at the limit: with statistics
  // that do not know how many frames share a band (PGlite never analyses; PostgreSQL after a flood),
  // the planner would read every band-matching row through a bitmap and sort them. For this query
  // only (within its transaction), bitmap and sequential scans are off.
  const near = await db.transaction(async (tx) => {
    await tx.query(
      "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)",
    );
    const { rows } = await tx.query<{ i: number; session_id: string; seq: number; d: number }>(
      `WITH scanned AS (${scans.join(' UNION ')}),
       probes AS (
         SELECT i, h, h >> 48 & 65535 AS b0, h >> 32 & 65535 AS b1, h >> 16 & 65535 AS b2, h & 65535 AS b3
           FROM unnest($6::bigint[]) WITH ORDINALITY AS p(h, i)),
       scored AS (
         SELECT p.i, s.session_id, s.seq, s.created_at, bit_count((s.dhash # p.h)::bit(64)) AS d
           FROM probes p JOIN scanned s
             ON s.b0 = p.b0 OR s.b1 = p.b1 OR s.b2 = p.b2 OR s.b3 = p.b3),
       ranked AS (
         SELECT *, row_number() OVER (PARTITION BY i ORDER BY d, created_at, session_id, seq) AS rn
           FROM scored WHERE d <= $4)
       SELECT i::int AS i, session_id, seq, d::int AS d FROM ranked WHERE rn <= $5 ORDER BY i, rn`,
      params,
    );
    await tx.query(
      "SELECT set_config('enable_bitmapscan', 'on', true), set_config('enable_seqscan', 'on', true)",
    );
    return rows;
  });
  const thumbs = await frameThumbs(
    db,
    near.map((r) => [r.session_id, r.seq]),
  );
  const out: ReplayCandidate[][] = dhashes.map(() => []);
  for (const r of near)
    out[r.i - 1]!.push({
      session_id: r.session_id,
      thumb: thumbs.get(`${r.session_id}/${r.seq}`)!,
      distance: r.d,
    });
  return out;
}

/** The thumbnails of these stored frames (each once), keyed `session_id/seq`. */
async function frameThumbs(
  db: Db,
  keys: Array<[string, number]>,
): Promise<Map<string, Uint8Array>> {
  const unique = [...new Map(keys.map((k) => [`${k[0]}/${k[1]}`, k])).values()];
  if (!unique.length) return new Map();
  const { rows } = await db.query<{ session_id: string; seq: number; thumb: string }>(
    `SELECT f.session_id, f.seq, ${thumbText('f.thumb')} AS thumb
       FROM unnest($1::uuid[], $2::int[]) AS k(session_id, seq)
       JOIN liveness_frames f ON f.session_id = k.session_id AND f.seq = k.seq`,
    [unique.map((k) => k[0]), unique.map((k) => k[1])],
  );
  return new Map(rows.map((r) => [`${r.session_id}/${r.seq}`, fromThumbText(r.thumb)]));
}

/** Advisory lock class of the dHash bands (two-key form: its own key space). */
const BAND_LOCK_CLASS = 7007;

/**
 * Locks, until the transaction ends, the dHash bands of these frames (each band value of each of the
 * four bands), always in ascending order so that two transactions cannot deadlock. PostgreSQL only:
 * PGlite runs one transaction at a time.
 */
export async function lockBands(tx: Db, hashes: bigint[]): Promise<void> {
  if (tx.kind !== 'postgres' || !hashes.length) return;
  const keys = [...new Set(hashes.flatMap((h) => bands(h).map((v, i) => i * 65_536 + v)))].sort(
    (a, b) => a - b,
  );
  await tx.query(
    `SELECT pg_advisory_xact_lock(${BAND_LOCK_CLASS}, k)
       FROM (SELECT k FROM unnest($1::int[]) AS k ORDER BY k OFFSET 0) AS ordered`,
    [keys],
  );
}

export function bands(dhash: bigint): [number, number, number, number] {
  const u = BigInt.asUintN(64, dhash);
  return [0, 1, 2, 3].map((i) => Number((u >> BigInt(48 - 16 * i)) & 0xffffn)) as [
    number,
    number,
    number,
    number,
  ];
}

export async function insertFrame(
  db: Db,
  sessionId: string,
  seq: number,
  thumb: Uint8Array,
  dhash: bigint,
  counted: boolean,
): Promise<void> {
  const b = bands(dhash);
  await db.query(
    `INSERT INTO liveness_frames (session_id, seq, thumb, dhash, b0, b1, b2, b3, counted)
     VALUES ($1, $2, $3, $4::bigint, $5, $6, $7, $8, $9)`,
    [sessionId, seq, thumb, int64(dhash), b[0], b[1], b[2], b[3], counted],
  );
}

/** What the register endpoint reads: the verified identity data and the selfie embedding to enroll. */
export type CompletedKyc<IdData = Record<string, unknown>> = {
  sessionId: string;
  idData: IdData;
  embedding: number[];
  completedAt: string;
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
  if (typeof sessionId !== 'string' || !UUID.test(sessionId)) return null;
  const { rows } = await db.query<{
    result: { id_data: Record<string, unknown> };
    selfie_embedding: number[];
    completed_at: Date;
  }>(
    `SELECT result, selfie_embedding, completed_at FROM kyc_sessions
      WHERE id = $1 AND status = 'completed' AND consumed_at IS NULL AND expires_at > now()
      ${options.consume ? 'FOR UPDATE' : ''}`,
    [sessionId],
  );
  const row = rows[0];
  if (!row || !row.selfie_embedding) return null;
  if (options.consume)
    await db.query('UPDATE kyc_sessions SET consumed_at = now() WHERE id = $1', [sessionId]);
  return {
    sessionId,
    idData: row.result.id_data,
    embedding: row.selfie_embedding.map(Number),
    completedAt: new Date(row.completed_at).toISOString(),
  };
}

export const EMBEDDING_MODEL = 'human-faceres-1024';

/** Enrolls (or replaces) a patient's face: the embedding only; a photo only if configuration asks. */
export async function enrollFace(
  db: Db,
  patientId: number | string | bigint,
  embedding: ArrayLike<number>,
  photo?: Uint8Array,
): Promise<void> {
  if (embedding.length !== 1024)
    throw new Error(`expected a 1024-d embedding, got ${embedding.length}`);
  await db.query(
    `INSERT INTO face_enrollments (patient_id, embedding, model, photo) VALUES ($1, $2, $3, $4)
     ON CONFLICT (patient_id) DO UPDATE SET embedding = EXCLUDED.embedding, model = EXCLUDED.model,
       photo = EXCLUDED.photo, updated_at = now()`,
    [String(patientId), Array.from(embedding), EMBEDDING_MODEL, photo ?? null],
  );
}

/** The enrolled faces as one matrix of unit vectors, for a fast 1:N scan. */
export type Gallery = { version: string; ids: string[]; dim: number; unit: Float32Array };

/**
 * Loads the gallery, or returns `cached` when the table has not changed since (count and last
 * update): parsing every embedding for each identification would dominate its latency.
 */
export async function loadGallery(db: Db, cached: Gallery | null): Promise<Gallery> {
  const { rows: v } = await db.query<{ version: string }>(
    `SELECT count(*)::text || ':' || coalesce(max(updated_at)::text, '') AS version FROM face_enrollments WHERE model = $1`,
    [EMBEDDING_MODEL],
  );
  const version = v[0]!.version;
  if (cached && cached.version === version) return cached;
  const { rows } = await db.query<{ patient_id: string; embedding: number[] }>(
    'SELECT patient_id::text AS patient_id, embedding FROM face_enrollments WHERE model = $1 ORDER BY patient_id',
    [EMBEDDING_MODEL],
  );
  const dim = 1024;
  const unit = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    let n = 0;
    for (const x of r.embedding) n += Number(x) * Number(x);
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < dim; j++) unit[i * dim + j] = Number(r.embedding[j] ?? 0) * inv;
  });
  return { version, ids: rows.map((r) => r.patient_id), dim, unit };
}

/** Best cosine similarity of a probe against the gallery. */
export function searchGallery(
  g: Gallery,
  probe: ArrayLike<number>,
): { patientId: string; similarity: number } | null {
  let n = 0;
  for (let j = 0; j < g.dim; j++) n += probe[j]! * probe[j]!;
  if (!g.ids.length || n === 0) return null;
  const inv = 1 / Math.sqrt(n);
  let best = -Infinity;
  let bestI = -1;
  for (let i = 0; i < g.ids.length; i++) {
    let dot = 0;
    const off = i * g.dim;
    for (let j = 0; j < g.dim; j++) dot += g.unit[off + j]! * probe[j]!;
    if (dot > best) {
      best = dot;
      bestI = i;
    }
  }
  return { patientId: g.ids[bestI]!, similarity: best * inv };
}

/** Deletes sessions and fingerprints past their retention. */
export async function purgeExpired(db: Db, replayWindowMs: number): Promise<void> {
  await db.query(
    `DELETE FROM kyc_sessions WHERE expires_at < now() - ($1::bigint * interval '1 millisecond')`,
    [replayWindowMs],
  );
  await db.query(
    `DELETE FROM liveness_frames WHERE created_at < now() - ($1::bigint * interval '1 millisecond')`,
    [replayWindowMs],
  );
}
