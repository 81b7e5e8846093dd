import {
  LIGHT_SETTLE_MS,
  type LivenessChallenge,
  type LivenessCue,
  type LivenessFrameTag,
  type LivenessLight,
} from '../../contract/identity';

/**
 * The selfie challenge's timeline (issue 31), pure: what the page shows at a moment of the
 * challenge's clock (ms since the first frame of the KYC session) given the server's last answer,
 * and when that changes next. The sampling actor (kyc.actors.ts) runs it on timers; a late answer
 * shows what is current now and skips what is past, and a new round simply replaces the old one.
 */

/** The cue to show at `t` ('Parpadeá ahora' from `at` to `until`), or null. */
export const cueAt = (cue: LivenessCue | null | undefined, t: number): LivenessCue | null =>
  cue && t >= cue.at && t < cue.until ? cue : null;

/** The cues an answer carries: the current one and the two the server sent ahead. */
const cuesOf = (challenge: LivenessChallenge | null | undefined) =>
  [challenge?.cue, challenge?.next_cue, challenge?.later_cue].flatMap((c) => (c ? [c] : []));

/** The challenge's cue to show at `t`: the current one, or one the server sent ahead. */
export const challengeCueAt = (
  challenge: LivenessChallenge | null | undefined,
  t: number,
): LivenessCue | null => cuesOf(challenge).find((c) => cueAt(c, t)) ?? null;

/** The index in `light.colours` to paint at `t` (each from `from` to `to`), or -1 for none. */
export const lightIndexAt = (light: LivenessLight | null | undefined, t: number): number =>
  light ? light.colours.findIndex((c) => t >= c.from && t < c.to) : -1;

/**
 * Whether the server judges the light on a frame with this tag: a colour was painted and `t` is in
 * that colour's [from + LIGHT_SETTLE_MS, to] (such frames are sent before the others but cued ones).
 */
export function judgedForLight(light: LivenessLight | null | undefined, tag: LivenessFrameTag) {
  const c = tag.light >= 0 ? light?.colours[tag.light] : undefined;
  return c !== undefined && tag.t >= c.from + LIGHT_SETTLE_MS && tag.t <= c.to;
}

/** The first moment after `t` when what is shown changes (a cue or a colour starts or ends). */
export function nextChange(challenge: LivenessChallenge | null, t: number): number | null {
  if (!challenge) return null;
  const moments = [
    ...cuesOf(challenge).flatMap((c) => [c.at, c.until]),
    ...(challenge.light?.colours.flatMap((c) => [c.from, c.to]) ?? []),
  ].filter((m) => m > t);
  return moments.length ? Math.min(...moments) : null;
}

/** Two cues are the same request (the server repeats it in each answer until its window ends). */
export const sameCue = (a: LivenessCue | null, b: LivenessCue | null): boolean =>
  a === b || (a !== null && b !== null && a.n === b.n && a.at === b.at && a.until === b.until);

/** What the page painted from when: the index the actor last told the machine to paint. */
export type PaintLog = ReadonlyArray<{ t: number; index: number }>;

/** Keeps the log short: only the last changes can be asked about (frames are recent). */
const PAINT_LOG_LENGTH = 32;

export const logPaint = (log: PaintLog, t: number, index: number): PaintLog =>
  [...log, { t, index }].slice(-PAINT_LOG_LENGTH);

/** The index painted at `t` (-1 before anything was painted). */
export function paintedAt(log: PaintLog, t: number): number {
  for (let i = log.length - 1; i >= 0; i -= 1) if (log[i]!.t <= t) return log[i]!.index;
  return -1;
}

/** A frame's tag: when it was captured on the challenge's clock, and the colour painted then. */
export const frameTag = (log: PaintLog, t: number): LivenessFrameTag => ({
  t: Math.max(0, Math.round(t)),
  light: paintedAt(log, t),
});

/** The page attributes the e2e synthetic camera reads (contract/identity.ts), for the views. */
export {
  LIVENESS_CUE_ATTR,
  LIVENESS_FRAMING_ATTR,
  LIVENESS_LIGHT_ATTR,
} from '../../contract/identity';
