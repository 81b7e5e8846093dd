/**
 * The Node renderer of the synthetic patient (bench/_synthetic.ts): a colour the screen shows is seen
 * on the face, following the sequence, clearly more than on the background (the screen is close to
 * the face and far from the wall), and outdoor sunlight drowns most of it. These are the properties
 * the challenge bench's genuine patients and its flat-screen attack rely on.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chromaticity, syntheticCamera, type Scene } from '../../bench/_synthetic';
import {
  LIGHTINGS,
  makeSyntheticPatient,
  screenRgb,
  SKIN_TONES,
  type Lighting,
  type Rgb,
} from './model';

const SEQUENCE = ['#0000ff', '#ffff00', '#00ffff', '#ff00ff'];
const HOLD_MS = 700;
const START_MS = 1000;

const lighting = (name: Lighting['name']) => LIGHTINGS.find((l) => l.name === name)!;

function pearson(a: number[], b: number[]) {
  const ma = a.reduce((s, x) => s + x, 0) / a.length;
  const mb = b.reduce((s, x) => s + x, 0) / b.length;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Deviations from the sequence's mean, colours x channels, flattened. */
function deviations(xs: Rgb[]): number[] {
  const mean = [0, 1, 2].map((c) => xs.reduce((s, x) => s + x[c]!, 0) / xs.length);
  return xs.flatMap((x) => x.map((v, c) => v - mean[c]!));
}
const spread = (d: number[]) => Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length);
const chroma = (x: Rgb): Rgb => {
  const s = x[0] + x[1] + x[2];
  return [x[0] / s, x[1] / s, x[2] / s];
};

/**
 * A patient in front of the sequence (each colour HOLD_MS from START_MS, the page's background
 * before): the face's and the background's mean chromaticity in the frame sent 500 ms into each
 * colour, and how they follow the screen's colours.
 */
async function seen(name: Lighting['name'], reflection: 'face' | 'flat' = 'face') {
  const p = makeSyntheticPatient(7, {
    face: 'blink',
    tone: SKIN_TONES[2],
    lighting: lighting(name),
    screenBrightness: 0.8,
  });
  const camera = syntheticCamera(p, { reflection });
  const scene: Scene = {
    screenAt: (t) => {
      const i = Math.floor((t - START_MS) / HOLD_MS);
      return t < START_MS || i >= SEQUENCE.length ? null : SEQUENCE[i]!;
    },
    blinks: [],
  };
  const face: Rgb[] = [];
  const background: Rgb[] = [];
  for (let t = 0; t <= START_MS + SEQUENCE.length * HOLD_MS; t += 125) {
    const jpeg = await camera.capture(t, scene);
    const sceneT = t - p.cameraLatencyMs;
    const into = (sceneT - START_MS) % HOLD_MS;
    if (sceneT < START_MS || into < 400 || into >= 525) continue;
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const c = chromaticity({ data, ...info }, p.face, p.offset);
    face.push(c.face);
    background.push(c.background);
  }
  const expected = deviations(SEQUENCE.map((s) => chroma(screenRgb(s))));
  return {
    colours: face.length,
    face: { r: pearson(deviations(face), expected), change: spread(deviations(face)) },
    background: {
      r: pearson(deviations(background), expected),
      change: spread(deviations(background)),
    },
  };
}

describe('the synthetic patient rendered in Node', () => {
  it("the face's colour follows the screen's, much more than the background's", async () => {
    const window = await seen('window');
    expect(window.colours).toBe(SEQUENCE.length);
    expect(window.face.r).toBeGreaterThan(0.8);
    expect(window.face.change).toBeGreaterThan(3 * window.background.change);
  });

  it('outdoor sunlight weakens the reflection on the face', async () => {
    const [window, outdoor] = await Promise.all([seen('window'), seen('outdoor-bright')]);
    expect(outdoor.face.change).toBeLessThan(window.face.change / 3);
  });

  it('a face on a screen held to the camera changes as its background does', async () => {
    const flat = await seen('window', 'flat');
    expect(flat.face.change).toBeLessThan(2 * flat.background.change);
    expect(flat.face.change).toBeGreaterThan(0.5 * flat.background.change);
  });
});
