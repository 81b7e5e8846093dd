import type { Db } from '../../db/client';
import { hamming64 } from '../image';

/**
 * `liveness_frames`: the fingerprints of stored liveness frames (48x36 grey thumbnail and 64-bit
 * dHash in four 16-bit bands), searched for duplicates within a session and replays across sessions.
 */

type StoredFrame = { seq: number; thumb: Uint8Array };

const int64 = (dhash: bigint) => BigInt.asIntN(64, dhash).toString();
/**
 * Thumbnails travel as base64 text, decoded natively by Buffer: PGlite decodes a bytea result in
 * JavaScript, byte by byte, which cost more than the rest of the replay search; base64 is also
 * shorter than PostgreSQL's hex (bench/liveness-replay-cost.ts; figures in docs/measurements.md).
 */
const thumbText = (column: string) => `encode(${column}, 'base64')`;
const fromThumbText = (text: string): Uint8Array => Buffer.from(text, 'base64');

/**
 * For each frame of one request, this session's earlier frames whose dHash is within `maxHamming`
 * bits of it, the nearest first (then the newest), at most `limit`: the only ones that can be
 * near-duplicates (a re-encode moves a few bits), so only they travel for the fine distance. Nearest
 * first, so that a frame sent again is found however many other frames the session stored since
 * (the primary key's session_id prefix bounds the scan to the session's own frames). In ONE query
 * whatever their number: the database picks each frame's nearest `limit` (a LATERAL per frame over
 * the session's own frames) and hands over their union, each frame's thumbnail once (a request's
 * frames, one face a few bits apart, share most of them); each frame's own list is then rebuilt
 * here from the dHashes, in the same order (distance, then the newest). Exact: every row of a frame's own nearest `limit` is in the
 * union, and any other row of the union within its radius ranks after them.
 */
export async function sessionFramesMany(
  db: Db,
  id: string,
  dhashes: bigint[],
  opts: { maxHamming: number; limit: number },
): Promise<StoredFrame[][]> {
  if (!dhashes.length) return [];
  const { rows } = await db.query<{ seq: number; dhash: string; thumb: string }>(
    `SELECT f.seq, f.dhash::text AS dhash, ${thumbText('f.thumb')} AS thumb
       FROM (SELECT DISTINCT n.seq FROM unnest($2::bigint[]) AS p(h)
               CROSS JOIN LATERAL (
                 SELECT seq FROM liveness_frames
                  WHERE session_id = $1 AND bit_count((dhash # p.h)::bit(64)) <= $3
                  ORDER BY bit_count((dhash # p.h)::bit(64)), seq DESC LIMIT $4) n) c
       JOIN liveness_frames f ON f.session_id = $1 AND f.seq = c.seq`,
    [id, dhashes.map(int64), opts.maxHamming, opts.limit],
  );
  const stored = rows.map((r) => ({
    seq: r.seq,
    dhash: BigInt(r.dhash),
    thumb: fromThumbText(r.thumb),
  }));
  return dhashes.map((h) =>
    stored
      .map((r) => ({ r, d: hamming64(h, r.dhash) }))
      .filter((x) => x.d <= opts.maxHamming)
      .sort((x, y) => x.d - y.d || y.r.seq - x.r.seq)
      .slice(0, opts.limit)
      .map(({ r }) => ({ seq: r.seq, thumb: r.thumb })),
  );
}

export type ReplayCandidate = {
  session_id: string;
  seq: number;
  thumb: Uint8Array;
  distance: number;
};

/**
 * One band's scan: for each distinct value of band `b` among the request's frames, the `scanPerBand`
 * oldest and the `scanPerBand` newest counted frames of other sessions in the window carrying it
 * (index (bN, created_at), walked in both directions, stopping at the limit).
 */
const bandScan = (b: number) => `
    SELECT s.* FROM (SELECT DISTINCT b${b} AS v FROM probes) v CROSS JOIN LATERAL (
      (SELECT session_id, seq, created_at, dhash, b0, b1, b2, b3 FROM liveness_frames
        WHERE counted AND b${b} = v.v AND created_at > now() - ($2::bigint * interval '1 millisecond')
          AND session_id <> $1
        ORDER BY created_at ASC LIMIT $3)
      UNION ALL
      (SELECT session_id, seq, created_at, dhash, b0, b1, b2, b3 FROM liveness_frames
        WHERE counted AND b${b} = v.v AND created_at > now() - ($2::bigint * interval '1 millisecond')
          AND session_id <> $1
        ORDER BY created_at DESC LIMIT $3)) s`;

/**
 * The replay search, one text whatever the request (planned the same way every time, and cheaply:
 * before, a UNION of up to 32 x 2 generated subqueries, one pair per band value). Per band, a
 * LATERAL walk over that band's distinct values among the probes; the union of the scanned rows is
 * scored against every probe sharing a band with it; each probe keeps its nearest `limit` within
 * `maxHamming` (then the oldest); and the union of what the probes keep travels, one row per frame
 * with its thumbnail, its dHash and its place `o` in (created_at, session_id, seq) order, from which
 * each probe's own list is rebuilt (replayCandidatesMany).
 */
const REPLAY_SEARCH = `
  WITH probes AS (
    SELECT i, h, h >> 48 & 65535 AS b0, h >> 32 & 65535 AS b1, h >> 16 & 65535 AS b2, h & 65535 AS b3
      FROM unnest($6::bigint[]) WITH ORDINALITY AS p(h, i)),
  scanned AS (${[0, 1, 2, 3].map(bandScan).join('\n    UNION')}),
  scored AS (
    SELECT p.i, s.session_id, s.seq, s.created_at, bit_count((s.dhash # p.h)::bit(64)) AS d
      FROM probes p JOIN scanned s
        ON s.b0 = p.b0 OR s.b1 = p.b1 OR s.b2 = p.b2 OR s.b3 = p.b3),
  ranked AS (
    SELECT session_id, seq,
           row_number() OVER (PARTITION BY i ORDER BY d, created_at, session_id, seq) AS rn
      FROM scored WHERE d <= $4),
  chosen AS (SELECT DISTINCT session_id, seq FROM ranked WHERE rn <= $5)
  SELECT f.session_id, f.seq, f.dhash::text AS dhash,
         row_number() OVER (ORDER BY f.created_at, f.session_id, f.seq)::int AS o,
         ${thumbText('f.thumb')} AS thumb
    FROM chosen c JOIN liveness_frames f ON f.session_id = c.session_id AND f.seq = c.seq`;

/**
 * Replay candidates, for each frame of one request: counted frames of OTHER sessions in the replay
 * window whose dHash shares a 16-bit band with the frame's (the four band indexes) and lies within
 * `maxHamming` bits, the NEAREST first (then the oldest), at most `limit`, with their thumbnails for
 * the fine distance.
 *
 * Ordered before the limit, so a replay's source (0-3 bits away) cannot be crowded out by farther
 * band-matching frames, nor, for an exact replay, by later frames with its very dHash. And bounded:
 * per band, only the `scanPerBand` oldest and `scanPerBand` newest frames of the window are scored
 * (index (bN, created_at)), so a frame costs at most 8 x scanPerBand index rows however many frames
 * share its bands. To hide a source, frames of other sessions must outnumber it on both sides in
 * every band it shares with the replayed frame.
 *
 * All the request's frames at once, in ONE query whatever their number (they were 4 statements per
 * frame, then a generated query and a second one for the thumbnails): each distinct (band, value)
 * of the frames is scanned once (consecutive captures of one face share most band values), every
 * frame takes its own nearest `limit` among the scanned rows sharing a band with it (a superset of
 * what it would scan alone, so nothing it would have found is lost), and each candidate's thumbnail
 * travels once, as base64.
 *
 * Each band's scan must walk its (band, created_at) index and stop at the limit: with statistics
 * that do not know how many frames share a band (PGlite never analyses; PostgreSQL after a flood),
 * the planner would read every band-matching row through a bitmap and sort them. So bitmap and
 * sequential scans are off from here to the end of the transaction (set_config(..., true): the
 * liveness transaction's later statements are primary-key lookups, inserts and an update, which
 * these settings do not change).
 */
export async function replayCandidatesMany(
  db: Db,
  sessionId: string,
  dhashes: bigint[],
  windowMs: number,
  opts: { maxHamming: number; limit: number; scanPerBand: number },
): Promise<ReplayCandidate[][]> {
  if (!dhashes.length) return [];
  const rows = await db.transaction(async (tx) => {
    await tx.query(
      "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)",
    );
    return (
      await tx.query<{ session_id: string; seq: number; dhash: string; o: number; thumb: string }>(
        REPLAY_SEARCH,
        [sessionId, windowMs, opts.scanPerBand, opts.maxHamming, opts.limit, dhashes.map(int64)],
      )
    ).rows;
  });
  // Each probe's own list, in the database's order (distance, then created_at, session_id, seq:
  // `o`): exact, since every row of a probe's own nearest `limit` is in the union, and any other
  // row of the union within its radius and sharing a band with it ranks after them.
  const found = rows.map((r) => {
    const dhash = BigInt(r.dhash);
    return {
      session_id: r.session_id,
      seq: r.seq,
      dhash,
      b: bands(dhash),
      o: r.o,
      thumb: fromThumbText(r.thumb),
    };
  });
  return dhashes.map((h) => {
    const b = bands(h);
    return found
      .map((c) => ({ c, d: hamming64(h, c.dhash) }))
      .filter(({ c, d }) => d <= opts.maxHamming && c.b.some((v, k) => v === b[k]))
      .sort((x, y) => x.d - y.d || x.c.o - y.c.o)
      .slice(0, opts.limit)
      .map(({ c, d }) => ({ session_id: c.session_id, seq: c.seq, thumb: c.thumb, distance: d }));
  });
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

export type NewFrame = { seq: number; thumb: Uint8Array; dhash: bigint; counted: boolean };

export async function insertFrame(
  db: Db,
  sessionId: string,
  seq: number,
  thumb: Uint8Array,
  dhash: bigint,
  counted: boolean,
): Promise<void> {
  await insertFrames(db, sessionId, [{ seq, thumb, dhash, counted }]);
}

/**
 * Stores frames of one session in ONE statement (a request's frames: they were one INSERT each).
 * The bands are computed in SQL from the dHash as the replay search's probes are (`bands()` here).
 */
export async function insertFrames(db: Db, sessionId: string, frames: NewFrame[]): Promise<void> {
  if (!frames.length) return;
  await db.query(
    `INSERT INTO liveness_frames (session_id, seq, thumb, dhash, b0, b1, b2, b3, counted)
     SELECT $1, seq, decode(t, 'base64'), h, h >> 48 & 65535, h >> 32 & 65535, h >> 16 & 65535, h & 65535, c
       FROM unnest($2::int[], $3::text[], $4::bigint[], $5::boolean[]) AS x(seq, t, h, c)`,
    [
      sessionId,
      frames.map((f) => f.seq),
      frames.map((f) =>
        Buffer.from(f.thumb.buffer, f.thumb.byteOffset, f.thumb.length).toString('base64'),
      ),
      frames.map((f) => int64(f.dhash)),
      frames.map((f) => f.counted),
    ],
  );
}

/** Deletes stored frames older than the replay window. */
export async function purgeOldFrames(db: Db, replayWindowMs: number): Promise<void> {
  await db.query(
    `DELETE FROM liveness_frames WHERE created_at < now() - ($1::bigint * interval '1 millisecond')`,
    [replayWindowMs],
  );
}
