import { MAX_FACE_RATIO } from '../gates';
import { meanLuma, type RgbImage } from '../image';
import type { FaceObservation } from '../types';
import { eyeAspectRatio, eyeBox, LEFT_EYE, RIGHT_EYE, type EyeBox } from './eyes';
import { DETECTOR_MIN_CONFIDENCE, type Human, type Point3 } from './models';

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
 * last face's description. Iris stays on (without it a closed eye reads almost as open:
 * docs/measurements.md). Keeping the input costs a difference over it per call, and Human's copy
 * of the last input stays in the worker's memory until the next call replaces it.
 */
const KEEP_INPUT = 1000;
/**
 * The face mesh's own score from which a TRACKED detection (the box of the same face in the frame
 * before, the detector's confidence carried with it) keeps a face. A fresh or describing detection
 * keeps DETECTOR_MIN_CONFIDENCE, which Human applies to the detector's boxes and the mesh's score
 * alike (lower, the detector adds boxes of 0.38 beside a face, each one more mesh to run).
 * Issue 41: closed lids lower the mesh's score on some faces filling the oval (the held-out `blink-b`
 * at the bench's fill, 160 px crops: 0.10-0.45 closed, 0.98-0.99 open), and the detector finds no box
 * in such a closed frame even at 0.02, so the tracked box is the only way to it (analyze.ts). At 0.5
 * every closed frame read 'no face' and its blinks on cue were missed (real-engine bench:
 * cues_missed in 5 of 6 sessions at fill). An empty or blurred box scores under 0.05 and still gives
 * no face; a bar over the eyes scores 0.47, its eyes read open (ratio 0.82).
 */
export const MESH_MIN_FACE_SCORE = 0.08;
function detectConfig(describe: boolean, fresh: boolean) {
  return {
    cacheSensitivity: KEEP_INPUT,
    face: {
      detector: {
        ...(fresh ? { skipFrames: 0, skipTime: 0 } : { skipFrames: 99, skipTime: 600_000 }),
        minConfidence: fresh || describe ? DETECTOR_MIN_CONFIDENCE : MESH_MIN_FACE_SCORE,
      },
      mesh: { enabled: true },
      iris: { enabled: true },
      description: { enabled: describe, skipFrames: 0, skipTime: 0 },
    },
  };
}

/** The detections of one task: whether the next may reuse the previous one's box, and counts. */
type TaskTracking = {
  /**
   * The grey margin every detection of the task looks with (a share of the frame's size on each
   * side: FACE_MARGIN), 0 for none. One for the whole task once set: Human reuses a box only
   * between inputs of one size.
   */
  margin: number;
  lastFoundOne: boolean;
  fresh: number;
  tracked: number;
  redone: number;
  /** Detections that computed the description (each of them fresh). */
  described: number;
};
export const newTask = (margin = 0): TaskTracking => ({
  margin,
  lastFoundOne: false,
  fresh: 0,
  tracked: 0,
  redone: 0,
  described: 0,
});

type Detected = { face: FaceObservation; eyes: [EyeBox, EyeBox] | null };

/**
 * The face's own extent: the bounding box of its mesh landmarks, in pixels, not clipped (the mesh
 * model places landmarks past the image's edge when the face is cut there). Rounded to 0.1 px.
 */
export function meshExtent(
  mesh: ReadonlyArray<readonly number[]>,
): [number, number, number, number] | undefined {
  if (!mesh.length) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of mesh) {
    const x = p[0]!;
    const y = p[1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (![x0, y0, x1, y1].every(Number.isFinite)) return undefined;
  const r = (v: number) => Math.round(v * 10) / 10;
  return [r(x0), r(y0), r(x1 - x0), r(y1 - y0)];
}

/**
 * Faces of one image within a task: tracked (the previous detection's box, see above) when the
 * task's previous detection found exactly one face, else fresh; a tracked detection that does not
 * find exactly one face is done again, fresh. A detection that describes is always fresh: its
 * description is the very one a single fresh pass gives (a tracked box is centred on the mesh, the
 * detector's is not: on some faces that moves the description by up to 0.03 in cosine), so the
 * thresholds and the enrolled faces keep their meaning.
 */
export async function detectWithEyes(
  human: Human,
  img: RgbImage,
  describe: boolean,
  task: TaskTracking,
): Promise<Detected[]> {
  const tracked = task.lastFoundOne && !describe;
  let found = await runDetection(human, img, describe, !tracked, task.margin);
  if (tracked && found.length !== 1) {
    task.redone++;
    found = await runDetection(human, img, describe, true, task.margin);
  } else if (tracked) task.tracked++;
  else task.fresh++;
  if (describe) task.described++;
  task.lastFoundOne = found.length === 1;
  return found;
}

/** `img` with a neutral grey margin of `share` of its size on every side, and the margin's sizes. */
function withMargin(img: RgbImage, share: number): { view: RgbImage; px: number; py: number } {
  const px = Math.round(img.width * share);
  const py = Math.round(img.height * share);
  const width = img.width + 2 * px;
  const height = img.height + 2 * py;
  const data = Buffer.alloc(width * height * 3, 128);
  for (let y = 0; y < img.height; y++) {
    img.data.copy(data, ((y + py) * width + px) * 3, y * img.width * 3, (y + 1) * img.width * 3);
  }
  return { view: { data, width, height }, px, py };
}

/**
 * The faces of `img`, looked for on it with a grey margin of `margin` of its size on every side
 * (none when 0) and answered in `img`'s own coordinates: the mesh and its extent moved back (the
 * extent may reach past the frame: a face cut by an edge), the box clipped to the frame, the
 * luminance of the frame's pixels under it.
 */
async function runDetection(
  human: Human,
  img: RgbImage,
  describe: boolean,
  fresh: boolean,
  margin = 0,
): Promise<Detected[]> {
  const { view, px, py } = margin > 0 ? withMargin(img, margin) : { view: img, px: 0, py: 0 };
  const t = human.tf.tensor3d(
    new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.length),
    [view.height, view.width, 3],
    'int32',
  );
  const batch = human.tf.expandDims(t, 0);
  try {
    const result = await human.detect(batch, detectConfig(describe, fresh));
    if (result.error) throw new Error(result.error);
    // The detector's own confidence, whatever floor the mesh's score had (MESH_MIN_FACE_SCORE).
    const faces = result.face.filter((f) => (f.boxScore ?? f.score) >= DETECTOR_MIN_CONFIDENCE);
    return faces.map((f) => {
      const mesh = px || py ? f.mesh.map(([x, y, z]): Point3 => [x - px, y - py, z]) : f.mesh;
      const right = eyeAspectRatio(mesh, RIGHT_EYE);
      const left = eyeAspectRatio(mesh, LEFT_EYE);
      const [bx, by, bw, bh] = f.box.map((v) => Math.round(v)) as [number, number, number, number];
      const x0 = Math.max(0, bx - px);
      const y0 = Math.max(0, by - py);
      const box: [number, number, number, number] =
        px || py
          ? [
              x0,
              y0,
              Math.min(img.width, bx - px + bw) - x0,
              Math.min(img.height, by - py + bh) - y0,
            ]
          : [bx, by, bw, bh];
      const extent = meshExtent(mesh);
      const r = eyeBox(mesh, RIGHT_EYE);
      const l = eyeBox(mesh, LEFT_EYE);
      return {
        face: {
          box,
          score: Number(f.score.toFixed(3)),
          ear: { left, right, mean: (left + right) / 2 },
          luminance: meanLuma(img, box),
          ...(extent ? { extent } : {}),
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

/**
 * The grey margin a face that fills the frame is looked for with (issue 41), a share of the frame's
 * size on every side. The selfie's frames are the oval's crop, and a patient who fills the oval (what
 * it asks for) fills them: there the detector finds the face on some frames and not on others, or
 * finds a smaller wrong face, and the mesh follows its box. Measured on the real models
 * (2026-11-30, the liveness bench's synthetic patients at fill, 160x180 frames, 13 frames each): the
 * held-out `blink-g` (tone V) had a detector score of 0.32-0.65 on the frame (no face on 6-9 of 13
 * at 0.5) and 0.80-0.86 on every frame with the margin; `blink-b`'s mesh on the frame was 141 px wide
 * on some frames and 111 px (a box on part of the face) on others, with the margin 139-141 px on
 * every frame, eyes open or closed (a closed eye's ratio 0.16-0.21 against 0.35-0.39 open); the
 * faces the frame alone found well (scores 0.9 and more) measured the same with it (extents within
 * 3 px). Faces smaller than the frame score higher with it too, but their box is 3-6 px narrower than
 * without (the far framing's faces: the size limit, `too_far`, is on the box), so a task looks with
 * the margin only where the face is large (LARGE_FACE) or not found without it.
 * It also finds the faces wider than the frame (the detector misses most of them:
 * bench/face-framing.ts, at k = 1.0 of the frame's width 6 of 23 fixture faces, at 1.1 11 of 23): the
 * gates say too close (gates.ts MAX_FACE_RATIO) instead of 'No vemos tu cara'.
 */
export const FACE_MARGIN = 0.3;
/** A face at least this share of the frame's width makes the session's next request look with FACE_MARGIN. */
export const LARGE_FACE = 0.5;
/** The margin a task starts with: FACE_MARGIN when the session's last face (its extent) was large. */
export const marginFor = (
  extent: readonly number[] | null | undefined,
  frameWidth: number,
): number => (extent && extent[2]! >= LARGE_FACE * frameWidth ? FACE_MARGIN : 0);

/**
 * A frame of a task without a margin that showed no face, looked at again with FACE_MARGIN; the
 * task keeps the margin when a face is found there (the next frames tracked on its box).
 */
export async function detectWithMargin(
  human: Human,
  img: RgbImage,
  describe: boolean,
  task: TaskTracking,
): Promise<Detected[]> {
  if (task.margin) return [];
  task.margin = FACE_MARGIN;
  task.lastFoundOne = false;
  const found = await detectWithEyes(human, img, describe, task);
  if (!found.length) task.margin = 0;
  return found;
}

/**
 * A single image without a face (analyzeImage: a photo, a document's portrait) looked at again with
 * FACE_MARGIN, answered only as a face too close: wider than the gates allow (MAX_FACE_RATIO), in
 * the frame's own coordinates. One fresh detection more, on images without a face only.
 */
export async function detectTooClose(
  human: Human,
  img: RgbImage,
  task: TaskTracking,
): Promise<FaceObservation | null> {
  const found = await runDetection(human, img, false, true, FACE_MARGIN);
  task.fresh++;
  task.lastFoundOne = false;
  if (found.length !== 1 || !found[0]!.face.extent) return null;
  const { face } = found[0]!;
  if (face.extent![2] / img.width <= MAX_FACE_RATIO) return null;
  return { ...face, embedding: undefined };
}
