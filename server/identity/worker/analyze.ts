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

/*
 * Box tracking between the frames of one task, through Human's own cache (Human 3.3.6,
 * src/face/facemesh.ts and src/image/image.ts; the same logic in dist/human.node-wasm.js):
 * - `human.detect` first sets `config.skipAllowed = image.skip(config, input)`: false when
 *   `cacheSensitivity` is 0 (and then the input is not kept), else it keeps a copy of the input and is
 *   false when there was no previous input or its size differs, otherwise true when the mean squared
 *   difference from the previous input (at most 255) is <= cacheSensitivity.
 * - facemesh.predict reuses `cache.boxes` instead of running the detector only when skipAllowed, the
 *   boxes are younger than `detector.skipTime` ms, fewer than `detector.skipFrames` calls reused them
 *   since the detector last ran, and there are boxes at all. The boxes are module state, rewritten
 *   by EVERY predict call: the mesh-derived boxes (the previous box re-centred on the mesh, same
 *   size) of the faces that call found.
 * - faceres (the description) has its own cache: it returns its last description (of whatever face it
 *   last described) when skipAllowed and fewer than `description.skipFrames` calls reused it.
 * - `human.detect` merges the call's settings into its config for good, so every call here passes
 *   all of these settings.
 * A fresh call (detector skipFrames 0 and skipTime 0: each alone makes predict run the detector)
 * never reuses a box; a tracked call (skipFrames 99, skipTime 10 min) reuses the boxes of the call
 * just before it. Both keep the input (cacheSensitivity above any difference: with 0 a fresh call
 * would not keep it, and the next call, compared with an older input of another size, would run the
 * detector again). The first detection of every task (analyzeFrames, analyzeImage) is fresh, and a
 * task tracks only after a detection of ITS OWN that found exactly one face, so the box a tracked
 * call reuses always comes from the same task, usually the previous analysed frame of the request.
 * A worker runs one task at a time (the pool sends the next only after the answer, and replaces a
 * worker that timed out), so no other task's call can come in between. A call that describes is
 * fresh, and the description is never reused: with the input kept, skipAllowed is true on fresh calls
 * too, so `description.skipFrames` 0 (and skipTime 0) is what keeps faceres from answering with the
 * last face's description. Iris stays on (without it a closed eye reads 77-100% of open). Keeping
 * the input costs a difference over it per call (a few ms at 640 px), and Human's copy of the last
 * input stays in the worker's memory until the next call replaces it.
 */
const KEEP_INPUT = 1000;
function detectConfig(describe: boolean, fresh: boolean) {
  return {
    cacheSensitivity: KEEP_INPUT,
    face: {
      detector: fresh ? { skipFrames: 0, skipTime: 0 } : { skipFrames: 99, skipTime: 600_000 },
      mesh: { enabled: true },
      iris: { enabled: true },
      description: { enabled: describe, skipFrames: 0, skipTime: 0 },
    },
  };
}

/** The detections of one task: whether the next may reuse the previous one's box, and counts. */
export type TaskTracking = {
  lastFoundOne: boolean;
  fresh: number;
  tracked: number;
  redone: number;
};
const newTask = (): TaskTracking => ({ lastFoundOne: false, fresh: 0, tracked: 0, redone: 0 });

export async function analyzeImage(
  human: Human,
  bytes: Uint8Array,
  limits: ImageLimits,
  opts: AnalyzeOptions,
): Promise<FrameAnalysis> {
  const t0 = performance.now();
  const task = newTask();
  const img = await decodeRgb(bytes, limits, opts.maxSide ?? 1280);
  const tDecode = performance.now();
  const fp = opts.fingerprint ? await fingerprint(img) : undefined;
  let found = await detectWithEyes(human, img, opts.embedding === 'all', task);
  const cond = opts.embedding;
  if (typeof cond === 'object' && found.length === 1) {
    const f = found[0]!.face;
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
      found = await detectWithEyes(human, img, true, task);
    }
  }
  const tDetect = performance.now();
  return {
    width: img.width,
    height: img.height,
    luminance: meanLuma(img),
    faces: found.map((f) => f.face),
    fingerprint: fp
      ? { thumb: fp.thumb.toString('base64'), dhash: fp.dhash.toString() }
      : undefined,
    timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
  };
}

/** Every face of an image, by a fresh detection. */
export async function detectFaces(
  human: Human,
  img: RgbImage,
  describe: boolean,
): Promise<FaceObservation[]> {
  return (await detectWithEyes(human, img, describe, newTask())).map((f) => f.face);
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

/**
 * Faces of one image within a task: tracked (the previous detection's box, see above) when the
 * task's previous detection found exactly one face, else fresh; a tracked detection that does not
 * find exactly one face is done again, fresh. A detection that describes is always fresh: its
 * description is the very one a single fresh pass gives (a tracked box is centred on the mesh, the
 * detector's is not: on some faces that moves the description by up to 0.03 in cosine), so the
 * thresholds and the enrolled faces keep their meaning.
 */
async function detectWithEyes(
  human: Human,
  img: RgbImage,
  describe: boolean,
  task: TaskTracking,
): Promise<Detected[]> {
  const tracked = task.lastFoundOne && !describe;
  let found = await runDetection(human, img, describe, !tracked);
  if (tracked && found.length !== 1) {
    task.redone++;
    found = await runDetection(human, img, describe, true);
  } else if (tracked) task.tracked++;
  else task.fresh++;
  task.lastFoundOne = found.length === 1;
  return found;
}

async function runDetection(
  human: Human,
  img: RgbImage,
  describe: boolean,
  fresh: boolean,
): Promise<Detected[]> {
  const t = human.tf.tensor3d(
    new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length),
    [img.height, img.width, 3],
    'int32',
  );
  const batch = human.tf.expandDims(t, 0);
  try {
    const result = await human.detect(batch, detectConfig(describe, fresh));
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
  /**
   * Describe the first analysed frame that shows exactly one face (the session has no reference face
   * yet). Decided before the detection: one pass.
   */
  describeFirst: boolean;
  /**
   * Blink tracking through the batch: a frame that reopens after a closing one (in this request, or
   * in an earlier one when `closed`) is described: in its one detection when its eyes changed from
   * the closed frame before it as much as an opening lid does, else in a second pass once its eye
   * ratio says so; a frame that is still closed is not.
   */
  blink?: BlinkPlan | undefined;
  /** Describe a face whose centre moved more than `beyond` pixels from the previous one (a possible swap). */
  moved?: { from: [number, number]; beyond: number } | undefined;
  /**
   * Skip a frame whose eye regions differ from the last analysed frame's by less than this (mean
   * absolute grey difference after removing the brightness offset, best of small shifts): it adds
   * nothing to a blink decision, and the detector is what costs. 0 analyses every frame. With a
   * blink plan, only while the last analysed frame's eyes were clearly on one side of the threshold
   * the decider waits for (STEADY_MARGIN).
   */
  unchangedBelow: number;
  /** Analyse every frame (skip none). */
  analyseAll?: boolean | undefined;
  /**
   * The session's last analysed frame before this request: the `anchor` the previous request
   * returned (see FramesResult). With it the first frame of the request may be skipped as unchanged
   * like any other (`skipped.of` is then -1). Ignored when it does not decode or the frame size
   * changed.
   */
  anchor?: Uint8Array | null | undefined;
};

export type FramesResult = {
  frames: FrameAnalysis[];
  /**
   * What the session keeps for its next request: the eye regions of the last analysed frame (the one
   * the next frames are compared with), or the anchor it was given when every frame was skipped; null
   * when the last analysed frame had not exactly one face with both eyes (the next request's first
   * frame is then analysed).
   */
  anchor: Uint8Array | null;
  /** How the task's detections went (for the log): fresh, tracked, and tracked ones done again fresh. */
  detections: { fresh: number; tracked: number; redone: number };
};

/** Reopening and closing may be seen this far (in eye ratio over the baseline) before the decider sees them. */
const BLINK_MARGIN = 0.05;
/**
 * Eye change (eyeChange) from a closed frame from which eyes are taken as open again, before the
 * detection (measured on the blink fixtures: closed to open 37-40, closed to closed 11-13, closed to
 * a lid half way 21-22). Such a frame, while waiting for the reopening, is described in its one
 * detection; below this the eye ratio decides, and a second pass describes it.
 */
const REOPENED_CHANGE = 28;

/**
 * How far from the threshold the decider waits for (in eye ratio over the baseline) an analysed
 * frame's eyes must be for frames unchanged from it to be skipped: the same eyes measure up to about
 * 0.05 of the baseline either way from frame to frame, so an unchanged frame of eyes at 0.84 of the
 * baseline (not yet open again for the decider) may well measure 0.86 (open), and eyes at 0.72 may
 * measure 0.68 (closed). Skipping those would hold the decider where it is for as long as the eyes
 * stay as they are (a lost blink).
 */
const STEADY_MARGIN = 0.1;
/** Whether frames unchanged from an analysed frame with eye ratio `ear` can bring the decider nothing. */
function steady(ear: number, closed: boolean, baseline: number | null, blink?: BlinkPlan): boolean {
  if (!blink || baseline === null) return true;
  if (!Number.isFinite(ear)) return false;
  const ratio = ear / baseline;
  return closed
    ? ratio < blink.reopenRatio - STEADY_MARGIN
    : ratio >= blink.closedRatio + STEADY_MARGIN;
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
function grey(img: RgbImage): GreyImage {
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

/*
 * The anchor as bytes, for the session row (a few hundred bytes for the selfie's 160 px frames, a
 * few KB for the kiosk's 480 px ones): version 1, frame width and height (unsigned 16-bit), the
 * frame's mean eye ratio (32-bit float), then per eye x, y, width, height (unsigned 16-bit), all
 * little-endian, then each eye's grey pixels, row by row. Only the regions themselves: the +-2 px
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
 * How much the eyes changed between an analysed frame (its anchor) and a new one: for each eye, the
 * smallest mean absolute difference over shifts of the new frame's window of up to 2 px (hand-held
 * jitter), brightness offset removed; the larger of the two eyes. A lid closing changes it by far
 * more than sensor noise.
 */
export function eyeChange(anchor: EyeAnchor, img: GreyImage): number {
  let worst = 0;
  for (const e of anchor.eyes) {
    const box: EyeBox = [e.x, e.y, e.w, e.h];
    const a = greyAt({ data: e.data, width: e.w, height: e.h }, [0, 0, e.w, e.h], 0, 0)!;
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
 * the duplicate checks); a frame whose eyes did not change since the last analysed frame (of this
 * request, or the previous request's through `anchor`) is skipped (`skipped` says which frame it
 * repeats); the others get detection + mesh + iris, the box tracked from the previous detection of
 * this task (see above), and the 1024-d description only where the blink decision needs it: the first
 * frame of a session with one face, a reopening after a closing frame, a face that moved.
 */
export async function analyzeFrames(
  human: Human,
  frames: Uint8Array[],
  limits: ImageLimits,
  opts: FramesOptions,
): Promise<FramesResult> {
  const out: FrameAnalysis[] = [];
  const task = newTask();
  const given = decodeAnchor(opts.anchor);
  const blink = opts.blink;
  /** The last analysed frame's eye regions, and whether its eyes were closed. */
  let anchor: { index: number; eyes: EyeAnchor; closed: boolean } | null = given
    ? { index: -1, eyes: given, closed: blink?.closed ?? false }
    : null;
  let closed = blink?.closed ?? false;
  let baseline = blink?.baseline ?? null;
  let describeFirst = opts.describeFirst;
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
    const change =
      anchor && anchor.eyes.width === img.width && anchor.eyes.height === img.height
        ? eyeChange(anchor.eyes, g)
        : null;
    if (
      anchor &&
      change !== null &&
      change < opts.unchangedBelow &&
      !opts.analyseAll &&
      steady(anchor.eyes.ear, closed, baseline, blink)
    ) {
      out.push({
        ...base,
        faces: [],
        skipped: { of: anchor.index, change: Number(change.toFixed(2)) },
        timings: { decodeMs: tDecode - t0, detectMs: 0 },
      });
      continue;
    }
    // Waiting for the reopening, eyes that changed from a closed frame as much as an opening lid
    // does: the reopening, described in its one detection.
    const reopened = closed && anchor?.closed === true && (change ?? 0) >= REOPENED_CHANGE;
    const describe = describeFirst || reopened;
    let found = await detectWithEyes(human, img, describe, task);
    let only = found.length === 1 ? found[0]! : null;
    if (only && !describe) {
      // Described only once the eye ratio and the position say the decider will need it: a second
      // (fresh) pass, rather than a description of every frame that might need one.
      const { box, ear } = only.face;
      const reopening =
        closed &&
        baseline !== null &&
        Number.isFinite(ear.mean) &&
        ear.mean >= baseline * (blink!.reopenRatio - BLINK_MARGIN);
      const movedFar =
        from !== undefined &&
        opts.moved !== undefined &&
        Math.hypot(box[0] + box[2] / 2 - from[0], box[1] + box[3] / 2 - from[1]) >
          opts.moved.beyond;
      if (reopening || movedFar) {
        found = await detectWithEyes(human, img, true, task);
        only = found.length === 1 ? found[0]! : null;
      }
    }
    const tDetect = performance.now();
    if (only) {
      describeFirst = false;
      const [x, y, w, h] = only.face.box;
      from = [x + w / 2, y + h / 2];
      const ear = only.face.ear.mean;
      if (blink && Number.isFinite(ear)) {
        baseline ??= ear;
        if (ear < baseline * (blink.closedRatio + BLINK_MARGIN)) closed = true;
        else if (ear >= baseline * blink.reopenRatio) closed = false;
      }
    }
    const eyes = only?.eyes ? eyeAnchor(g, only.eyes, only.face.ear.mean) : null;
    anchor = eyes ? { index, eyes, closed } : null;
    out.push({
      ...base,
      faces: found.map((f) => f.face),
      timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
    });
  }
  const { fresh, tracked, redone } = task;
  return {
    frames: out,
    anchor: anchor ? encodeAnchor(anchor.eyes) : null,
    detections: { fresh, tracked, redone },
  };
}
