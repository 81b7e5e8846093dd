import type { RgbImage } from '../image';
import type { FrameColour } from '../types';

type Box = [number, number, number, number];

/**
 * The face's part whose colour follows the screen's light (issue 31): the centre of the detected
 * box, cheeks, nose and forehead, away from the hair at the box's top and sides and from the
 * background at its corners (fractions of the box: x from, x to, y from, y to).
 */
const FACE_PART = [0.25, 0.75, 0.2, 0.8] as const;
/** The background: the frame's top corners (fractions of the frame), minus the face box and a margin. */
const CORNER_W = 0.22;
const CORNER_H = 0.3;
const BOX_MARGIN = 0.1;
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

/** Mean R, G, B of the pixels of `rects` outside `hole`, or null when too few are left. */
function meanRgb(img: RgbImage, rects: Rect[], hole: Rect | null): [number, number, number] | null {
  const area = rects.reduce((a, r) => a + Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0), 0);
  const step = Math.max(1, Math.floor(Math.sqrt(area / SAMPLES)));
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  const d = img.data;
  for (const rect of rects) {
    for (let y = rect.y0; y < rect.y1; y += step) {
      const inRows = hole !== null && y >= hole.y0 && y < hole.y1;
      for (let x = rect.x0; x < rect.x1; x += step) {
        if (inRows && x >= hole.x0 && x < hole.x1) continue;
        const i = (y * img.width + x) * 3;
        r += d[i]!;
        g += d[i + 1]!;
        b += d[i + 2]!;
        n++;
      }
    }
  }
  if (n < MIN_PIXELS / (step * step)) return null;
  const round = (v: number) => Math.round((v / n) * 100) / 100;
  return [round(r), round(g), round(b)];
}

/**
 * The colour statistic of one liveness frame (issue 31): the mean RGB of the face's centre inside
 * `box` (the face detected in this frame, or the last one found before it) and of the background
 * (the frame's top corners outside the box). Both null without a box. A few thousand pixel reads at
 * most: far under a millisecond.
 */
export function frameColour(img: RgbImage, box: Box | null | undefined): FrameColour {
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
  return { face: meanRgb(img, [face], null), background: meanRgb(img, corners, hole) };
}
