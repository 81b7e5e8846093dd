import type { Db } from '../db/client';
import { fingerprintDistanceFrom } from './image';
import * as store from './store';

/**
 * Is a liveness frame a near-duplicate of one already stored: of this session (a frame sent again),
 * or of another session in the replay window (a replayed session, even re-encoded)?
 *
 * The fine test is the thumbnail distance (fingerprintDistance <= duplicateDistance: re-encodes
 * measure 0.2-0.7, new captures 1.5+). It reads every candidate's thumbnail, so the database first
 * narrows the stored frames by their 64-bit dHash and hands over at most `CANDIDATE_LIMIT`, the
 * NEAREST first (Hamming distance, then the oldest): a replay's source is at distance 0-3, so
 * however many other frames share a band, it is among the first examined. Ordering before the
 * limit is the point: without it the limit took any 200 band-matching rows and, once enough
 * frames of other patients were stored, the real source was often not among them (the sampling
 * bench let 6 of 10 replayed sessions through).
 */

/** Hamming radius of a replay candidate's dHash: a re-encode moves a few bits, 8 is generous. */
export const REPLAY_MAX_HAMMING = 8;
/** Hamming radius of a same-session candidate (the session's own frames: few, a wider net). */
export const SESSION_MAX_HAMMING = 12;
/** Thumbnails compared per frame at most (per search): bounds the fine comparison's cost. */
export const CANDIDATE_LIMIT = 200;
/**
 * Index rows scored per band and direction (the oldest and the newest of the replay window): bounds
 * the database's work per frame at 8 x REPLAY_SCAN_PER_BAND rows, whatever is stored.
 */
export const REPLAY_SCAN_PER_BAND = 500;

export type DuplicateCheck = { dup: boolean; distance: number | null; replay: boolean };

/**
 * The smallest distance of `thumb` to `candidates`, stopping at the first within `maxDistance`.
 * With `exact: false` a candidate farther than `maxDistance` measures Infinity (cheaper: the replay
 * search reports no distance for a frame that is not a replay); the session check keeps the exact
 * nearest distance for the log.
 */
function nearest(
  thumb: Uint8Array,
  candidates: Iterable<Uint8Array>,
  maxDistance: number,
  exact: boolean,
) {
  const distance = fingerprintDistanceFrom(thumb);
  let best = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    best = Math.min(best, distance(c, exact ? Number.POSITIVE_INFINITY : maxDistance));
    if (best <= maxDistance) break;
  }
  return best;
}

/** A near-duplicate of a counted frame of another session stored within `windowMs`. */
export async function findReplay(
  db: Db,
  sessionId: string,
  thumb: Uint8Array,
  dhash: bigint,
  opts: ReplayOptions,
): Promise<DuplicateCheck> {
  return (await findReplays(db, sessionId, [{ thumb, dhash }], opts))[0]!;
}

type ReplayOptions = {
  windowMs: number;
  duplicateDistance: number;
  limit?: number;
  scanPerBand?: number;
};

/** findReplay for the frames of one request, in one search (store.replayCandidatesMany). */
export async function findReplays(
  db: Db,
  sessionId: string,
  frames: Array<{ thumb: Uint8Array; dhash: bigint }>,
  opts: ReplayOptions,
): Promise<DuplicateCheck[]> {
  const candidates = await store.replayCandidatesMany(
    db,
    sessionId,
    frames.map((f) => f.dhash),
    opts.windowMs,
    {
      maxHamming: REPLAY_MAX_HAMMING,
      limit: opts.limit ?? CANDIDATE_LIMIT,
      scanPerBand: opts.scanPerBand ?? REPLAY_SCAN_PER_BAND,
    },
  );
  return frames.map((f, i) => {
    const best = nearest(
      f.thumb,
      candidates[i]!.map((r) => r.thumb),
      opts.duplicateDistance,
      false,
    );
    return best <= opts.duplicateDistance
      ? { dup: true, distance: best, replay: true }
      : { dup: false, distance: null, replay: false };
  });
}

/** A near-duplicate of an earlier frame of this session: stored, or earlier in this request. */
export async function findSessionDuplicate(
  db: Db,
  sessionId: string,
  thumb: Uint8Array,
  dhash: bigint,
  earlier: Uint8Array[],
  opts: { duplicateDistance: number; limit?: number },
): Promise<DuplicateCheck> {
  let best = nearest(thumb, earlier, opts.duplicateDistance, true);
  if (best > opts.duplicateDistance) {
    const rows = await store.sessionFrames(db, sessionId, dhash, {
      maxHamming: SESSION_MAX_HAMMING,
      limit: opts.limit ?? CANDIDATE_LIMIT,
    });
    best = Math.min(
      best,
      nearest(
        thumb,
        rows.map((r) => r.thumb),
        opts.duplicateDistance,
        true,
      ),
    );
  }
  return {
    dup: best <= opts.duplicateDistance,
    distance: Number.isFinite(best) ? best : null,
    replay: false,
  };
}
