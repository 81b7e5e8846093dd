/**
 * What the unchanged-eyes skip sees (server/identity/worker/eyes.ts `eyeChange`, compared with
 * IDENTITY_UNCHANGED_BELOW): the eye change between an analysed frame and later frames of the same
 * patient, for each camera of bench/_patient.ts ('bench' and 'real'), for the selfie (160 px, as the
 * browser sends it) and the kiosk (480x480): open eyes 1 to 16 frames later (the skip compares
 * with the last ANALYSED frame, so sway and tremor add up), a lid half way and closed eyes. The skip is safe while the closed and half-way frames stay above the threshold, and
 * it saves work while open frames stay below it. Figures, not a test.
 *   npx tsx bench/eye-change.ts [patients=6]
 */
import os from 'node:os';
import sharp from 'sharp';
import { selfieFramePolicy as policy } from '../contract/frame-policy';
import { loadIdentityConfig } from '../server/identity/config';
import { decodeRgb } from '../server/identity/image';
import { detectWithEyes, newTask } from '../server/identity/worker/detect';
import { eyeAnchor, eyeChange, grey } from '../server/identity/worker/eyes';
import { loadHuman } from '../server/identity/worker/models';
import { cameraFrame, ovalFrame, IMAGE_LIMITS } from '../tests/identity/frames';
import { kioskFrame, percentile, runIfMain } from './_identity';
import { makePatient, realCameraFrame, realCapture, type Camera } from './_patient';

const limits = IMAGE_LIMITS;
/** Camera frames (30 fps) between two selfie captures (125 ms) and two kiosk frames. */
const STEP = { selfie: 4, kiosk: 9 } as const;
type Use = keyof typeof STEP;
/** Open frames this many frames after the analysed one (up to 2 s of the selfie's, 4.8 s of the kiosk's). */
const LAGS = [1, 2, 4, 8, 16];

/** Frame `i` of patient `seed` filmed by `camera` for `use`, eyes `closed` (0 open ... 1 closed). */
async function frameOf(camera: Camera, use: Use, seed: number, i: number, closed: number) {
  const p = makePatient(seed, 0, true, camera);
  const frame = i * STEP[use];
  if (use === 'selfie') {
    if (camera === 'real') return realCapture(p, frame, policy, closed);
    // bench/_patient.ts's 'bench' capture, with the eyes given.
    return ovalFrame({
      seed: seed * 100_000 + frame,
      closed,
      width: policy.maxWidth,
      quality: Math.round(policy.quality * 100),
      offset: [
        p.offset[0] + 2 * Math.sin((frame * 100) / 3 / 1500 + seed),
        p.offset[1] + 1.5 * Math.sin((frame * 100) / 3 / 2100 + seed),
      ],
      brightness: p.brightness,
    });
  }
  if (camera === 'real')
    return kioskFrame(
      await realCameraFrame(p, frame, closed, 640, { left: 0, top: 0, width: 640, height: 480 }),
    );
  const name = closed >= 0.5 ? 'blink-closed.jpg' : 'blink-open.jpg';
  return kioskFrame(await cameraFrame(name, { seed: seed * 1000 + i }));
}

export async function main() {
  const patients = Number(process.argv[2] ?? 6);
  const threshold = loadIdentityConfig(process.env).liveness.unchangedBelow;
  const human = await loadHuman();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `eye-change: ${patients} patients per camera; threshold ${threshold}; load ${load()}`,
  );
  for (const use of ['selfie', 'kiosk'] as const)
    for (const camera of ['bench', 'real'] as const) {
      const open: number[][] = LAGS.map(() => []);
      const half: number[] = [];
      const shut: number[] = [];
      for (let s = 1; s <= patients; s++) {
        const seed = 500 + s;
        const img = await decodeRgb(await frameOf(camera, use, seed, 0, 0), limits, 640);
        const [found] = await detectWithEyes(human, img, false, newTask());
        if (!found?.eyes) continue;
        const anchor = eyeAnchor(grey(img), found.eyes, found.face.ear.mean);
        if (!anchor) continue;
        const change = async (i: number, closed: number) =>
          eyeChange(
            anchor,
            grey(await decodeRgb(await frameOf(camera, use, seed, i, closed), limits, 640)),
          );
        for (const [k, lag] of LAGS.entries()) open[k]!.push(await change(lag, 0));
        half.push(await change(3, 0.5));
        shut.push(await change(5, 1));
      }
      const f = (xs: number[]) =>
        `p50 ${percentile(xs, 50).toFixed(1)} max ${Math.max(...xs).toFixed(1)}`;
      const fMin = (xs: number[]) =>
        `min ${Math.min(...xs).toFixed(1)} p50 ${percentile(xs, 50).toFixed(1)}`;
      const skipped = open.flat().filter((c) => c < threshold).length / open.flat().length;
      console.log(
        `${use} camera '${camera}' (${(await sharp(await frameOf(camera, use, 501, 0, 0)).metadata()).width} px): open, frames later: ${open.map((xs, i) => `+${LAGS[i]} ${f(xs)}`).join('; ')}; under the threshold ${(100 * skipped).toFixed(0)}%; half way ${fMin(half)}; closed ${fMin(shut)}`,
      );
    }
  console.log(`load ${load()}`);
}

runIfMain(import.meta.url, main);
