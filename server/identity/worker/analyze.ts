import { decodeRgb, fingerprint, meanLuma, type ImageLimits, type RgbImage } from '../image';
import type { EmbeddingPlan } from '../liveness';
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
      return {
        box,
        score: Number(f.score.toFixed(3)),
        ear: { left, right, mean: (left + right) / 2 },
        luminance: meanLuma(img, box),
        embedding: describe && f.embedding?.length ? Array.from(f.embedding) : undefined,
      };
    });
  } finally {
    t.dispose();
    batch.dispose();
  }
}
