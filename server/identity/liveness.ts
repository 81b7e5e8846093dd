import type {
  KycDeciderName,
  LivenessChallenge,
  LivenessFrameTag,
  LivenessMeta,
} from '../../contract/identity';
import type { IdentityConfig } from './config';
import { hints } from './hints';
import { cosineSimilarity, type FaceObservation, type FrameColour } from './types';

/**
 * The liveness decision, pluggable: the engine handles images, gates and duplicate frames, then
 * hands each usable frame to a decider, whose state is stored in the database between frames.
 *
 * What the blink decider stops: a still photo (held up or sent again: it never blinks, and repeated
 * frames are duplicates), replayed frames (duplicates of this or an earlier session), a face swapped
 * mid-challenge (embedding continuity). What it does not stop: a video of the person blinking played
 * to the camera, or a good mask. A stronger detector can implement LivenessDecider.
 */
type LivenessPhase = 'baseline' | 'open' | 'closed' | 'done' | 'expired';

export type BlinkState = {
  kind: 'blink';
  phase: LivenessPhase;
  /**
   * The challenge's clock: the first frame's time, not the session's start (reading the
   * instructions and allowing the camera do not count against the patient).
   */
  startedAt: number | null;
  frames: number;
  blinks: number;
  /** Recent open-eye aspect ratios of this face; the baseline is their median. */
  openSamples: number[];
  /** The face's first described frame: later counted frames must match it. */
  reference: number[] | null;
  lastCenter: [number, number] | null;
  lastWidth: number;
  /** Best open-eye frame so far (its eye ratio over the baseline, and face width). */
  best: { score: number } | null;
  similarities: number[];
  /**
   * Described frames in a row whose eyes were not open and that read under the continuity threshold
   * (UNCONFIRMED_OTHER_FACE); absent in sessions stored before it, read as 0.
   */
  unconfirmed?: number;
};

/**
 * What a frame brings besides its face (issue 31): its tag from the request's `meta` (capture time on
 * the challenge's clock, the colour painted) and its colour statistic. Every frame but a replay has
 * them, skipped and gated frames included.
 */
export type FrameSignals = { tag?: LivenessFrameTag | undefined; colour?: FrameColour | undefined };

/** A usable frame: its face (past the gates), the server's time, and the frame's width in pixels (the face's size). */
type LivenessFrame = FrameSignals & { face: FaceObservation; now: number; width?: number };

/** Why a challenge refused its session (only a new session can pass). */
export type ChallengeRefusal = 'cues_missed' | 'light_mismatch' | 'face_changed' | 'light_unjudged';

type LivenessStep<S> = {
  state: S;
  feedback: string[];
  live: boolean;
  /** The frame changed the blink count or its phase (its fingerprint is remembered against replays). */
  counted: boolean;
  /** This frame is the best open-eye frame so far: the engine keeps it as the session's selfie. */
  bestSelfie: boolean;
  /** Scores for the log line. */
  scores: Record<string, number | string | null>;
};

export interface LivenessDecider<S = BlinkState> {
  readonly name: string;
  /** The state of a new session; the time limit counts from its first frame. */
  initial(): S;
  /**
   * Which frames of the next request the worker must describe (the 1024-d description costs about
   * twice the detection): the plan it applies frame by frame, from each frame's eye ratio and position.
   */
  needsEmbedding(state: S): EmbeddingPlan;
  /** Answer for a frame that did not pass the gates (or was a duplicate): hints only, no progress. */
  idle(state: S, now: number, feedback: string[], frame?: FrameSignals): LivenessStep<S>;
  /** Where the challenge stands (a request whose frames were all skipped as unchanged says this). */
  progress(state: S, now: number): string[];
  step(state: S, frame: LivenessFrame): LivenessStep<S>;
  isLive(state: S): boolean;
  /** The challenge's time is over at `now`: only a new session can pass. */
  isTimeUp(state: S, now: number): boolean;
  /**
   * A decider with a challenge (issue 31, liveness-challenge.ts) asks for each request's frame tags
   * (`meta`), draws what to ask after a request's frames (`finish`), says it in every answer
   * (`challenge`), may refuse the session, and keeps signals (never verdicts) with it.
   */
  readonly needsMeta?: boolean;
  /** The session's face is framed (issue 41): the gates hold it down to TOO_FAR_HOLD of the least size. */
  framed?(state: S): boolean;
  finish?(state: S, request: { now: number; meta: LivenessMeta | null }): S;
  challenge?(state: S): LivenessChallenge;
  refusal?(state: S): ChallengeRefusal | null;
  signals?(state: S): Record<string, number> | null;
}

/**
 * When the worker computes the description: on the first frame with one face (`always`), or for a
 * single face whose eye ratio or position qualifies; no other frame is described.
 */
export type EmbeddingPlan = {
  /** Describe the request's first analysed frame with exactly one face (decided before its detection). */
  always: boolean;
  earBelow?: number;
  earAbove?: number;
  /** Describe when the face centre moved more than `beyond` pixels from `from` (a possible face swap). */
  moved?: { from: [number, number]; beyond: number } | undefined;
  /**
   * The eye ratios under which a face counts as closed and from which it is open again, and whether
   * it is closed now: the frame that reopens after a closing one (in the same request or an earlier
   * one) is described once its eye ratio is known; a frame still closed is not.
   */
  blink?: BlinkPlan | undefined;
  /** Analyse every frame of the request, none skipped as unchanged (while the open baseline is measured). */
  analyseAll?: boolean | undefined;
  /** The last face box seen: the colour statistic's region until the request finds one (issue 31). */
  colourBox?: [number, number, number, number] | null | undefined;
  /** That face's own extent (its mesh: issue 41), for the colour's core and rim. */
  colourExtent?: [number, number, number, number] | null | undefined;
  /**
   * Where a blink counts (issue 31: the cues' windows, on the frames' clock): a frame whose `t` falls
   * in one is skipped as unchanged only below the stricter limit (eyes.ts CUE_WINDOW_SHARE).
   */
  careful?: Array<[number, number]> | undefined;
};

/**
 * Closed below `closedRatio` x the open baseline, open again from `reopenRatio` x; `baseline` null
 * when not measured yet (the first open frame then stands for it).
 */
export type BlinkPlan = {
  closedRatio: number;
  reopenRatio: number;
  baseline: number | null;
  closed: boolean;
};

type BlinkConfig = IdentityConfig['liveness'] & { continuityThreshold: number };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number) => Math.round(x * 1000) / 1000;
/** Below this an eye is not open enough to serve as a baseline, whatever the face. */
const MIN_OPEN_EAR = 0.18;
/**
 * A description of eyes that are closing or closed can read under the continuity threshold from the
 * same face open (0.59 against 0.65: a genuine patient at the face-filling framing refused as another
 * face, in the bench once in 28 and in e2e, 2026-11-29/30). Such a frame alone proves no other face:
 * it counts for nothing and the next description decides; another face is this many of them in a
 * row (a stranger whose open eyes read as closed against the patient's) or one with open eyes.
 */
export const UNCONFIRMED_OTHER_FACE = 2;

/** The KYC selfie's decider (the engine's default): sessions the server makes for a repeat answer to it. */
export const KYC_DECIDER = 'blink' satisfies KycDeciderName;

export function blinkDecider(cfg: BlinkConfig): LivenessDecider<BlinkState> {
  const baselineOf = (s: BlinkState) => (s.openSamples.length ? median(s.openSamples) : null);
  const expired = (s: BlinkState, now: number) =>
    s.startedAt !== null && now - s.startedAt > cfg.timeLimitMs;
  /** The first frame of any kind (usable or not) starts the clock. */
  const clocked = (s: BlinkState, now: number): BlinkState =>
    s.startedAt === null ? { ...s, startedAt: now } : s;
  const progress = (s: BlinkState) => hints.blink(s.blinks, cfg.blinksRequired);
  const answer = (
    state: BlinkState,
    feedback: string[],
    extra: Partial<LivenessStep<BlinkState>> = {},
  ): LivenessStep<BlinkState> => ({
    state,
    feedback,
    live: state.phase === 'done',
    counted: false,
    bestSelfie: false,
    scores: {},
    ...extra,
  });

  const initial = (): BlinkState => ({
    kind: 'blink',
    phase: 'baseline',
    startedAt: null,
    frames: 0,
    blinks: 0,
    openSamples: [],
    reference: null,
    lastCenter: null,
    lastWidth: 0,
    best: null,
    similarities: [],
  });

  return {
    name: KYC_DECIDER,
    initial,

    isLive: (s) => s.phase === 'done',
    isTimeUp: (s, now) => s.phase === 'expired' || (s.phase !== 'done' && expired(s, now)),

    needsEmbedding(s) {
      const blink = {
        closedRatio: cfg.closedRatio,
        reopenRatio: cfg.reopenRatio,
        baseline: baselineOf(s),
        closed: s.phase === 'closed',
      };
      // The first usable frame is described: it is the face every counted frame must match.
      // Until the baseline is measured every frame is analysed (a blink then is not lost).
      if (!s.reference) return { always: true, analyseAll: true, blink };
      const moved = s.lastCenter
        ? { from: s.lastCenter, beyond: s.lastWidth * cfg.motionLimit }
        : undefined;
      if (s.phase === 'baseline') return { always: false, moved, analyseAll: true, blink };
      // Closing frames need no description: they sit between two described frames of the same face
      // (the reopening is described) and may not move more than the motion limit in between.
      if (s.phase === 'open') return { always: false, moved, blink };
      // Waiting for the reopening: the worker describes the frame whose eyes are open again (blink
      // tracking from `closed`), not a frame that is still closed.
      if (s.phase === 'closed') return { always: false, blink };
      return { always: false };
    },

    idle(state, now, feedback) {
      const s = clocked(state, now);
      if (s.phase === 'done') return answer(s, [hints.done]);
      if (s.phase === 'expired' || expired(s, now))
        return answer({ ...s, phase: 'expired' }, [hints.timeUp]);
      return answer(s, feedback);
    },

    progress(s, now) {
      if (s.phase === 'done') return [hints.done];
      if (s.phase === 'expired' || expired(s, now)) return [hints.timeUp];
      return [progress(s)];
    },

    step(first, { face, now }) {
      const prev = clocked(first, now);
      if (prev.phase === 'done') return answer(prev, [hints.done]);
      if (prev.phase === 'expired' || expired(prev, now))
        return answer({ ...prev, phase: 'expired' }, [hints.timeUp]);
      const s: BlinkState = { ...prev, frames: prev.frames + 1 };
      const ear = face.ear.mean;
      const [x, y, w, h] = face.box;
      const center: [number, number] = [x + w / 2, y + h / 2];
      // Movement relative to the previous face's width (the worker uses the same rule to decide on a description).
      const moved = s.lastCenter
        ? Math.hypot(center[0] - s.lastCenter[0], center[1] - s.lastCenter[1]) / (s.lastWidth || w)
        : 0;
      s.lastCenter = center;
      s.lastWidth = w;
      const scores: LivenessStep<BlinkState>['scores'] = {
        ear: round(ear),
        baseline: null,
        moved: round(moved),
        blinks: s.blinks,
      };
      // Same face as the reference? Only frames with a description can count.
      let similarity: number | null = null;
      if (face.embedding && s.reference) {
        similarity = cosineSimilarity(face.embedding, s.reference);
        scores.similarity = round(similarity);
        if (similarity < cfg.continuityThreshold) {
          const base = baselineOf(s);
          const eyesOpen = ear >= (base === null ? MIN_OPEN_EAR : base * cfg.reopenRatio);
          const unconfirmed = (s.unconfirmed ?? 0) + 1;
          if (!eyesOpen && unconfirmed < UNCONFIRMED_OTHER_FACE)
            return answer({ ...s, unconfirmed }, [progress(s)], { scores });
          // Another face took over: the challenge starts again for whoever is there now.
          const fresh = {
            ...initial(),
            startedAt: s.startedAt,
            frames: s.frames,
            lastCenter: center,
            lastWidth: w,
          };
          return answer(fresh, [hints.otherFace], { scores });
        }
        s.unconfirmed = 0;
      }

      if (!Number.isFinite(ear)) return answer(s, [hints.openEyes], { scores });
      if (moved > cfg.motionLimit) return answer(s, [hints.holdStill], { scores });

      if (s.phase === 'baseline') {
        if (!s.reference && !face.embedding) return answer(s, [hints.openEyes], { scores });
        if (ear < MIN_OPEN_EAR) return answer(s, [hints.openEyes], { scores });
        s.reference ??= face.embedding!;
        s.openSamples = [...s.openSamples, ear].slice(-5);
        // Only a described frame can become the selfie (its description is what is kept).
        const bestSelfie =
          Boolean(face.embedding) && (!s.best || ear / (baselineOf(s) ?? ear) >= s.best.score);
        if (bestSelfie) s.best = { score: round(ear / (baselineOf(s) ?? ear)) };
        if (s.openSamples.length >= cfg.baselineFrames) s.phase = 'open';
        scores.baseline = round(baselineOf(s)!);
        return answer(s, [progress(s)], { counted: true, bestSelfie, scores });
      }

      const base = baselineOf(s)!;
      scores.baseline = round(base);
      scores.ratio = round(ear / base);
      if (s.phase === 'open') {
        if (ear < base * cfg.closedRatio) {
          s.phase = 'closed';
          return answer(s, [progress(s)], { counted: true, scores });
        }
        // Still open: let the baseline follow the face (lighting, distance), from clearly open frames only.
        if (ear >= base * cfg.reopenRatio) s.openSamples = [...s.openSamples, ear].slice(-5);
        return answer(s, [progress(s)], { scores });
      }

      // phase 'closed': a blink completes when the same face opens its eyes again.
      if (ear >= base * cfg.reopenRatio) {
        if (similarity === null) return answer(s, [progress(s)], { scores });
        s.blinks += 1;
        s.similarities = [...s.similarities, round(similarity)];
        s.phase = s.blinks >= cfg.blinksRequired ? 'done' : 'open';
        const score = round(ear / base);
        const bestSelfie = !s.best || score >= s.best.score;
        if (bestSelfie) s.best = { score };
        scores.blinks = s.blinks;
        return answer(s, [s.phase === 'done' ? hints.done : progress(s)], {
          counted: true,
          bestSelfie,
          scores,
        });
      }
      return answer(s, [progress(s)], { scores });
    },
  };
}
