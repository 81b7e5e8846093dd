import type { RgbImage } from '../image';
import type { Point3 } from './models';

/* The eyes in a face's mesh: their aspect ratio, regions, grey patches, and the anchor kept between requests. */

/** Mesh indices of the eye contours (MediaPipe order p1..p6: outer corner, two upper, inner corner, two lower). */
export const RIGHT_EYE = [33, 160, 158, 133, 153, 144] as const;
export const LEFT_EYE = [263, 387, 385, 362, 380, 373] as const;

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Eye aspect ratio: mean lid opening over eye width; about 0.25-0.4 open, well under it closed. */
export function eyeAspectRatio(mesh: Point3[], idx: readonly number[]): number {
  const p = idx.map((i) => mesh[i]);
  if (p.some((q) => !q)) return Number.NaN;
  const [p1, p2, p3, p4, p5, p6] = p as [Point3, Point3, Point3, Point3, Point3, Point3];
  const width = dist(p1, p4);
  return width > 0 ? (dist(p2, p6) + dist(p3, p5)) / (2 * width) : Number.NaN;
}

/** An eye's region (x, y, width, height) in image pixels: the lid contour with a margin. */
export type EyeBox = [number, number, number, number];

export function eyeBox(mesh: Point3[], idx: readonly number[]): EyeBox | null {
  const p = idx.map((i) => mesh[i]);
  if (p.some((q) => !q)) return null;
  const xs = p.map((q) => q![0]);
  const ys = p.map((q) => q![1]);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const w = x1 - x0;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  // Wide enough for both lids and the brow's shadow: the region a closing lid changes.
  return [x0 - w * 0.25, cy - w * 0.5, w * 1.5, w];
}

/** Mean of a grey patch (box at offset dx, dy), or null when it leaves the image. */
function greyAt(img: GreyImage, box: EyeBox, dx: number, dy: number): Float32Array | null {
  const x0 = Math.round(box[0]) + dx;
  const y0 = Math.round(box[1]) + dy;
  const w = Math.max(2, Math.round(box[2]));
  const h = Math.max(2, Math.round(box[3]));
  if (x0 < 0 || y0 < 0 || x0 + w > img.width || y0 + h > img.height) return null;
  const out = new Float32Array(w * h);
  let mean = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = img.data[(y0 + y) * img.width + x0 + x]!;
      out[y * w + x] = v;
      mean += v;
    }
  mean /= out.length;
  for (let i = 0; i < out.length; i++) out[i]! -= mean;
  return out;
}

type GreyImage = { data: Uint8Array; width: number; height: number };
export function grey(img: RgbImage): GreyImage {
  const data = new Uint8Array(img.width * img.height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3)
    data[i] = (img.data[j]! * 77 + img.data[j + 1]! * 150 + img.data[j + 2]! * 29) >> 8;
  return { data, width: img.width, height: img.height };
}

/** One eye of an anchor: its region in whole pixels and the grey pixels under it. */
type EyePatch = { x: number; y: number; w: number; h: number; data: Uint8Array };
/** The eye regions of an analysed frame, what later frames are compared with, and its eye ratio. */
export type EyeAnchor = { width: number; height: number; ear: number; eyes: [EyePatch, EyePatch] };

/** The anchor of an analysed frame, or null when an eye region leaves the image. */
export function eyeAnchor(img: GreyImage, eyes: [EyeBox, EyeBox], ear: number): EyeAnchor | null {
  const patches: EyePatch[] = [];
  for (const box of eyes) {
    // The same rounding as greyAt: the patch is exactly what the comparison reads.
    const x = Math.round(box[0]);
    const y = Math.round(box[1]);
    const w = Math.max(2, Math.round(box[2]));
    const h = Math.max(2, Math.round(box[3]));
    if (x < 0 || y < 0 || x + w > img.width || y + h > img.height) return null;
    const data = new Uint8Array(w * h);
    for (let r = 0; r < h; r++)
      data.set(img.data.subarray((y + r) * img.width + x, (y + r) * img.width + x + w), r * w);
    patches.push({ x, y, w, h, data });
  }
  return { width: img.width, height: img.height, ear, eyes: patches as [EyePatch, EyePatch] };
}

/**
 * A closing lid changes an eye region by about as much as the region's own contrast (the lid covers
 * the iris, the white and the lashes with skin): on the challenge's synthetic patients
 * (bench/eye-contrast.ts, 40 patients, both faces, tones II-VI, dim, window and outdoor light) closed
 * eyes changed 0.80-1.15 times the open region's contrast and open eyes, 125 ms-1.25 s later, at most
 * 0.69 times. A fixed limit does not follow this: a low-contrast face (dark skin outdoors, a dim room,
 * a soft camera) closes its eyes by less than IDENTITY_UNCHANGED_BELOW (16), and its blinks were
 * skipped as unchanged (e2e: closed frames at 14-15, lost cues).
 */
export const CLOSING_SHARE = 0.7;

/** The anchor's eye contrast: the mean absolute deviation from its mean of each eye's region, the lower of the two. */
export function eyeContrast(a: EyeAnchor): number {
  return Math.min(
    ...a.eyes.map((e) => {
      let sum = 0;
      for (const v of e.data) sum += v;
      const mean = sum / e.data.length;
      let dev = 0;
      for (const v of e.data) dev += Math.abs(v - mean);
      return dev / e.data.length;
    }),
  );
}

/**
 * Within a cue's window (issue 31: where a blink counts) a lid half way is analysed too: on a busy
 * phone a capture may come 300 ms after the last (e2e under load: the lid half way at 5765 and 6070,
 * nothing between), and then the frames half way are all there is of the blink. Lids half way change
 * the eyes by 0.42-0.74 of their contrast (bench/eye-contrast.ts); open eyes 0.09-0.78, so more open
 * frames are analysed there (29% against 15% outside the windows).
 */
export const CUE_WINDOW_SHARE = 0.5;

/**
 * Frames changed less than this from the anchor are unchanged: `limit` (the setting), lower for
 * low-contrast eyes, and lower still within a cue's window (`careful`).
 */
export const unchangedLimit = (a: EyeAnchor, limit: number, careful = false): number =>
  Math.min(limit, (careful ? CUE_WINDOW_SHARE : CLOSING_SHARE) * eyeContrast(a));

/*
 * The anchor as bytes, for the session row (a few hundred bytes for the selfie's 160 px frames, a
 * few KB for the kiosk's 480 px ones): version 1, frame width and height (unsigned 16-bit), the
 * frame's mean eye ratio (32-bit float), then per eye x, y, width, height (unsigned 16-bit), all
 * little-endian, then each eye's grey pixels, row by row. Only the regions themselves: the
 * shift search moves the NEW frame's window, never the anchor's.
 */
const ANCHOR_VERSION = 1;
const ANCHOR_EYES = 1 + 4 + 4;
const ANCHOR_HEADER = ANCHOR_EYES + 2 * 8;

export function encodeAnchor(a: EyeAnchor): Uint8Array {
  const out = new Uint8Array(ANCHOR_HEADER + a.eyes[0].data.length + a.eyes[1].data.length);
  const view = new DataView(out.buffer);
  out[0] = ANCHOR_VERSION;
  view.setUint16(1, a.width, true);
  view.setUint16(3, a.height, true);
  view.setFloat32(5, a.ear, true);
  let at = ANCHOR_HEADER;
  for (const [i, e] of a.eyes.entries()) {
    [e.x, e.y, e.w, e.h].forEach((v, k) => view.setUint16(ANCHOR_EYES + i * 8 + k * 2, v, true));
    out.set(e.data, at);
    at += e.data.length;
  }
  return out;
}

/** The anchor from its bytes, or null for anything that is not a well-formed version-1 anchor. */
export function decodeAnchor(bytes: Uint8Array | null | undefined): EyeAnchor | null {
  if (!bytes || bytes.length < ANCHOR_HEADER || bytes[0] !== ANCHOR_VERSION) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint16(1, true);
  const height = view.getUint16(3, true);
  const ear = view.getFloat32(5, true);
  const eyes: EyePatch[] = [];
  let at = ANCHOR_HEADER;
  for (let i = 0; i < 2; i++) {
    const [x, y, w, h] = [0, 1, 2, 3].map((k) =>
      view.getUint16(ANCHOR_EYES + i * 8 + k * 2, true),
    ) as [number, number, number, number];
    if (w < 2 || h < 2 || x + w > width || y + h > height || at + w * h > bytes.length) return null;
    eyes.push({ x, y, w, h, data: bytes.slice(at, at + w * h) });
    at += w * h;
  }
  if (at !== bytes.length) return null;
  return { width, height, ear, eyes: eyes as [EyePatch, EyePatch] };
}

/**
 * How far (px of the frame, either way) the eye regions are looked for in a new frame: a hand-held
 * phone's sway and tremor move the head 1-2 px per frame, and the comparison is with the last
 * ANALYSED frame, often several frames back (bench/eye-change.ts: with +-2 px a fifth of unchanged
 * open frames of a hand-held camera measured as changed, up to 45).
 */
export const EYE_SEARCH_PX = 4;
/**
 * The part of an eye region a lid never crosses: outside an ellipse through the middle of the
 * region (normalised radius squared above this), i.e. the brow, the cheek and the corners beyond
 * the eye. The eye itself spans the middle two thirds of the region's width and its lids the middle
 * 30-40% of its height (eyeBox), so the lid's own movement does not pull the search.
 */
const LID_FREE_R2 = 0.6;
/** The pixels (row-major indices) of a w x h eye region that a lid never crosses. */
function lidFree(w: number, h: number): Uint32Array {
  const out: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const nx = (x + 0.5 - w / 2) / (w / 2);
      const ny = (y + 0.5 - h / 2) / (h / 2);
      if (nx * nx + ny * ny > LID_FREE_R2) out.push(y * w + x);
    }
  return Uint32Array.from(out);
}

/**
 * An anchor's eye region and where to look for it in a new frame: its mean-removed pixels, the
 * lid-free ones as offsets into the frame, and a summed-area table of the frame around the region
 * (the region's mean at any shift in O(1)): the comparison runs 90 times per eye, allocation-free.
 */
function regionSearch(e: EyePatch, img: GreyImage) {
  const { w, h } = e;
  const { data, width } = img;
  const a = greyAt({ data: e.data, width: w, height: h }, [0, 0, w, h], 0, 0)!;
  const ring = lidFree(w, h);
  const ringAt = new Int32Array(ring.length);
  for (let k = 0; k < ring.length; k++) {
    const y = (ring[k]! / w) | 0;
    ringAt[k] = y * width + ring[k]! - y * w;
  }
  // Summed-area table over the region grown by the search (clipped to the frame).
  const S = EYE_SEARCH_PX + 1;
  const gx = Math.max(0, e.x - S);
  const gy = Math.max(0, e.y - S);
  const gw = Math.min(img.width, e.x + w + S) - gx;
  const gh = Math.min(img.height, e.y + h + S) - gy;
  const sat = new Float64Array((gw + 1) * (gh + 1));
  for (let y = 0; y < gh; y++) {
    let row = 0;
    for (let x = 0; x < gw; x++) {
      row += data[(gy + y) * width + gx + x]!;
      sat[(y + 1) * (gw + 1) + x + 1] = sat[y * (gw + 1) + x + 1]! + row;
    }
  }
  /**
   * Mean absolute difference at a shift, each side's mean removed (brightness), over the whole
   * region or only its lid-free pixels; Infinity when the shifted region leaves the frame.
   */
  return (dx: number, dy: number, lidFreeOnly: boolean): number => {
    const x0 = e.x + dx;
    const y0 = e.y + dy;
    if (x0 < 0 || y0 < 0 || x0 + w > img.width || y0 + h > img.height) return Infinity;
    if (x0 < gx || y0 < gy || x0 + w > gx + gw || y0 + h > gy + gh) return Infinity;
    const [l, t] = [x0 - gx, y0 - gy];
    const mean =
      (sat[(t + h) * (gw + 1) + l + w]! -
        sat[t * (gw + 1) + l + w]! -
        sat[(t + h) * (gw + 1) + l]! +
        sat[t * (gw + 1) + l]!) /
      (w * h);
    const base = y0 * width + x0;
    let sum = 0;
    if (lidFreeOnly) {
      for (let k = 0; k < ring.length; k++)
        sum += Math.abs(a[ring[k]!]! - (data[base + ringAt[k]!]! - mean));
      return sum / Math.max(1, ring.length);
    }
    for (let y = 0; y < h; y++) {
      const row = base + y * width;
      for (let x = 0; x < w; x++) sum += Math.abs(a[y * w + x]! - (data[row + x]! - mean));
    }
    return sum / (w * h);
  };
}

/**
 * How much the eyes changed between an analysed frame (its anchor) and a new one, for each eye: where
 * its region went (the shift of up to EYE_SEARCH_PX that best matches the part of the region a lid
 * never crosses), then the smallest mean absolute difference of the whole region within a pixel of
 * that place, brightness offset removed; the larger of the two eyes. Finding the place from around
 * the lids follows the head however far it moved, and leaves a closing lid nowhere to hide: a wider
 * search over the whole region would let a shift of the lid's edge pass for a lid half way (a lid
 * moves 2-3 px of a 160 px frame). A lid closing changes it by far more than sensor noise.
 */
export function eyeChange(anchor: EyeAnchor, img: GreyImage): number {
  let worst = 0;
  for (const e of anchor.eyes) {
    const diff = regionSearch(e, img);
    let at: [number, number] | null = null;
    let nearest = Number.POSITIVE_INFINITY;
    for (let dy = -EYE_SEARCH_PX; dy <= EYE_SEARCH_PX; dy++)
      for (let dx = -EYE_SEARCH_PX; dx <= EYE_SEARCH_PX; dx++) {
        const d = diff(dx, dy, true);
        // Ties go to the smaller shift.
        if (d < nearest || (d === nearest && at && Math.hypot(dx, dy) < Math.hypot(...at))) {
          nearest = d;
          at = [dx, dy];
        }
      }
    let best = Number.POSITIVE_INFINITY;
    if (at)
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) best = Math.min(best, diff(at[0] + dx, at[1] + dy, false));
    worst = Math.max(worst, best);
  }
  return worst;
}
