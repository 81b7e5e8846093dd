import type { Db } from '../db/client';
import { fingerprintDistanceFrom, prepareFingerprint, type PreparedFingerprint } from './image';
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
const REPLAY_MAX_HAMMING = 8;
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
 * nearest distance for the log, giving up on a candidate as soon as it must be farther than the
 * nearest so far (the same minimum, at a fraction of the pixels).
 */
function nearest(
  thumb: Uint8Array,
  candidates: Iterable<Uint8Array>,
  prepared: (thumb: Uint8Array) => PreparedFingerprint,
  maxDistance: number,
  exact: boolean,
  /** The nearest distance already known (of other candidates). */
  start = Number.POSITIVE_INFINITY,
) {
  const distance = fingerprintDistanceFrom(thumb);
  let best = start;
  for (const c of candidates) {
    best = Math.min(best, distance(prepared(c), exact ? best : maxDistance));
    if (best <= maxDistance) break;
  }
  return best;
}

/**
 * Thumbnails prepared for comparison once per request: a request's frames share most of their
 * candidates (the same stored frame, the same object), and each is compared with several frames.
 */
function preparedOnce(): (thumb: Uint8Array) => PreparedFingerprint {
  const done = new Map<Uint8Array, PreparedFingerprint>();
  return (thumb) => {
    let p = done.get(thumb);
    if (!p) done.set(thumb, (p = prepareFingerprint(thumb)));
    return p;
  };
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
  const prepared = preparedOnce();
  return frames.map((f, i) => {
    const best = nearest(
      f.thumb,
      candidates[i]!.map((r) => r.thumb),
      prepared,
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
  const stored = await store.sessionFramesMany(db, sessionId, [dhash], {
    maxHamming: SESSION_MAX_HAMMING,
    limit: opts.limit ?? CANDIDATE_LIMIT,
  });
  return sessionCheck(
    thumb,
    earlier,
    stored[0]!.map((r) => r.thumb),
    preparedOnce(),
    opts.duplicateDistance,
  );
}

/**
 * findSessionDuplicate for the frames of one request (oldest first), with ONE query for all of them
 * (store.sessionFramesMany: each frame's nearest CANDIDATE_LIMIT stored frames of the session): a
 * frame is a duplicate of a stored frame of the session, or of any earlier frame of this request
 * (all of them, compared here: they are not stored yet). Call it in the transaction that locked the
 * session row, so no other request of the session stores frames in between.
 */
export async function findSessionDuplicates(
  db: Db,
  sessionId: string,
  frames: Array<{ thumb: Uint8Array; dhash: bigint }>,
  opts: { duplicateDistance: number; limit?: number },
): Promise<DuplicateCheck[]> {
  const stored = await store.sessionFramesMany(
    db,
    sessionId,
    frames.map((f) => f.dhash),
    { maxHamming: SESSION_MAX_HAMMING, limit: opts.limit ?? CANDIDATE_LIMIT },
  );
  const prepared = preparedOnce();
  return frames.map((f, i) =>
    sessionCheck(
      f.thumb,
      frames.slice(0, i).map((e) => e.thumb),
      stored[i]!.map((r) => r.thumb),
      prepared,
      opts.duplicateDistance,
    ),
  );
}

/** The nearest of the request's earlier frames, then (unless one is a duplicate) of the stored ones. */
function sessionCheck(
  thumb: Uint8Array,
  earlier: Uint8Array[],
  stored: Uint8Array[],
  prepared: (thumb: Uint8Array) => PreparedFingerprint,
  duplicateDistance: number,
): DuplicateCheck {
  let best = nearest(thumb, earlier, prepared, duplicateDistance, true);
  if (best > duplicateDistance)
    best = nearest(thumb, stored, prepared, duplicateDistance, true, best);
  return {
    dup: best <= duplicateDistance,
    distance: Number.isFinite(best) ? best : null,
    replay: false,
  };
}
