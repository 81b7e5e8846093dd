import { decodeRgb, fingerprint, meanLuma, type ImageLimits, type RgbImage } from '../image';
import type { BlinkPlan, EmbeddingPlan } from '../liveness';
import type { FaceObservation, FrameAnalysis } from '../types';
import type { Human, Point3 } from './models';

/** Mesh indices of the eye contours (MediaPipe order p1..p6: outer corner, two upper, inner corner, two lower). */
const RIGHT_EYE = [33, 160, 158, 133, 153, 144] as const;
const LEFT_EYE = [263, 387, 385, 362, 380, 373] as const;

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Eye aspect ratio: mean lid opening over eye width; about 0.25-0.4 open, well under it closed. */
export function eyeAspectRatio(mesh: Point3[], idx: readonly number[]): number {
  const p = idx.map((i) => mesh[i]);
  if (p.some((q) => !q)) return Number.NaN;
  const [p1, p2, p3, p4, p5, p6] = p as [Point3, Point3, Point3, Point3, Point3, Point3];
  const width = dist(p1, p4);
  return width > 0 ? (dist(p2, p6) + dist(p3, p5)) / (2 * width) : Number.NaN;
}

export type AnalyzeOptions = {
  /**
   * 'all': describe every face; 'none': skip the 1024-d description (fast path for liveness frames);
   * a condition: describe a single face only when its eye ratio is below earBelow or above earAbove
   * (the frames a blink decider may count), paying for the description only on those frames.
   */
  embedding: 'all' | 'none' | Omit<EmbeddingPlan, 'always'>;
  maxSide?: number;
  fingerprint?: boolean;
};

export async function analyzeImage(
  human: Human,
  bytes: Uint8Array,
  limits: ImageLimits,
  opts: AnalyzeOptions,
): Promise<FrameAnalysis> {
  const t0 = performance.now();
  const img = await decodeRgb(bytes, limits, opts.maxSide ?? 1280);
  const tDecode = performance.now();
  const fp = opts.fingerprint ? await fingerprint(img) : undefined;
  let faces = await detectFaces(human, img, opts.embedding === 'all');
  const cond = opts.embedding;
  if (typeof cond === 'object' && faces.length === 1) {
    const f = faces[0]!;
    const ear = f.ear.mean;
    const centre = [f.box[0] + f.box[2] / 2, f.box[1] + f.box[3] / 2] as const;
    const movedFar =
      cond.moved &&
      Math.hypot(centre[0] - cond.moved.from[0], centre[1] - cond.moved.from[1]) >
        cond.moved.beyond;
    if (
      movedFar ||
      (cond.earBelow !== undefined && ear < cond.earBelow) ||
      (cond.earAbove !== undefined && ear > cond.earAbove)
    ) {
      faces = await detectFaces(human, img, true);
    }
  }
  const tDetect = performance.now();
  return {
    width: img.width,
    height: img.height,
    luminance: meanLuma(img),
    faces,
    fingerprint: fp
      ? { thumb: fp.thumb.toString('base64'), dhash: fp.dhash.toString() }
      : undefined,
    timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
  };
}

export async function detectFaces(
  human: Human,
  img: RgbImage,
  describe: boolean,
): Promise<FaceObservation[]> {
  return (await detectWithEyes(human, img, describe)).map((f) => f.face);
}

/** An eye's region (x, y, width, height) in image pixels: the lid contour with a margin. */
export type EyeBox = [number, number, number, number];
type Detected = { face: FaceObservation; eyes: [EyeBox, EyeBox] | null };

function eyeBox(mesh: Point3[], idx: readonly number[]): EyeBox | null {
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

async function detectWithEyes(human: Human, img: RgbImage, describe: boolean): Promise<Detected[]> {
  const t = human.tf.tensor3d(
    new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length),
    [img.height, img.width, 3],
    'int32',
  );
  const batch = human.tf.expandDims(t, 0);
  try {
    const result = await human.detect(batch, { face: { description: { enabled: describe } } });
    if (result.error) throw new Error(result.error);
    return result.face.map((f) => {
      const right = eyeAspectRatio(f.mesh, RIGHT_EYE);
      const left = eyeAspectRatio(f.mesh, LEFT_EYE);
      const box = f.box.map((v) => Math.round(v)) as [number, number, number, number];
      const r = eyeBox(f.mesh, RIGHT_EYE);
      const l = eyeBox(f.mesh, LEFT_EYE);
      return {
        face: {
          box,
          score: Number(f.score.toFixed(3)),
          ear: { left, right, mean: (left + right) / 2 },
          luminance: meanLuma(img, box),
          embedding: describe && f.embedding?.length ? Array.from(f.embedding) : undefined,
        },
        eyes: r && l ? [r, l] : null,
      };
    });
  } finally {
    t.dispose();
    batch.dispose();
  }
}

export type FramesOptions = {
  maxSide?: number;
  /** Describe the first analysed frame (the session has no reference face yet, or it is mid-blink). */
  describeFirst: boolean;
  /**
   * Blink tracking through the batch, so that the reopening after a closing frame carries the
   * description in the same pass.
   */
  blink?: BlinkPlan | undefined;
  /** Describe a face whose centre moved more than `beyond` pixels from the previous one (a possible swap). */
  moved?: { from: [number, number]; beyond: number } | undefined;
  /**
   * Skip a frame whose eye regions differ from the last analysed frame's by less than this (mean
   * absolute grey difference after removing the brightness offset, best of small shifts): it adds
   * nothing to a blink decision, and the detector is what costs. 0 analyses every frame.
   */
  unchangedBelow: number;
  /** Analyse every frame (skip none). */
  analyseAll?: boolean | undefined;
};

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
function grey(img: RgbImage): GreyImage {
  const data = new Uint8Array(img.width * img.height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3)
    data[i] = (img.data[j]! * 77 + img.data[j + 1]! * 150 + img.data[j + 2]! * 29) >> 8;
  return { data, width: img.width, height: img.height };
}

/**
 * How much the eyes changed between an analysed frame and a new one: for each eye, the smallest mean
 * absolute difference over shifts of up to 2 px (hand-held jitter), brightness offset removed; the
 * larger of the two eyes. A lid closing changes it by far more than sensor noise.
 */
export function eyeChange(anchor: GreyImage, eyes: [EyeBox, EyeBox], img: GreyImage): number {
  let worst = 0;
  for (const box of eyes) {
    const a = greyAt(anchor, box, 0, 0);
    if (!a) return Number.POSITIVE_INFINITY;
    let best = Number.POSITIVE_INFINITY;
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const b = greyAt(img, box, dx, dy);
        if (!b) continue;
        let sum = 0;
        for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
        best = Math.min(best, sum / a.length);
      }
    worst = Math.max(worst, best);
  }
  return worst;
}

/**
 * The frames of one liveness request, in order, in one pass: each is decoded and fingerprinted (for
 * the duplicate checks); a frame whose eyes did not change since the last analysed frame is skipped
 * (`skipped` says which frame it repeats); the others get detection + mesh + iris, and the 1024-d
 * description only where the blink decision needs it (first frame of a session, reopenings, a face
 * that moved).
 */
export async function analyzeFrames(
  human: Human,
  frames: Uint8Array[],
  limits: ImageLimits,
  opts: FramesOptions,
): Promise<FrameAnalysis[]> {
  const out: FrameAnalysis[] = [];
  let anchor: { index: number; grey: GreyImage; eyes: [EyeBox, EyeBox] } | null = null;
  let closed = opts.blink?.closed ?? false;
  let baseline = opts.blink?.baseline ?? null;
  let first = true;
  let from = opts.moved?.from;
  for (const [index, bytes] of frames.entries()) {
    const t0 = performance.now();
    const img = await decodeRgb(bytes, limits, opts.maxSide ?? 640);
    const fp = await fingerprint(img);
    const g = grey(img);
    const luminance = meanLuma(img);
    const tDecode = performance.now();
    const base = {
      width: img.width,
      height: img.height,
      luminance,
      fingerprint: { thumb: fp.thumb.toString('base64'), dhash: fp.dhash.toString() },
    };
    if (anchor && opts.unchangedBelow > 0 && !opts.analyseAll) {
      const change = eyeChange(anchor.grey, anchor.eyes, g);
      if (change < opts.unchangedBelow) {
        out.push({
          ...base,
          faces: [],
          skipped: { of: anchor.index, change: Number(change.toFixed(2)) },
          timings: { decodeMs: tDecode - t0, detectMs: 0 },
        });
        continue;
      }
    }
    const describe = (first && opts.describeFirst) || closed;
    first = false;
    let found = await detectWithEyes(human, img, describe);
    if (!describe && found.length === 1 && from && opts.moved) {
      const [x, y, w, h] = found[0]!.face.box;
      if (Math.hypot(x + w / 2 - from[0], y + h / 2 - from[1]) > opts.moved.beyond)
        found = await detectWithEyes(human, img, true);
    }
    const tDetect = performance.now();
    const only = found.length === 1 ? found[0]! : null;
    if (only) {
      const [x, y, w, h] = only.face.box;
      from = [x + w / 2, y + h / 2];
      const ear = only.face.ear.mean;
      if (opts.blink && Number.isFinite(ear)) {
        baseline ??= ear;
        if (ear < baseline * opts.blink.closedRatio) closed = true;
        else if (ear >= baseline * opts.blink.reopenRatio) closed = false;
      }
    }
    anchor = only?.eyes ? { index, grey: g, eyes: only.eyes } : null;
    out.push({
      ...base,
      faces: found.map((f) => f.face),
      timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
    });
  }
  return out;
}
