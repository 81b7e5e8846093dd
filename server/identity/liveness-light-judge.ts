import type { FrameColour } from './types';
import { LIGHT_THRESHOLDS, type LightThresholds } from './config';
import {
  SHAPE_FIT,
  SHAPE_FIT_NEAR_FLOOR,
  SHAPE_FLAT,
  SHAPE_MIN_CHANGE,
  SHAPE_NEAR_FLOOR,
  SHAPE_SURE_CHANGE,
} from './liveness-light-shape';

/**
 * The judgement of the screen's light (issue 31, issue 41): each colour's frames accumulated, and a
 * round judged on them (the face follows the colours, beyond a background part or by its own
 * shape). Pure functions; the sequence itself is liveness-light.ts.
 */

/** A round to judge: its colours (in order) and each one's frames. */
type JudgedRound = { round: number; colours: ReadonlyArray<{ colour: string }>; acc: ColourAcc[] };

/** How closely the face-minus-part change must follow the screen's colours for that part to count. */
export const BEYOND_FIT = 0.8;
/**
 * A background part counts only when at most this fraction of its pixels clipped in every frame of
 * the round: clipped pixels do not change, and pixels that clip under one colour and not another (a
 * window near white) fake a change of the part.
 */
export const PART_MAX_CLIPPED = 0.1;

type Rgb = [number, number, number];
/** A colour's frames so far: how many, and the sums of the face's and the background's chromaticity. */
export type ColourAcc = {
  n: number;
  face: Rgb;
  nb: number;
  background: Rgb;
  /**
   * The background's parts apart (FrameColour.patches): frames, chromaticity sums, the most clipped,
   * and their log-chromaticity (`log`: frames and sums, as `shading` below).
   */
  patches?: Array<{ n: number; sum: Rgb; clipped?: number; log?: { n: number; sum: Rgb } }>;
  /** The face's log-chromaticity (frames and sums): `beyond` is measured on it (issue 41). */
  logFace?: { n: number; sum: Rgb };
  /**
   * The face's core and rim (FrameColour.core, .rim: issue 41): frames with both, and the sums of
   * their log-chromaticity (each channel's log less the three's mean): a region's albedo is a
   * constant there, so a flat face changes alike in both whatever its colours (plain chromaticity
   * depends on them: a print's dark-skinned cheek and nose gave ratios of 0.57-0.77).
   */
  shading?: { n: number; core: Rgb; rim: Rgb };
};
/** The judgement of a round (for the log and the bench). */
export type LightScore = {
  round: number;
  seen: boolean;
  correlation: number | null;
  /** The face's own change: the slope of its chromaticity deviations on the screen colours'. */
  change: number | null;
  /**
   * The face's change in any direction: the spread of its chromaticity deviations over the screen
   * colours' (`change` when it follows them exactly; colours in the wrong order keep it, the sun's
   * noise floor does not).
   */
  response?: number | null;
  /** The face's change beyond the best background part's, as a fraction of the face's change (null: no part fit). */
  beyond: number | null;
  /** Background parts usable in the round (frames in every colour, little clipping). */
  parts: number;
  /**
   * The face's rim's change as a fraction of its core's (issue 41; null: the rim or the core not seen
   * in every colour): a real face's outer cheeks turn away from the screen (less than 1), a flat
   * face changes alike (about 1).
   */
  shape?: number | null;
  /**
   * How closely the core's change less the rim's follows the screen's colours (Pearson, as `beyond`
   * takes a part's; null with `shape`): near 1 when the rim's lesser change is the screen's light,
   * low when `shape` is two slopes of noise.
   */
  shapeFit?: number | null;
  /**
   * The round's colours on the face as judged (`passed` is then whether it passes on its own:
   * passesAlone; absent from states stored before it, where `passed` was this).
   */
  followed?: boolean;
  passed: boolean;
};

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
export function pearson(a: number[], b: number[]): number {
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
/** What a face lit by `colours` alone would show: their chromaticities' deviations (the judge's `expected`). */
export const sequenceDeviations = (colours: readonly string[]) =>
  deviations(colours.map(hexChroma));

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
  const addLog = (had: { n: number; sum: Rgb } | undefined, v: Rgb | null) =>
    v ? { n: (had?.n ?? 0) + 1, sum: add(had?.sum ?? [0, 0, 0], v) } : had;
  const patches = (colour?.patches ?? []).map((part, p) => {
    const had = a.patches?.[p] ?? { n: 0, sum: [0, 0, 0] as Rgb, clipped: 0 };
    const c = chroma(part?.rgb ?? null);
    const log = addLog(had.log, logChroma(part?.rgb ?? null));
    return c
      ? {
          n: had.n + 1,
          sum: add(had.sum, c),
          clipped: Math.max(had.clipped ?? 0, part!.clipped),
          ...(log ? { log } : {}),
        }
      : had;
  });
  const logFace = addLog(a.logFace, logChroma(colour?.face ?? null));
  const core = logChroma(colour?.core ?? null);
  const rim = logChroma(colour?.rim ?? null);
  const had = a.shading ?? { n: 0, core: [0, 0, 0] as Rgb, rim: [0, 0, 0] as Rgb };
  const shading =
    core && rim ? { n: had.n + 1, core: add(had.core, core), rim: add(had.rim, rim) } : a.shading;
  return {
    n: a.n + 1,
    face: add(a.face, face),
    nb: a.nb + (background ? 1 : 0),
    background: background ? add(a.background, background) : a.background,
    ...(patches.length ? { patches } : {}),
    ...(shading ? { shading } : {}),
    ...(logFace ? { logFace } : {}),
  };
}

/** Each channel's log less the three's mean (null when too dark to tell, as `chroma`). */
const logChroma = (rgb: Rgb | null): Rgb | null => {
  if (!rgb || rgb[0] + rgb[1] + rgb[2] < 15) return null;
  const l = rgb.map((v) => Math.log(Math.max(1, v)));
  const m = (l[0]! + l[1]! + l[2]!) / 3;
  return [l[0]! - m, l[1]! - m, l[2]! - m];
};

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
 *   Or (issue 41: a face filling the oval, hair or a hat in the corners, a burnt window leave no
 *   part to compare with) its shape: the face's rim (outer cheeks) changes with the screen's
 *   colours at most `thresholds.shape` of its core's (nose, inner cheeks): the screen beside the
 *   camera lights the parts of a real face that turn away from it less, while a face on a screen
 *   or a print changes alike everywhere (about 1), and the core's change less the rim's follows the
 *   colours (SHAPE_FIT: not two slopes of noise). A background part adds evidence where one is
 *   usable; it is never required.
 * - and the face's own change (the slope of its deviations on the screen colours') is at least
 *   `thresholds.change`: outdoors a screen's reflection is near the noise floor, and `beyond`, a
 *   ratio of two small slopes, is then noise (a face on a screen reached 1.06 once).
 * Frames from an older state without parts: the whole background is the one part.
 */
export function judgeLight(
  light: JudgedRound,
  thresholds: LightThresholds = LIGHT_THRESHOLDS,
): LightScore {
  const unseen = {
    round: light.round,
    seen: false,
    correlation: null,
    change: null,
    beyond: null,
    parts: 0,
    shape: null,
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
  const expected = sequenceDeviations(seen.map((x) => x.colour));
  const face = deviations(seen.map(({ a }) => mean(a.face, a.n)));
  const correlation = pearson(expected, face);
  const faceSlope = slope(face, expected);
  const squares = (xs: number[]) => xs.reduce((n, x) => n + x * x, 0);
  const response = Math.sqrt(squares(face) / squares(expected));
  const count = Math.max(0, ...seen.map(({ a }) => a.patches?.length ?? 0));
  // On log-chromaticity where every colour has it (issue 41: a region's colour is a constant there,
  // so a print's face and its own background of another colour change alike; on chromaticity they
  // did not, and 2 of 20 prints passed on their background); chromaticity for an older state.
  const onLog = count > 0 && seen.every(({ a }) => a.logFace?.n);
  const usable = (p: number) =>
    seen.every(
      ({ a }) =>
        a.patches?.[p]?.n &&
        (a.patches[p]!.clipped ?? 0) <= PART_MAX_CLIPPED &&
        (!onLog || a.patches[p]!.log?.n),
    );
  const faceRows = onLog
    ? deviations(seen.map(({ a }) => mean(a.logFace!.sum, a.logFace!.n)))
    : face;
  const parts: number[][] = count
    ? Array.from({ length: count }, (_, p) => p).flatMap((p) =>
        usable(p)
          ? [
              deviations(
                seen.map(({ a }) => {
                  const part = a.patches![p]!;
                  return onLog ? mean(part.log!.sum, part.log!.n) : mean(part.sum, part.n);
                }),
              ),
            ]
          : [],
      )
    : seen.every(({ a }) => a.nb)
      ? [deviations(seen.map(({ a }) => mean(a.background, a.nb)))]
      : [];
  const faceRowsSlope = slope(faceRows, expected);
  let beyond: number | null = null;
  for (const part of parts) {
    const diff = faceRows.map((v, i) => v - part[i]!);
    if (faceSlope <= 0 || faceRowsSlope <= 0 || pearson(expected, diff) < BEYOND_FIT) continue;
    const b = slope(diff, expected) / faceRowsSlope;
    if (beyond === null || b > beyond) beyond = b;
  }
  const shaped = faceSlope >= SHAPE_MIN_CHANGE ? shapeOf(seen, expected) : null;
  const shape = shaped?.shape ?? null;
  return {
    round: light.round,
    seen: true,
    correlation: round3(correlation),
    change: Math.round(faceSlope * 1e4) / 1e4,
    response: Math.round(response * 1e4) / 1e4,
    beyond: beyond === null ? null : round3(beyond),
    parts: parts.length,
    shape: shape === null ? null : round3(shape),
    shapeFit: shaped ? round3(shaped.fit) : null,
    passed:
      correlation >= thresholds.correlation &&
      faceSlope >= thresholds.change &&
      !(shape !== null && shape >= SHAPE_FLAT) &&
      ((beyond !== null && beyond >= thresholds.beyond) ||
        (shaped !== null &&
          shaped.shape <= thresholds.shape &&
          shaped.fit >= SHAPE_FIT &&
          (faceSlope >= SHAPE_SURE_CHANGE ||
            (shaped.fit >= SHAPE_FIT_NEAR_FLOOR &&
              (correlation >= thresholds.alone || shaped.shape <= SHAPE_NEAR_FLOOR))))),
  };
}

/**
 * The rim's change over the core's (issue 41): the slopes of their log-chromaticity deviations on
 * the screen colours'; null unless both were seen in every colour judged and the core follows the
 * colours (correlation BEYOND_FIT or more; the caller asks only when the face changed by
 * SHAPE_MIN_CHANGE at least: a ratio over a slope that is noise says nothing); with the fit of the
 * core's deviations less the rim's to the colours' (SHAPE_FIT).
 */
function shapeOf(
  seen: Array<{ a: ColourAcc }>,
  expected: number[],
): { shape: number; fit: number } | null {
  if (!seen.every(({ a }) => a.shading?.n)) return null;
  const rows = (pick: (x: { n: number; core: Rgb; rim: Rgb }) => Rgb) =>
    deviations(seen.map(({ a }) => pick(a.shading!).map((v) => v / a.shading!.n) as Rgb));
  const core = rows((x) => x.core);
  const coreSlope = slope(core, expected);
  if (coreSlope <= 0 || pearson(expected, core) < BEYOND_FIT) return null;
  const rim = rows((x) => x.rim);
  return {
    shape: slope(rim, expected) / coreSlope,
    fit: pearson(
      expected,
      core.map((v, i) => v - rim[i]!),
    ),
  };
}
