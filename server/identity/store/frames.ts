import type { Db } from '../../db/client';

/**
 * `liveness_frames`: the fingerprints of stored liveness frames (48x36 grey thumbnail and 64-bit
 * dHash in four 16-bit bands), searched for duplicates within a session and replays across sessions.
 */

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

/** Deletes stored frames older than the replay window. */
export async function purgeOldFrames(db: Db, replayWindowMs: number): Promise<void> {
  await db.query(
    `DELETE FROM liveness_frames WHERE created_at < now() - ($1::bigint * interval '1 millisecond')`,
    [replayWindowMs],
  );
}
