import { BACKGROUND_CORNERS } from '../../../contract/frame-policy';
import type { RgbImage } from '../image';
import type { BackgroundPart, FrameColour } from '../types';

type Box = [number, number, number, number];

/**
 * The face's part whose colour follows the screen's light (issue 31): the centre of the detected
 * box, cheeks, nose and forehead, away from the hair at the box's top and sides and from the
 * background at its corners (fractions of the box: x from, x to, y from, y to).
 */
const FACE_PART = [0.25, 0.75, 0.2, 0.8] as const;
/**
 * The face's core and rim (issue 41), fractions of its extent (the mesh's bounding box, cheek to
 * cheek and forehead to chin): the core is the nose and the inner cheeks, which face the screen;
 * the rim the outer cheeks on both sides at the nose's height, which turn away from it, so a real
 * face takes less of the screen's light there than in its core, and a flat face (a screen, a print)
 * the same.
 */
export const CORE_PART = [0.36, 0.64, 0.42, 0.72] as const;
const RIM_X = [0.05, 0.17] as const;
const RIM_Y = [0.45, 0.72] as const;
/** The background: the frame's top corners (fractions of the frame), minus the face box and a margin. */
const CORNER_W = BACKGROUND_CORNERS.width;
const CORNER_H = BACKGROUND_CORNERS.height;
const BOX_MARGIN = 0.1;
/** The left and right edges beside the face (fractions of the frame): a wall where hair is not. */
const EDGE_W = 0.14;
const EDGE_Y = [0.3, 0.7] as const;
/** Fewer pixels than this in a region: no colour for it (null). */
const MIN_PIXELS = 24;
/** At most about this many pixels are read per region (a sampling step on larger frames). */
const SAMPLES = 1600;

type Rect = { x0: number; x1: number; y0: number; y1: number };

const clampRect = (img: RgbImage, r: Rect): Rect => ({
  x0: Math.max(0, Math.floor(r.x0)),
  x1: Math.min(img.width, Math.ceil(r.x1)),
  y0: Math.max(0, Math.floor(r.y0)),
  y1: Math.min(img.height, Math.ceil(r.y1)),
});

/**
 * Background pixels outside the mid-tones are left out of `background` when enough mid-tone ones
 * remain (luma from DARK_BELOW, every channel below CLIPPED_FROM).
 */
const DARK_BELOW = 50;
const CLIPPED_FROM = 240;
/**
 * A background part's clipped pixels (a channel at SATURATED_FROM or more: a burnt window) cannot
 * show the light's change, and those that clip under one colour and not another fake one; the
 * fraction is judged per round (liveness-challenge.ts: a part is used whole or not at all).
 */
const SATURATED_FROM = BACKGROUND_CORNERS.saturatedFrom;

const luma = (r: number, g: number, b: number) => (r * 77 + g * 150 + b * 29) >> 8;

/** What `scan` gathers over some rectangles: pixels read, sums, the mid-tones' and the clipped count. */
type Scan = {
  n: number;
  sum: [number, number, number];
  mid: { n: number; sum: [number, number, number] };
  /** The pixels with every channel under CLIPPED_FROM (dark ones too). */
  unclipped: { n: number; sum: [number, number, number] };
  clipped: number;
};

/** Reads the pixels of `rects` outside `hole` (about SAMPLES of them: a step on larger rectangles). */
function scan(img: RgbImage, rects: Rect[], hole: Rect | null): Scan & { step: number } {
  const area = rects.reduce((a, r) => a + Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0), 0);
  const step = Math.max(1, Math.floor(Math.sqrt(area / SAMPLES)));
  const out: Scan = {
    n: 0,
    sum: [0, 0, 0],
    mid: { n: 0, sum: [0, 0, 0] },
    unclipped: { n: 0, sum: [0, 0, 0] },
    clipped: 0,
  };
  const d = img.data;
  for (const rect of rects) {
    for (let y = rect.y0; y < rect.y1; y += step) {
      const inRows = hole !== null && y >= hole.y0 && y < hole.y1;
      for (let x = rect.x0; x < rect.x1; x += step) {
        if (inRows && x >= hole.x0 && x < hole.x1) continue;
        const i = (y * img.width + x) * 3;
        const r = d[i]!;
        const g = d[i + 1]!;
        const b = d[i + 2]!;
        out.n++;
        out.sum[0] += r;
        out.sum[1] += g;
        out.sum[2] += b;
        if (r >= SATURATED_FROM || g >= SATURATED_FROM || b >= SATURATED_FROM) out.clipped++;
        if (r < CLIPPED_FROM && g < CLIPPED_FROM && b < CLIPPED_FROM) {
          out.unclipped.n++;
          out.unclipped.sum[0] += r;
          out.unclipped.sum[1] += g;
          out.unclipped.sum[2] += b;
          if (luma(r, g, b) >= DARK_BELOW) {
            out.mid.n++;
            out.mid.sum[0] += r;
            out.mid.sum[1] += g;
            out.mid.sum[2] += b;
          }
        }
      }
    }
  }
  return { ...out, step };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const meanOf = (sum: [number, number, number], n: number): [number, number, number] => [
  round2(sum[0] / n),
  round2(sum[1] / n),
  round2(sum[2] / n),
];

/**
 * Mean R, G, B of the pixels of `rects` outside `hole`, or null when too few are left; with `only`,
 * of its pixels ('mid': the mid-tones, 'unclipped': every channel under CLIPPED_FROM) when at
 * least MIN_PIXELS are.
 */
function meanRgb(
  img: RgbImage,
  rects: Rect[],
  hole: Rect | null,
  only?: 'mid' | 'unclipped',
): [number, number, number] | null {
  const s = scan(img, rects, hole);
  const min = MIN_PIXELS / (s.step * s.step);
  const some = only && s[only];
  if (some && some.n >= min) return meanOf(some.sum, some.n);
  return s.n < min ? null : meanOf(s.sum, s.n);
}

/** A background part: the mean of all its pixels and the fraction clipped, or null when too few. */
function part(img: RgbImage, rect: Rect, hole: Rect): BackgroundPart | null {
  const s = scan(img, [rect], hole);
  if (s.n < MIN_PIXELS / (s.step * s.step)) return null;
  return {
    rgb: meanOf(s.sum, s.n),
    clipped: round2(s.clipped / s.n),
  };
}

/**
 * The colour statistic of one liveness frame (issue 31): the mean RGB of the face's centre inside
 * `box` (the face detected in this frame, or the last one found before it) and of the background
 * (the frame's top corners outside the box, their dark pixels left out when enough others remain).
 * Both null without a box. With the face's `extent` (its mesh), its core and rim too (issue 41). A few thousand pixel reads at
 * most: far under a millisecond.
 */
export function frameColour(
  img: RgbImage,
  box: Box | null | undefined,
  extent?: Box | null | undefined,
): FrameColour {
  if (!box) return { face: null, background: null };
  const [x, y, w, h] = box;
  const face = clampRect(img, {
    x0: x + w * FACE_PART[0],
    x1: x + w * FACE_PART[1],
    y0: y + h * FACE_PART[2],
    y1: y + h * FACE_PART[3],
  });
  const hole = clampRect(img, {
    x0: x - w * BOX_MARGIN,
    x1: x + w * (1 + BOX_MARGIN),
    y0: y - h * BOX_MARGIN,
    y1: y + h * (1 + BOX_MARGIN),
  });
  const cw = img.width * CORNER_W;
  const ch = img.height * CORNER_H;
  const corners = [
    clampRect(img, { x0: 0, x1: cw, y0: 0, y1: ch }),
    clampRect(img, { x0: img.width - cw, x1: img.width, y0: 0, y1: ch }),
  ];
  const ew = img.width * EDGE_W;
  const edges = [
    clampRect(img, { x0: 0, x1: ew, y0: img.height * EDGE_Y[0], y1: img.height * EDGE_Y[1] }),
    clampRect(img, {
      x0: img.width - ew,
      x1: img.width,
      y0: img.height * EDGE_Y[0],
      y1: img.height * EDGE_Y[1],
    }),
  ];
  return {
    face: meanRgb(img, [face], null),
    background: meanRgb(img, corners, hole, 'mid'),
    patches: [...corners, ...edges].map((r) => part(img, r, hole)),
    ...(extent ? shape(img, extent) : {}),
  };
}

/** The face's core and rim in its extent (CORE_PART, RIM_X, RIM_Y). */
function shape(img: RgbImage, [x, y, w, h]: Box): Pick<FrameColour, 'core' | 'rim'> {
  const at = (x0: number, x1: number, y0: number, y1: number) =>
    clampRect(img, { x0: x + w * x0, x1: x + w * x1, y0: y + h * y0, y1: y + h * y1 });
  const rims = [
    at(RIM_X[0], RIM_X[1], RIM_Y[0], RIM_Y[1]),
    at(1 - RIM_X[1], 1 - RIM_X[0], RIM_Y[0], RIM_Y[1]),
  ];
  // Their unclipped pixels: a clipped pixel's colour does not follow the light (issue 41: the held-out
  // blink-f filling the oval in a dim room, tone II, had up to 37-52% of its core's pixels at 250 or
  // more in a channel under the brighter colours, its rim none; the core's change, cut short there,
  // read as large as the rim's: shape 0.87-1.09, a flat face; bench/face-shape-still.ts).
  return {
    core: meanRgb(img, [at(...CORE_PART)], null, 'unclipped'),
    // A rim cut by the frame's edge has no pixels there: both sides or none.
    rim: rims.every((r) => r.x1 > r.x0 && r.y1 > r.y0)
      ? meanRgb(img, rims, null, 'unclipped')
      : null,
  };
}
