/**
 * A face that fills the selfie's frame (issue 41: what the oval asks for), looked for with a grey
 * margin (worker/detect.ts FACE_MARGIN). On the real models and the liveness bench's synthetic
 * camera: the held-out `blink-g` (skin tone V, a dim room) filling the oval, which the detector
 * alone misses on about half the frames, is found on every frame of a request, eyes open or closed,
 * with one mesh (its extent steady), whether the session's last face was large already or not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticCamera } from '../../bench/_synthetic';
import { analyzeFrames } from '../../server/identity/worker/analyze';
import {
  detectWithEyes,
  FACE_MARGIN,
  LARGE_FACE,
  marginFor,
  newTask,
} from '../../server/identity/worker/detect';
import { decodeRgb } from '../../server/identity/image';
import { loadHuman, type Human } from '../../server/identity/worker/models';
import { LIGHTINGS, makeSyntheticPatient, SKIN_TONES } from '../synthetic/model';
import { IMAGE_LIMITS } from './frames';

const T = 120_000;
const limits = IMAGE_LIMITS;
let human: Human;
let frames: Buffer[];

beforeAll(async () => {
  human = await loadHuman();
  const p = makeSyntheticPatient(24, {
    face: 'blink-g',
    lighting: LIGHTINGS.find((l) => l.name === 'dim')!,
    tone: SKIN_TONES.find((t) => t.name === 'V')!,
    screenBrightness: 0.8,
  });
  const camera = syntheticCamera(p, { framing: 'fill' });
  // Open eyes, then closed from 1.5 s on (a lid closed as long as a slow blink's frames).
  const scene = { screenAt: () => null, blinks: [[1_400, 3_100]] as Array<[number, number]> };
  frames = [];
  for (let t = 0; t <= 3_000; t += 250) frames.push(await camera.capture(t, scene));
}, T);

describe('a face that fills the frame', () => {
  it(
    'is missed on some frames without the margin (what the margin is for)',
    { timeout: T },
    async () => {
      let missed = 0;
      for (const jpeg of frames) {
        const img = await decodeRgb(jpeg, limits, 640);
        if ((await detectWithEyes(human, img, false, newTask())).length !== 1) missed++;
      }
      expect(missed).toBeGreaterThanOrEqual(3);
    },
  );

  it.each([
    ['a session without a face yet', null],
    ['a session whose last face was large', [20, 20, 124, 138] as [number, number, number, number]],
  ])('is found on every frame of a request: %s', { timeout: T }, async (_, extent) => {
    const { frames: out, detections } = await analyzeFrames(human, frames, limits, {
      describeFirst: false,
      unchangedBelow: 0,
      colourExtent: extent,
    });
    const faces = out.map((f) => f.faces);
    // after a large face, the margin from the first frame: one fresh detection, every other tracked
    if (extent) expect(detections).toMatchObject({ fresh: 1, tracked: frames.length - 1 });
    expect(faces.every((f) => f.length === 1)).toBe(true);
    const widths = faces.map((f) => f[0]!.extent![2]);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(8);
    // open eyes, then closed: the mesh's eyes follow the lids on the same face
    const ear = faces.map((f) => f[0]!.ear.mean);
    expect(Math.min(...ear.slice(0, 5))).toBeGreaterThan(2 * Math.max(...ear.slice(7)));
  });

  it('starts a request with the margin only after a large face', () => {
    expect(marginFor(null, 160)).toBe(0);
    expect(marginFor([50, 80, LARGE_FACE * 160 - 1, 70], 160)).toBe(0);
    expect(marginFor([20, 20, LARGE_FACE * 160, 140], 160)).toBe(FACE_MARGIN);
  });
});
