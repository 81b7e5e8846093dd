import { MAX_FACE_RATIO } from '../gates';
import { meanLuma, type RgbImage } from '../image';
import type { FaceObservation } from '../types';
import { eyeAspectRatio, eyeBox, LEFT_EYE, RIGHT_EYE, type EyeBox } from './eyes';
import { DETECTOR_MIN_CONFIDENCE, type Human } from './models';

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
  lastFoundOne: boolean;
  fresh: number;
  tracked: number;
  redone: number;
  /** Detections that computed the description (each of them fresh). */
  described: number;
};
export const newTask = (): TaskTracking => ({
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
  let found = await runDetection(human, img, describe, !tracked);
  if (tracked && found.length !== 1) {
    task.redone++;
    found = await runDetection(human, img, describe, true);
  } else if (tracked) task.tracked++;
  else task.fresh++;
  if (describe) task.described++;
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
    // The detector's own confidence, whatever floor the mesh's score had (MESH_MIN_FACE_SCORE).
    const faces = result.face.filter((f) => (f.boxScore ?? f.score) >= DETECTOR_MIN_CONFIDENCE);
    return faces.map((f) => {
      const right = eyeAspectRatio(f.mesh, RIGHT_EYE);
      const left = eyeAspectRatio(f.mesh, LEFT_EYE);
      const box = f.box.map((v) => Math.round(v)) as [number, number, number, number];
      const extent = meshExtent(f.mesh);
      const r = eyeBox(f.mesh, RIGHT_EYE);
      const l = eyeBox(f.mesh, LEFT_EYE);
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
 * A face too close to be found (issue 41 item 2, 'the right distance'): the detector misses most
 * faces wider than the frame (bench/face-framing.ts: at k = 1.0 of the frame's width 6 of 23 fixture
 * faces, at 1.1 11 of 23), so a patient who fills the oval past its edge heard 'No vemos tu cara'
 * instead of 'Alejá un poco el celular'. When a frame shows no face, it is looked at once more with
 * a neutral grey margin of CLOSE_PAD of its size on every side, where such a face is whole again;
 * a face found there wider than the gates allow (gates.ts MAX_FACE_RATIO) is answered in the
 * frame's own coordinates, so the gates say too close. A face found there that would fit the frame
 * is not answered, even cut by an edge: closed lids on a face that fits can hide it from the
 * detector (analyze.ts), and the margin's mesh of such a frame is off (held-out blink-b at the
 * bench's fill, closed: 0.89 of the width and 12 px past the bottom, where the open frame's face
 * is 0.66 and whole); no blink or colour is ever read from a margin. One fresh detection more, on
 * frames without a face only.
 */
export const CLOSE_PAD = 0.3;

export async function detectTooClose(
  human: Human,
  img: RgbImage,
  task: TaskTracking,
): Promise<FaceObservation | null> {
  const px = Math.round(img.width * CLOSE_PAD);
  const py = Math.round(img.height * CLOSE_PAD);
  const width = img.width + 2 * px;
  const height = img.height + 2 * py;
  const data = Buffer.alloc(width * height * 3, 128);
  for (let y = 0; y < img.height; y++) {
    img.data.copy(data, ((y + py) * width + px) * 3, y * img.width * 3, (y + 1) * img.width * 3);
  }
  const found = await runDetection(human, { data, width, height }, false, true);
  task.fresh++;
  task.lastFoundOne = false;
  if (found.length !== 1 || !found[0]!.face.extent) return null;
  const { face } = found[0]!;
  const [ex, ey, ew, eh] = face.extent!;
  if (ew / img.width <= MAX_FACE_RATIO) return null;
  const extent: [number, number, number, number] = [ex - px, ey - py, ew, eh];
  const [bx, by, bw, bh] = face.box;
  const x0 = Math.max(0, bx - px);
  const y0 = Math.max(0, by - py);
  const box: [number, number, number, number] = [
    x0,
    y0,
    Math.min(img.width, bx - px + bw) - x0,
    Math.min(img.height, by - py + bh) - y0,
  ];
  return { ...face, box, extent, luminance: meanLuma(img, box), embedding: undefined };
}
