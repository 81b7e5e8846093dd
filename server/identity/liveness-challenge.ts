import { randomInt } from 'node:crypto';
import {
  LIGHT_MIN_HOLD_MS,
  LIGHT_SETTLE_MS,
  type LivenessChallengeMode,
  type LivenessCue,
  type LivenessFrameTag,
  type LivenessLight,
} from '../../contract/identity';
import type { LivenessSignal } from '../../contract/insight';
import { hints } from './hints';
import type { FrameColour } from './types';
import {
  blinkDecider,
  type BlinkState,
  type ChallengeRefusal,
  type FrameSignals,
  type LivenessDecider,
} from './liveness';

/**
 * The KYC selfie's challenge (issue 31; the protocol is /work/briefs/issue31-overview.md, summed up
 * in server/identity/README.md): the blink decider (liveness.ts) tells when the same face closes and
 * opens its eyes; this decider asks for each blink at a moment it draws (a cue), counts only blinks
 * whose closing frame falls in the cue's window, and ('cues,light') paints the face with a colour
 * sequence it draws and checks that the face's colour followed it more than the background's.
 * Everything is drawn with node:crypto and kept in the session's `liveness_state` (any API process
 * takes the next request); every time is on the challenge's clock, the frames' own `t`.
 */

/** The answer must reach the browser before what it asks starts (Regular 3G): cues and colours start this long after the newest frame's `t`. */
export const LEAD_MS = 1800;
/**
 * A cue's window: a blink counts when its closing frame's `t` is in [at + CUE_MIN_LATENCY_MS,
 * at + CUE_WINDOW_MS] (the synthetic patient's slowest answer closes by 1205 ms; server/identity/
 * README.md has the bench's figures for this window and the gap).
 */
export const CUE_WINDOW_MS = 1300;
export const CUE_MIN_LATENCY_MS = 150;
/** The next cue comes this long (drawn) after the previous blink's reopening or window. */
export const CUE_GAP_MS: readonly [number, number] = [400, 1200];
/** Cues asked beyond the blinks required: then the session is refused ('cues_missed'). */
export const EXTRA_CUES = 2;

/**
 * The colour sequence: rounds of this many colours, each held this long, at most this many rounds.
 * The rounds are drawn together and painted back to back: the second is on the screen before the
 * first is judged (its last frames reach the server a second or more after it ends on Regular 3G,
 * and a round drawn only then started about 6 s after the first ended), and the answer that judges
 * a round passed stops the painting.
 */
export const LIGHT_COLOURS = 5;
export const LIGHT_HOLD_MS = 700;
export const LIGHT_ROUNDS = 2;
/** A colour's frames: `t` in [from + LIGHT_SETTLE_MS, to] (contract/identity.ts). */
export { LIGHT_SETTLE_MS };
/** The sequence is judged once a frame has `t` >= the last colour's `to` + this. */
export const LIGHT_JUDGE_AFTER_MS = 300;
/** A tag this close to a colour change may carry either neighbour's index (not a signal). */
const TAG_SLACK_MS = 150;

/**
 * The palette: strong hues a phone screen can cast on a face, none a saturated red (WCAG 2.3.1's red
 * flash: R / (R + G + B) >= 0.8; the reddest here is 0.61).
 */
export const LIGHT_PALETTE = [
  '#ff6040',
  '#40ff60',
  '#4060ff',
  '#ffff40',
  '#40ffff',
  '#ff40ff',
] as const;

/**
 * When the face follows the sequence (the defaults of IDENTITY_LIGHT_CORRELATION,
 * IDENTITY_LIGHT_BEYOND_BACKGROUND and IDENTITY_LIGHT_FACE_CHANGE; judgeLight says how each is
 * measured): the face's chromaticity changes with the screen's colours (correlation), enough to
 * tell from noise (`change`: a real face outdoors 0.0099 at least in the tuning, a face on a screen
 * outdoors 0.0059 at most), and its change beyond a part of the background is most of its change
 * (`beyond`: a wall a metre away is barely lit by the screen, a face on a screen changes everywhere
 * alike). `BEYOND_FIT` is how closely the face-minus-part change must
 * follow the screen's colours for that part to count. docs/measurements.md has the figures.
 */
export const LIGHT_THRESHOLDS = { correlation: 0.75, beyond: 0.6, change: 0.007 };
export const BEYOND_FIT = 0.8;
/**
 * A background part counts only when at most this fraction of its pixels clipped in every frame of
 * the round: clipped pixels do not change, and pixels that clip under one colour and not another (a
 * window near white) fake a change of the part.
 */
export const PART_MAX_CLIPPED = 0.1;

/** A camera whose label says it is not a camera (a signal, never a verdict). */
const VIRTUAL_CAMERA = /virtual|obs|manycam|xsplit|snap camera|droidcam|epoccam|camo|fake/i;
/** A frame's `t` ahead of what the server's own elapsed time allows by more than this: a signal. */
const CLOCK_AHEAD_MS = 2000;
/** A frame's `t` this far behind the newest one: the browser's clock started again (a reloaded page). */
const CLOCK_RESTART_MS = 1000;

/** The signals a session keeps (counts, contract/insight.ts LIVENESS_SIGNALS): never refusing on their own. */
type ChallengeSignal = LivenessSignal;

type Rgb = [number, number, number];
/** A colour's frames so far: how many, and the sums of the face's and the background's chromaticity. */
export type ColourAcc = {
  n: number;
  face: Rgb;
  nb: number;
  background: Rgb;
  /** The background's parts apart (FrameColour.patches): frames, chromaticity sums, the most clipped. */
  patches?: Array<{ n: number; sum: Rgb; clipped?: number }>;
};
/**
 * The colour sequence asked: its rounds back to back (LIGHT_COLOURS colours each), each colour's
 * frames, and how many of its rounds were judged (failed) so far.
 */
type LightRound = LivenessLight & { acc: ColourAcc[]; judged?: number };
/** The judgement of a round (for the log and the bench). */
export type LightScore = {
  round: number;
  seen: boolean;
  correlation: number | null;
  /** The face's own change: the slope of its chromaticity deviations on the screen colours'. */
  change: number | null;
  /** The face's change beyond the best background part's, as a fraction of the face's change (null: no part fit). */
  beyond: number | null;
  /** Background parts usable in the round (frames in every colour, little clipping). */
  parts: number;
  passed: boolean;
};

export type ChallengeState = {
  kind: 'challenge';
  mode: LivenessChallengeMode;
  /** The blink decider's state: when the same face closes and reopens its eyes. */
  blink: BlinkState;
  /** Copied from `blink` for journey insight (the challenge's start, blinks seen at any time). */
  startedAt: number | null;
  blinks: number;
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
  /** When the previous cue ended (its blink's reopening, or its window's end). */
  cueEnded: number | null;
  /** The closing frame's `t` of the blink under way. */
  closingAt: number | null;
  /**
   * The colour sequence asked (null before it is drawn; kept once passed, so that the frames the
   * page tags while it still paints agree with it), and the rounds drawn.
   */
  light: LightRound | null;
  lightRounds: number;
  lightPassed: boolean;
  lightScores: LightScore[];
  refused: ChallengeRefusal | null;
  done: boolean;
  /** The newest frame's `t`, and the first frame's `t` with the server's time then (the timing signal). */
  newestT: number | null;
  clock: { t: number; now: number } | null;
  /** Times the browser's clock started again and what was pending was asked anew (at most once). */
  restarts: number;
  lastBox: [number, number, number, number] | null;
  signals: Partial<Record<ChallengeSignal, number>>;
};

/** A whole number in [min, max] (inclusive), drawn with a CSPRNG. */
export type Draw = (min: number, max: number) => number;
const cryptoDraw: Draw = (min, max) => randomInt(min, max + 1);

/** '#rrggbb' -> chromaticity (r, g, b over r + g + b). */
const hexChroma = (hex: string): Rgb => {
  const v = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const sum = v[0]! + v[1]! + v[2]!;
  return [v[0]! / sum, v[1]! / sum, v[2]! / sum];
};
const chroma = (rgb: Rgb | null): Rgb | null => {
  if (!rgb) return null;
  const sum = rgb[0] + rgb[1] + rgb[2];
  return sum >= 15 ? [rgb[0] / sum, rgb[1] / sum, rgb[2] / sum] : null;
};
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Deviations of each row from the rows' mean, per channel, flattened. */
function deviations(rows: Rgb[]): number[] {
  const mean = [0, 1, 2].map((c) => rows.reduce((a, r) => a + r[c]!, 0) / rows.length);
  return rows.flatMap((r) => [r[0] - mean[0]!, r[1] - mean[1]!, r[2] - mean[2]!]);
}
function pearson(a: number[], b: number[]): number {
  const ma = a.reduce((x, y) => x + y, 0) / a.length;
  const mb = b.reduce((x, y) => x + y, 0) / b.length;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}
/** A colour's frames before the first. */
export const emptyColourAcc = (): ColourAcc => ({
  n: 0,
  face: [0, 0, 0],
  nb: 0,
  background: [0, 0, 0],
});

/**
 * A colour's frames with one more: its face's chromaticity, the background's, and each background
 * part's with the most clipped so far. A frame without a face (or too dark to tell) adds nothing.
 */
export function addColour(a: ColourAcc, colour: FrameColour | undefined): ColourAcc {
  const face = chroma(colour?.face ?? null);
  if (!face) return a;
  const add = (x: Rgb, y: Rgb): Rgb => [x[0] + y[0], x[1] + y[1], x[2] + y[2]];
  const background = chroma(colour?.background ?? null);
  const patches = (colour?.patches ?? []).map((part, p) => {
    const had = a.patches?.[p] ?? { n: 0, sum: [0, 0, 0] as Rgb, clipped: 0 };
    const c = chroma(part?.rgb ?? null);
    return c
      ? { n: had.n + 1, sum: add(had.sum, c), clipped: Math.max(had.clipped ?? 0, part!.clipped) }
      : had;
  });
  return {
    n: a.n + 1,
    face: add(a.face, face),
    nb: a.nb + (background ? 1 : 0),
    background: background ? add(a.background, background) : a.background,
    ...(patches.length ? { patches } : {}),
  };
}

/** The least-squares slope of `y` on `x` (both centred already: deviations). */
const slope = (y: number[], x: number[]) => {
  const xx = x.reduce((a, v) => a + v * v, 0);
  return xx ? y.reduce((a, v, i) => a + v * x[i]!, 0) / xx : 0;
};

/**
 * Judges a round from its colours' frames: unseen when more than one colour has no usable frame,
 * else passed when
 * - the face's chromaticity follows the screen colours: the Pearson correlation of its deviations
 *   (colours x channels, from the round's mean) with the screen colours' is at least
 *   `thresholds.correlation`;
 * - and it changes well beyond some part of the background: for each part with frames in every
 *   colour and at most PART_MAX_CLIPPED clipped, the face's deviations minus the part's follow the
 *   screen colours (correlation BEYOND_FIT or more) with a slope of at least `thresholds.beyond` of
 *   the face's own. Both regions are seen through the same camera at once, so its automatic white
 *   balance and exposure, which take back part of the light's change on every pixel alike, cancel
 *   in the difference; a far wall is barely lit by the screen (beyond about 0.9), hair is lit like
 *   the face (about 0), and a face on a screen changes everywhere alike (about 0 for every part).
 * - and the face's own change (the slope of its deviations on the screen colours') is at least
 *   `thresholds.change`: outdoors a screen's reflection is near the noise floor, and `beyond`, a
 *   ratio of two small slopes, is then noise (a face on a screen reached 1.06 once).
 * Frames from an older state without parts: the whole background is the one part.
 */
export function judgeLight(
  light: Pick<LightRound, 'round' | 'colours' | 'acc'>,
  thresholds = LIGHT_THRESHOLDS,
): LightScore {
  const unseen = {
    round: light.round,
    seen: false,
    correlation: null,
    change: null,
    beyond: null,
    parts: 0,
    passed: false,
  };
  // On a slow uplink the browser sends only some of its frames: a round is judged on the colours
  // that have frames, all but one at least, and at least three different ones among them.
  const seen = light.colours.flatMap((c, k) => {
    const a = light.acc[k]!;
    return a.n ? [{ colour: c.colour, a }] : [];
  });
  if (seen.length < light.colours.length - 1 || new Set(seen.map((x) => x.colour)).size < 3)
    return unseen;
  const mean = (sum: Rgb, n: number): Rgb => [sum[0] / n, sum[1] / n, sum[2] / n];
  const expected = deviations(seen.map((x) => hexChroma(x.colour)));
  const face = deviations(seen.map(({ a }) => mean(a.face, a.n)));
  const correlation = pearson(expected, face);
  const faceSlope = slope(face, expected);
  const count = Math.max(0, ...seen.map(({ a }) => a.patches?.length ?? 0));
  const parts: number[][] = count
    ? Array.from({ length: count }, (_, p) => p).flatMap((p) =>
        seen.every(({ a }) => a.patches?.[p]?.n && (a.patches[p]!.clipped ?? 0) <= PART_MAX_CLIPPED)
          ? [deviations(seen.map(({ a }) => mean(a.patches![p]!.sum, a.patches![p]!.n)))]
          : [],
      )
    : seen.every(({ a }) => a.nb)
      ? [deviations(seen.map(({ a }) => mean(a.background, a.nb)))]
      : [];
  let beyond: number | null = null;
  for (const part of parts) {
    const diff = face.map((v, i) => v - part[i]!);
    if (faceSlope <= 0 || pearson(expected, diff) < BEYOND_FIT) continue;
    const b = slope(diff, expected) / faceSlope;
    if (beyond === null || b > beyond) beyond = b;
  }
  return {
    round: light.round,
    seen: true,
    correlation: round3(correlation),
    change: Math.round(faceSlope * 1e4) / 1e4,
    beyond: beyond === null ? null : round3(beyond),
    parts: parts.length,
    passed:
      correlation >= thresholds.correlation &&
      faceSlope >= thresholds.change &&
      beyond !== null &&
      beyond >= thresholds.beyond,
  };
}

/**
 * A round's colours: LIGHT_COLOURS different colours of the palette in a drawn order. With a colour
 * repeated, another order of the same colours can leave most of the sequence in place (the bench's
 * attacker passed 1/20 so, correlation 0.77-0.91); with all different, any other order moves at
 * least two colours.
 */
export function drawLightColours(draw: Draw): string[] {
  const left: string[] = [...LIGHT_PALETTE];
  return Array.from({ length: LIGHT_COLOURS }, () => left.splice(draw(0, left.length - 1), 1)[0]!);
}

/** The colour index scheduled at `t` (-1 for none). */
const scheduledAt = (light: LivenessLight, t: number) =>
  light.colours.findIndex((c) => t >= c.from && t < c.to);

/** Whether a frame's light tag may be right: the colour scheduled at its time or, near a change, a neighbour's; -1 (nothing painted yet: a late answer) always may. */
function tagAgrees(light: LivenessLight | null, tag: LivenessFrameTag): boolean {
  if (tag.light === -1) return true;
  if (!light || tag.light >= light.colours.length) return false;
  return [tag.t - TAG_SLACK_MS, tag.t, tag.t + TAG_SLACK_MS].some(
    (t) => scheduledAt(light, t) === tag.light,
  );
}

/** How many rounds a sequence holds, and round `k` of it (its colours, their frames, its number). */
const roundsIn = (light: LivenessLight) => Math.ceil(light.colours.length / LIGHT_COLOURS);
function roundOf(light: LightRound, k: number): Pick<LightRound, 'round' | 'colours' | 'acc'> {
  const at = k * LIGHT_COLOURS;
  return {
    round: light.round + k,
    colours: light.colours.slice(at, at + LIGHT_COLOURS),
    acc: light.acc.slice(at, at + LIGHT_COLOURS),
  };
}
/** Rounds drawn and not judged yet (none once the light passed: nothing is refunded then). */
const unjudged = (s: Pick<ChallengeState, 'light' | 'lightPassed'>) =>
  s.light && !s.lightPassed ? roundsIn(s.light) - (s.light.judged ?? 0) : 0;

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
  opts: { draw?: Draw; thresholds?: typeof LIGHT_THRESHOLDS } = {},
): LivenessDecider<ChallengeState> {
  const draw = opts.draw ?? cryptoDraw;
  const thresholds = opts.thresholds ?? LIGHT_THRESHOLDS;
  const required = cfg.blinksRequired;
  const maxCues = required + EXTRA_CUES;
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

  /**
   * The current cue has ended (answered, or its window passed) at `ended`: the next one is current,
   * unless every blink is in (only the light may be left: no cue is asked then, and none with
   * `of` 0, which the contract refuses).
   */
  const endCue = (s: ChallengeState, ended: number): ChallengeState => ({
    ...s,
    cue: s.next && s.hits < required ? { ...s.next, of: required - s.hits } : null,
    next: null,
    cueEnded: ended,
  });

  /** Cues whose window passed without a blink closing in it: missed. */
  function resolveCue(first: ChallengeState, t: number): ChallengeState {
    let s = first;
    for (let cue = s.cue; cue && t > cue.until; cue = s.cue) {
      const closingInWindow =
        s.blink.phase === 'closed' &&
        s.closingAt !== null &&
        s.closingAt >= cue.at + CUE_MIN_LATENCY_MS &&
        s.closingAt <= cue.until;
      if (closingInWindow) return s;
      s = endCue(s, cue.until);
      // Not enough cues left for the blinks still needed: refused.
      const pending = s.cue ? 1 : 0;
      if (s.hits + pending + (maxCues - s.cues) < required) return { ...s, refused: 'cues_missed' };
    }
    return s;
  }

  /** What was asked, `by` ms later on the frames' clock (a browser clock that started again). */
  function onClock(s: ChallengeState, by: number): ChallengeState {
    const cue = (c: LivenessCue | null) => c && { ...c, at: c.at + by, until: c.until + by };
    return {
      ...s,
      cue: cue(s.cue),
      next: cue(s.next),
      cueEnded: s.cueEnded === null ? null : s.cueEnded + by,
      closingAt: s.closingAt === null ? null : s.closingAt + by,
      light: s.light && {
        ...s.light,
        colours: s.light.colours.map((c) => ({ ...c, from: c.from + by, to: c.to + by })),
      },
    };
  }

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
    s = resolveCue(s, tag.t);
    let light = s.light;
    if (!light || s.lightPassed || s.refused) return s;
    const i = tag.light;
    const c = i >= 0 ? light.colours[i] : undefined;
    if (c && tag.t >= c.from + LIGHT_SETTLE_MS && tag.t <= c.to && tagAgrees(light, tag)) {
      const acc = light.acc.map((a, k) => (k === i ? addColour(a, frame.colour) : a));
      light = { ...light, acc };
    }
    // Each round of the sequence whose last colour is past: judged in turn until one passes.
    for (let k = light.judged ?? 0; k < roundsIn(light); k++) {
      const round = roundOf(light, k);
      if (tag.t < round.colours.at(-1)!.to + LIGHT_JUDGE_AFTER_MS) break;
      const score = judgeLight(round, thresholds);
      s = { ...s, lightScores: [...s.lightScores, score].slice(-LIGHT_ROUNDS) };
      light = { ...light, judged: k + 1 };
      if (score.passed) return { ...s, light, lightPassed: true };
    }
    s = { ...s, light };
    // Every round drawn failed or went unseen: another sequence (drawn by `finish`) or refused.
    if (unjudged(s) === 0 && s.lightRounds >= LIGHT_ROUNDS) s = { ...s, refused: 'light_mismatch' };
    return s;
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
      const cue = s.cue;
      const closing = s.closingAt;
      if (
        cue &&
        closing !== null &&
        closing >= cue.at + CUE_MIN_LATENCY_MS &&
        closing <= cue.until
      ) {
        s = endCue({ ...s, hits: s.hits + 1 }, t ?? cue.until);
      }
      s.closingAt = null;
      if (t !== null) s = resolveCue(s, t);
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

  /** Another round: when the last one had no background part to compare the face with, say what to change. */
  const lightAgain = (last: LightScore | undefined) =>
    last?.seen && last.parts === 0 ? hints.lightBackground : hints.lightAgain;

  function progress(s: ChallengeState): string[] {
    if (s.done) return [hints.done];
    const lines: string[] =
      s.hits < required
        ? [hints.waitCue, hints.cueCount(s.hits, required)]
        : [hints.cueCount(s.hits, required)];
    if (s.light && !s.lightPassed)
      lines.push(s.lightScores.length ? lightAgain(s.lightScores.at(-1)) : hints.light);
    return lines;
  }

  /** A new colour sequence from `start`: `rounds` rounds back to back, each drawLightColours'. */
  function drawLight(round: number, rounds: number, start: number): LightRound {
    const picks = Array.from({ length: rounds }, () => drawLightColours(draw)).flat();
    const hold = Math.max(LIGHT_HOLD_MS, LIGHT_MIN_HOLD_MS);
    return {
      round,
      colours: picks.map((colour, k) => ({
        colour,
        from: start + k * hold,
        to: start + (k + 1) * hold,
      })),
      acc: picks.map(emptyColourAcc),
      judged: 0,
    };
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
      colourBox: s.lastBox,
      careful: [s.cue, s.next].flatMap((c) => (c ? [[c.at, c.until] as [number, number]] : [])),
    }),

    idle(state, now, feedback, frame) {
      const s = observe(state, now, frame);
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
      s = { ...s, lastBox: frame.face.box };
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
      const start = s.newestT + LEAD_MS;
      if (withLight && !s.lightPassed && unjudged(s) === 0 && s.lightRounds < LIGHT_ROUNDS) {
        const rounds = LIGHT_ROUNDS - s.lightRounds;
        s = { ...s, light: drawLight(s.lightRounds + 1, rounds, start), lightRounds: LIGHT_ROUNDS };
      }
      const cue = (at: number): LivenessCue => ({
        n: s.cues + 1,
        of: required - s.hits,
        at,
        until: at + CUE_WINDOW_MS,
      });
      const gap = () => draw(CUE_GAP_MS[0], CUE_GAP_MS[1]);
      if (!s.cue && s.hits < required && s.cues < maxCues) {
        const at = s.cues === 0 ? start : Math.max(start, s.cueEnded ?? 0) + gap();
        s = { ...s, cues: s.cues + 1, cue: cue(at) };
      }
      // The one after it, answered now (a miss of the current one would need it at once).
      if (s.cue && !s.next && s.cues < maxCues) {
        const at = Math.max(start, s.cue.until + gap());
        s = { ...s, cues: s.cues + 1, next: cue(at) };
      }
      return settle(s);
    },
  };
  if (!asks) return decider;
  return {
    ...decider,
    challenge: (s) => ({
      cue: s.done || s.refused ? null : s.cue,
      next_cue: s.done || s.refused ? null : s.next,
      light:
        s.light && !s.lightPassed && !s.done && !s.refused
          ? { round: s.light.round, colours: s.light.colours }
          : null,
    }),
  };
}
