import type { LivenessChallengeMode } from '../../contract/identity';
import type { LivenessSignal } from '../../contract/insight';
import { LIGHT_THRESHOLDS, type LightThresholds } from './config';
import { hints } from './hints';
import { blinkDecider, type BlinkState, type FrameSignals, type LivenessDecider } from './liveness';
import {
  askCues,
  blinkCompleted,
  cryptoDraw,
  cuesOnClock,
  EXTRA_CUES,
  LEAD_MS,
  resolveCues,
  type CueRules,
  type CueState,
  type Draw,
} from './liveness-cues';
import {
  drawLight,
  LIGHT_MIN_SIZE,
  LIGHT_MOVE_MS,
  LIGHT_ROUNDS,
  tagAgrees,
  unjudged,
  type LightRound,
} from './liveness-light';
import type { LightScore } from './liveness-light-judge';
import { observeLight, unjudgeable } from './liveness-light-verdict';

/**
 * The KYC selfie's challenge (issue 31; the protocol is /work/briefs/issue31-overview.md, summed up
 * in server/identity/README.md): the blink decider (liveness.ts) tells when the same face closes and
 * opens its eyes; this decider asks for each blink at a moment it draws (a cue, liveness-cues.ts),
 * counts only blinks whose closing frame falls in the cue's window, and ('cues,light') paints the
 * face with a colour sequence it draws and checks that the face's colour followed it
 * (liveness-light.ts). This module keeps the session's accounting: the state, the clock and its
 * signals, the refusals, what each answer says.
 * Everything is drawn with node:crypto and kept in the session's `liveness_state` (any API process
 * takes the next request); every time is on the challenge's clock, the frames' own `t`.
 */

/** A camera whose label says it is not a camera (a signal, never a verdict). */
const VIRTUAL_CAMERA = /virtual|obs|manycam|xsplit|snap camera|droidcam|epoccam|camo|fake/i;
/** A frame's `t` ahead of what the server's own elapsed time allows by more than this: a signal. */
const CLOCK_AHEAD_MS = 2000;
/** A frame's `t` this far behind the newest one: the browser's clock started again (a reloaded page). */
const CLOCK_RESTART_MS = 1000;
/**
 * Analysed frames in a row that fail the gates before nothing new is asked (issue 41): the detector
 * loses a face that fills the oval for one frame now and then (a held-out face of the bench at fill,
 * 'no_face' once between framed frames), and one such frame held back the next cue by a round trip
 * and LEAD_MS (about 5 s on Regular 3G). A patient out of the oval fails every frame.
 */
export const UNFRAMED_AFTER = 2;

/** The signals a session keeps (counts, contract/insight.ts LIVENESS_SIGNALS): never refusing on their own. */
type ChallengeSignal = LivenessSignal;

export type ChallengeState = CueState & {
  kind: 'challenge';
  mode: LivenessChallengeMode;
  /** The blink decider's state: when the same face closes and reopens its eyes. */
  blink: BlinkState;
  /** Copied from `blink` for journey insight (the challenge's start, blinks seen at any time). */
  startedAt: number | null;
  blinks: number;
  /**
   * The colour sequence asked (null before it is drawn; kept once passed, so that the frames the
   * page tags while it still paints agree with it), and the rounds drawn.
   */
  light: LightRound | null;
  lightRounds: number;
  lightPassed: boolean;
  lightScores: LightScore[];
  done: boolean;
  /** The newest frame's `t`, and the first frame's `t` with the server's time then (the timing signal). */
  newestT: number | null;
  clock: { t: number; now: number } | null;
  /** Times the browser's clock started again (what was asked moved onto the new clock). */
  restarts: number;
  lastBox: [number, number, number, number] | null;
  /**
   * The newest UNFRAMED_AFTER analysed frames or more failed the gates (too far, too close, cut, no
   * face...): nothing new is asked (no cue, no colours) until a frame passes them again, so no cue
   * runs while the oval says 'Acercá el celular' (issue 41 item 2). What was asked before stands:
   * nothing is refunded. `unframedRun` counts those frames. Absent from states stored before them.
   */
  unframed?: boolean;
  unframedRun?: number;
  /** That face's own extent (its mesh, issue 41; absent from states stored before it). */
  lastExtent?: [number, number, number, number] | null;
  /** That face's size (its extent's width over the frame's; null unknown): LIGHT_MIN_SIZE. */
  size?: number | null;
  /** That face is too small for the light (LIGHT_MIN_SIZE): the answer asks for it closer. */
  closer?: boolean;
  signals: Partial<Record<ChallengeSignal, number>>;
};

export type ChallengeConfig = Parameters<typeof blinkDecider>[0] & {
  challenge: LivenessChallengeMode;
};

/**
 * The challenge decider; `draw` replaces the CSPRNG in tests. Mode 'none' is the blink decider's
 * behaviour (three blinks at any time, no `challenge` in the answers, `meta` optional) with the
 * signals of the frames' tags and the camera kept all the same.
 */
export function challengeDecider(
  cfg: ChallengeConfig,
  opts: { draw?: Draw; thresholds?: LightThresholds } = {},
): LivenessDecider<ChallengeState> {
  const draw = opts.draw ?? cryptoDraw;
  const thresholds = opts.thresholds ?? LIGHT_THRESHOLDS;
  const required = cfg.blinksRequired;
  const rules: CueRules = { required, maxCues: required + EXTRA_CUES };
  const asks = cfg.challenge !== 'none';
  // With a challenge the blink decider never passes on its own: only blinks on cue count.
  const innerRequired = asks ? Number.MAX_SAFE_INTEGER : required;
  const blink = blinkDecider({ ...cfg, blinksRequired: innerRequired });
  const withLight = cfg.challenge === 'cues,light';

  const initial = (): ChallengeState => ({
    kind: 'challenge',
    mode: cfg.challenge,
    blink: blink.initial(),
    startedAt: null,
    blinks: 0,
    hits: 0,
    cues: 0,
    cue: null,
    next: null,
    later: null,
    cueEnded: null,
    closingAt: null,
    light: null,
    lightRounds: 0,
    lightPassed: !withLight,
    lightScores: [],
    refused: null,
    done: false,
    newestT: null,
    clock: null,
    restarts: 0,
    lastBox: null,
    signals: {},
  });

  const signal = (s: ChallengeState, kind: ChallengeSignal): ChallengeState => ({
    ...s,
    signals: { ...s.signals, [kind]: (s.signals[kind] ?? 0) + 1 },
  });
  const settle = (s: ChallengeState): ChallengeState => {
    const done = asks
      ? !s.refused && s.hits >= required && s.lightPassed
      : s.blink.phase === 'done';
    return { ...s, done, startedAt: s.blink.startedAt, blinks: s.blink.blinks };
  };

  /** What was asked, `by` ms later on the frames' clock (a browser clock that started again). */
  const onClock = (s: ChallengeState, by: number): ChallengeState => ({
    ...cuesOnClock(s, by),
    light: s.light && {
      ...s.light,
      colours: s.light.colours.map((c) => ({ ...c, from: c.from + by, to: c.to + by })),
    },
  });

  /** A frame's tag and colour: the clock signals, the colour sample, the light's judgement. */
  function observe(s0: ChallengeState, now: number, frame: FrameSignals | undefined) {
    let s = s0;
    const tag = frame?.tag;
    if (!tag) return s;
    const newest = s.newestT;
    if (newest !== null && tag.t < newest) {
      s = signal(s, 'clock_backwards');
      // A page loaded again with the session it held starts its clock at 0: what was asked stays
      // asked, moved onto the new clock at the same moments of the server's time (issue 41: a
      // restart refunds nothing; it used to ask the pending cue and colours anew once).
      if (tag.t < newest - CLOCK_RESTART_MS) {
        const was = s.clock ? s.clock.t + (now - s.clock.now) : newest;
        s = {
          ...onClock(s, tag.t - was),
          restarts: s.restarts + 1,
          clock: null,
          newestT: null,
        };
      }
    }
    if (!s.clock) s = { ...s, clock: { t: tag.t, now } };
    else if (tag.t - s.clock.t > now - s.clock.now + CLOCK_AHEAD_MS) s = signal(s, 'clock_ahead');
    s = { ...s, newestT: Math.max(s.newestT ?? 0, tag.t) };
    if (!tagAgrees(s.light, tag)) s = signal(s, 'tag_mismatch');
    s = resolveCues(s, tag.t, s.blink.phase === 'closed', rules);
    return observeLight(s, tag, frame.colour, thresholds);
  }

  /** The blink decider's answer with the challenge's state around it. */
  function wrap(
    before: ChallengeState,
    inner: ReturnType<typeof blink.step>,
    t: number | null,
  ): ReturnType<LivenessDecider<ChallengeState>['step']> {
    let s: ChallengeState = { ...before, blink: inner.state };
    const was = before.blink.phase;
    const is = inner.state.phase;
    if (is === 'baseline' && was !== 'baseline') {
      // Another face took over (issue 41). Once anything was asked or counted, nothing is refunded:
      // the session is refused (a replayed video that showed another face for one frame got fresh
      // cues and colours before, as many times as it liked within the time limit). Before that
      // there is nothing to refund, and the face now in front of the camera is the reference.
      s =
        s.cues > 0 || s.light !== null || before.blink.blinks > 0
          ? { ...s, refused: 'face_changed' }
          : {
              ...initial(),
              blink: inner.state,
              clock: s.clock,
              newestT: s.newestT,
              restarts: s.restarts,
              signals: s.signals,
            };
    } else if (was === 'open' && is === 'closed') {
      s.closingAt = t;
    } else if (was === 'closed' && inner.state.blinks > before.blink.blinks) {
      s = blinkCompleted(s, t, rules);
    }
    s = settle(s);
    const progressLine = hints.blink(inner.state.blinks, innerRequired);
    const feedback = !asks
      ? inner.feedback
      : s.done
        ? [hints.done]
        : inner.feedback.flatMap((line) => (line === progressLine ? progress(s) : [line]));
    return { ...inner, state: s, live: s.done, feedback };
  }

  /** Another round: when the last one could not be judged (unjudgeable), say what to change. */
  const lightAgain = (last: LightScore | undefined) =>
    last && unjudgeable(last, thresholds) ? hints.lightUnjudged : hints.lightAgain;

  function progress(s: ChallengeState): string[] {
    if (s.done) return [hints.done];
    const lines: string[] =
      s.hits < required
        ? [hints.waitCue, hints.cueCount(s.hits, required)]
        : [hints.cueCount(s.hits, required)];
    // A round that followed the colours without passing on its own waits for the other one.
    const last = s.lightScores.at(-1);
    if (s.light && !s.lightPassed)
      lines.push(!last || last.followed ? hints.light : lightAgain(last));
    // The oval says it (the gates' line: the answer's `framing`).
    if (s.closer) lines.push(hints.tooFar);
    return lines;
  }

  const decider: LivenessDecider<ChallengeState> = {
    name: blink.name,
    needsMeta: asks,
    initial,
    isLive: (s) => s.done,
    isTimeUp: (s, now) => !s.done && blink.isTimeUp(s.blink, now),
    refusal: (s) => s.refused,
    signals: (s) => (Object.keys(s.signals).length ? { ...s.signals } : null),

    needsEmbedding: (s) => ({
      ...blink.needsEmbedding(s.blink),
      // While the face is too small for the light every frame is analysed: the hint stops with the
      // first frame close enough (a face coming closer can leave its eyes unchanged enough to be
      // skipped).
      ...(s.closer ? { analyseAll: true } : {}),
      colourBox: s.lastBox,
      colourExtent: s.lastExtent ?? null,
      careful: [s.cue, s.next, s.later].flatMap((c) =>
        c ? [[c.at, c.until] as [number, number]] : [],
      ),
    }),

    framed: (s) => s.lastBox !== null && !s.unframed,

    idle(state, now, feedback, frame) {
      let s = observe(state, now, frame);
      // Feedback here is the gates' (a skipped or duplicate frame brings none: nothing changes).
      if (feedback.length) {
        const run = (s.unframedRun ?? 0) + 1;
        s = { ...s, unframedRun: run, unframed: run >= UNFRAMED_AFTER };
      }
      const inner = blink.idle(s.blink, now, feedback);
      return wrap(s, inner, frame?.tag?.t ?? null);
    },

    progress(s, now) {
      const inner = blink.progress(s.blink, now);
      if (!asks || (inner[0] === hints.timeUp && !s.done)) return inner;
      return progress(s);
    },

    step(state, frame) {
      let s = observe(state, frame.now, frame);
      const { extent } = frame.face;
      const size = extent && frame.width ? extent[2] / frame.width : null;
      s = {
        ...s,
        lastBox: frame.face.box,
        lastExtent: extent ?? null,
        size,
        closer: withLight && !s.lightPassed && size !== null && size < LIGHT_MIN_SIZE,
        unframed: false,
        unframedRun: 0,
      };
      if (s.done || s.refused) return wrap(s, blink.idle(s.blink, frame.now, []), null);
      return wrap(s, blink.step(s.blink, frame), frame.tag?.t ?? null);
    },

    finish(state, { meta }) {
      let s = state;
      const label = meta?.camera?.label;
      if (label && VIRTUAL_CAMERA.test(label) && !s.signals.virtual_camera)
        s = signal(s, 'virtual_camera');
      // Nothing is asked without a challenge, before the open-eye baseline, after the end, or
      // without a frame's time.
      if (!asks || s.done || s.refused || s.blink.phase === 'baseline' || s.newestT === null)
        return s;
      if (s.blink.phase === 'expired') return s;
      // Nothing new while the face is not framed: the patient is following the oval's hint.
      if (s.unframed) return settle(s);
      const start = s.newestT + LEAD_MS;
      if (withLight && !s.lightPassed && unjudged(s) === 0 && s.lightRounds < LIGHT_ROUNDS) {
        const rounds = LIGHT_ROUNDS - s.lightRounds;
        s = {
          ...s,
          // A face asked closer gets the time to come: its first round is not painted on the move.
          light: drawLight(draw, s.lightRounds + 1, rounds, start + (s.closer ? LIGHT_MOVE_MS : 0)),
          lightRounds: LIGHT_ROUNDS,
        };
      }
      s = askCues(s, start, draw, rules);
      return settle(s);
    },
  };
  if (!asks) return decider;
  return {
    ...decider,
    challenge: (s) => ({
      cue: s.done || s.refused ? null : s.cue,
      next_cue: s.done || s.refused ? null : s.next,
      later_cue: s.done || s.refused ? null : (s.later ?? null),
      light:
        s.light && !s.lightPassed && !s.done && !s.refused
          ? { round: s.light.round, colours: s.light.colours }
          : null,
    }),
  };
}
