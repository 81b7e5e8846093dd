import { randomInt } from 'node:crypto';
import type { LivenessCue } from '../../contract/identity';
import type { ChallengeRefusal } from './liveness';

/**
 * The cues of the KYC selfie's challenge (issue 31): each blink asked at a moment drawn for the
 * session, counted only when its closing frame falls in the cue's window. Pure functions on the
 * cue part of the challenge's state (liveness-challenge.ts keeps it in `liveness_state`).
 */

/**
 * The answer must reach the browser before what it asks starts (Regular 3G): cues and colours start
 * this long after the newest frame's `t`. A request's upload takes 1.07 s (p50) to 1.85 s (p95) in
 * the bench, then the engine and the answer: at 1800 ms 15 of 121 later cues showed 130-1070 ms
 * after their `at`, their window already running, and blinks on them were missed (issue 41).
 */
export const LEAD_MS = 2400;
/**
 * A cue's window: a blink counts when its closing frame's `t` is in [at + CUE_MIN_LATENCY_MS,
 * at + CUE_WINDOW_MS] (the synthetic patient's slowest answer closes by 1205 ms; server/identity/
 * README.md has the bench's figures for this window and the gap).
 */
export const CUE_WINDOW_MS = 1300;
export const CUE_MIN_LATENCY_MS = 150;
/**
 * The next cue comes this long (drawn) after the previous blink's reopening or window. 400-1200
 * ms until 2026-12-01: with 200-800 and the 600-ms colours the bench's patients passed at a p50 of
 * 10.5-10.8 s against 11.2-11.3 (docs/measurements.md, 'Shorter colours and cue gaps').
 */
export const CUE_GAP_MS: readonly [number, number] = [200, 800];
/** Cues asked beyond the blinks required: then the session is refused ('cues_missed'). */
export const EXTRA_CUES = 2;

/** A whole number in [min, max] (inclusive), drawn with a CSPRNG. */
export type Draw = (min: number, max: number) => number;
export const cryptoDraw: Draw = (min, max) => randomInt(min, max + 1);

/** What the cues keep in the challenge's state. */
export type CueState = {
  /** Blinks on cue. */
  hits: number;
  /** Cues asked so far, and the one pending (null when none). */
  cues: number;
  cue: LivenessCue | null;
  /**
   * The cue after it, drawn and answered with it (its window starts after the current one's), so the
   * browser has it in time without waiting for the answer to the current blink (a round trip on
   * Regular 3G is more than a second); it becomes the current cue when that one ends.
   */
  next: LivenessCue | null;
  /**
   * The cue after `next`, drawn and answered with both (issue 41): when a request both ends the
   * current cue and the next one (a cue missed, then the next one answered), the one after them was
   * drawn only then, LEAD_MS after the request's newest frame, and the patient waited 4-5 s for it
   * (the bench's late sessions). It becomes `next` when the current cue ends. Absent from states
   * stored before it.
   */
  later?: LivenessCue | null;
  /** When the previous cue ended (its blink's reopening, or its window's end). */
  cueEnded: number | null;
  /** The closing frame's `t` of the blink under way. */
  closingAt: number | null;
  refused: ChallengeRefusal | null;
};

/** How many blinks on cue pass, and how many cues may be asked for them. */
export type CueRules = { required: number; maxCues: number };

/** Whether a blink that closed at `closingAt` answers `cue` (its closing frame in the window). */
const inWindow = (cue: LivenessCue, closingAt: number | null) =>
  closingAt !== null && closingAt >= cue.at + CUE_MIN_LATENCY_MS && closingAt <= cue.until;

/**
 * The current cue has ended (answered, or its window passed) at `ended`: the next one is current,
 * unless every blink is in (only the light may be left: no cue is asked then, and none with
 * `of` 0, which the contract refuses).
 */
function endCue<S extends CueState>(s: S, ended: number, rules: CueRules): S {
  const more = s.hits < rules.required;
  return {
    ...s,
    cue: s.next && more ? { ...s.next, of: rules.required - s.hits } : null,
    next: more ? (s.later ?? null) : null,
    later: null,
    cueEnded: ended,
  };
}

/**
 * Cues whose window passed by `t` without a blink closing in it (`closed`: the eyes are closed now,
 * the blink under way may still answer): missed. Refused once the cues left cannot give the blinks
 * still needed.
 */
export function resolveCues<S extends CueState>(
  first: S,
  t: number,
  closed: boolean,
  rules: CueRules,
): S {
  let s = first;
  for (let cue = s.cue; cue && t > cue.until; cue = s.cue) {
    if (closed && inWindow(cue, s.closingAt)) return s;
    s = endCue(s, cue.until, rules);
    const pending = (s.cue ? 1 : 0) + (s.next ? 1 : 0);
    if (s.hits + pending + (rules.maxCues - s.cues) < rules.required)
      return { ...s, refused: 'cues_missed' };
  }
  return s;
}

/** A blink completed at `t` (its reopening): a hit when it closed in the current cue's window. */
export function blinkCompleted<S extends CueState>(first: S, t: number | null, rules: CueRules): S {
  let s = first;
  const cue = s.cue;
  if (cue && inWindow(cue, s.closingAt))
    s = endCue({ ...s, hits: s.hits + 1 }, t ?? cue.until, rules);
  s = { ...s, closingAt: null };
  return t !== null ? resolveCues(s, t, false, rules) : s;
}

/**
 * The cues to ask from `start` (a request's end): the current one if none is, and the two after it
 * (`next`, `later`), each a drawn gap after the one before.
 */
export function askCues<S extends CueState>(
  first: S,
  start: number,
  draw: Draw,
  rules: CueRules,
): S {
  let s = first;
  const cue = (at: number): LivenessCue => ({
    n: s.cues + 1,
    of: rules.required - s.hits,
    at,
    until: at + CUE_WINDOW_MS,
  });
  const gap = () => draw(CUE_GAP_MS[0], CUE_GAP_MS[1]);
  if (!s.cue && s.hits < rules.required && s.cues < rules.maxCues) {
    const at = s.cues === 0 ? start : Math.max(start, s.cueEnded ?? 0) + gap();
    s = { ...s, cues: s.cues + 1, cue: cue(at) };
  }
  // The one after it, answered now (a miss of the current one would need it at once), and the one
  // after that (a miss and a hit in one request would need it at once).
  if (s.cue && !s.next && s.cues < rules.maxCues) {
    const at = Math.max(start, s.cue.until + gap());
    s = { ...s, cues: s.cues + 1, next: cue(at) };
  }
  if (s.next && !s.later && s.cues < rules.maxCues) {
    const at = Math.max(start, s.next.until + gap());
    s = { ...s, cues: s.cues + 1, later: cue(at) };
  }
  return s;
}

/** What was asked, `by` ms later on the frames' clock (a browser clock that started again). */
export function cuesOnClock<S extends CueState>(s: S, by: number): S {
  const move = (c: LivenessCue | null) => c && { ...c, at: c.at + by, until: c.until + by };
  return {
    ...s,
    cue: move(s.cue),
    next: move(s.next),
    later: move(s.later ?? null),
    cueEnded: s.cueEnded === null ? null : s.cueEnded + by,
    closingAt: s.closingAt === null ? null : s.closingAt + by,
  };
}
