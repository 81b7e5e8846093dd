/**
 * Whether the unchanged-eyes skip (server/identity/worker/eyes.ts `unchangedLimit`) sees every
 * closing lid of the challenge's synthetic patients (bench/_synthetic.ts: both faces, tones II-VI,
 * dim, window and outdoor light, sensor noise, sway, the phone's and the browser's JPEG): per
 * patient, an analysed open frame, then 9 frames 125 ms apart (the selfie's capture rate), one with
 * the lid half way and one closed. Prints each one's eye change over the anchor's eye contrast, and
 * how many closed frames the fixed limit (IDENTITY_UNCHANGED_BELOW) and the contrast-relative limit
 * would skip (a lost blink), and how many open ones each analyses (the cost). Figures, not a test.
 *   npx tsx bench/eye-contrast.ts [patients=40]
 */
import os from 'node:os';
import { loadIdentityConfig } from '../server/identity/config';
import { decodeRgb } from '../server/identity/image';
import { detectWithEyes, newTask } from '../server/identity/worker/detect';
import {
  CLOSING_SHARE,
  eyeAnchor,
  eyeChange,
  eyeContrast,
  grey,
  unchangedLimit,
} from '../server/identity/worker/eyes';
import { loadHuman } from '../server/identity/worker/models';
import { makeSyntheticPatient } from '../tests/synthetic/model';
import { runIfMain } from './_identity';
import { syntheticCamera } from './_synthetic';
import { IMAGE_LIMITS } from '../tests/identity/frames';

const limits = IMAGE_LIMITS;
const CAPTURE_MS = 125;
/** Of the frames after the anchor: the lid half way in the 3rd, closed in the 6th. */
const HALF = 3;
const CLOSED = 6;
const FRAMES = 10;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export async function main() {
  const patients = Number(process.argv[2] ?? 40);
  const fixed = loadIdentityConfig(process.env).liveness.unchangedBelow;
  const human = await loadHuman();
  console.log(
    `eye-contrast: ${patients} synthetic patients; fixed limit ${fixed}, share ${CLOSING_SHARE}; load ${load()}`,
  );
  const groups = new Map<string, { closed: number[]; half: number[]; open: number[] }>();
  const lost = { fixed: 0, relative: 0 };
  const analysedOpen = { fixed: 0, relative: 0, of: 0 };
  for (let seed = 1; seed <= patients; seed++) {
    const p = makeSyntheticPatient(seed);
    const camera = syntheticCamera(p);
    const at = (k: number) => 2000 + k * CAPTURE_MS - p.cameraLatencyMs;
    // A lid moving (35 ms either side of a closed phase, tests/synthetic/model.ts) at frame HALF,
    // closed at frame CLOSED, open everywhere else.
    const scene = {
      screenAt: () => null,
      blinks: [
        [at(HALF) + 20, at(HALF) + 80],
        [at(CLOSED) - 100, at(CLOSED) + 100],
      ] as Array<[number, number]>,
    };
    const frames = [];
    for (let k = 0; k <= FRAMES; k++)
      frames.push(await camera.capture(2000 + k * CAPTURE_MS, scene));
    const first = await decodeRgb(frames[0]!, limits, 640);
    const [found] = await detectWithEyes(human, first, false, newTask());
    const anchor = found?.eyes && eyeAnchor(grey(first), found.eyes, found.face.ear.mean);
    if (!anchor) {
      console.log(`patient ${seed}: no eyes found in the first frame`);
      continue;
    }
    const contrast = eyeContrast(anchor);
    const limit = unchangedLimit(anchor, fixed);
    const key = `${p.face} ${p.lighting.name}`;
    const g = groups.get(key) ?? { closed: [], half: [], open: [] };
    groups.set(key, g);
    for (let k = 1; k <= FRAMES; k++) {
      const change = eyeChange(anchor, grey(await decodeRgb(frames[k]!, limits, 640)));
      const share = change / contrast;
      if (k === CLOSED) {
        g.closed.push(share);
        if (change < fixed) lost.fixed += 1;
        if (change < limit) lost.relative += 1;
      } else if (k === HALF) g.half.push(share);
      else {
        g.open.push(share);
        analysedOpen.of += 1;
        if (change >= fixed) analysedOpen.fixed += 1;
        if (change >= limit) analysedOpen.relative += 1;
      }
    }
  }
  const range = (xs: number[]) =>
    xs.length ? `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}` : '-';
  for (const [key, g] of [...groups].sort())
    console.log(
      `${key} (${g.closed.length}): change over contrast, closed ${range(g.closed)}, half way ${range(g.half)}, open ${range(g.open)}`,
    );
  const pct = (n: number) => `${((100 * n) / Math.max(1, analysedOpen.of)).toFixed(0)}%`;
  console.log(
    `closed frames skipped (lost blinks): fixed ${lost.fixed}, contrast-relative ${lost.relative}; open frames analysed: fixed ${pct(analysedOpen.fixed)}, contrast-relative ${pct(analysedOpen.relative)} of ${analysedOpen.of}`,
  );
  console.log(`load ${load()}`);
}

runIfMain(import.meta.url, main);
