/**
 * The blink pairs' closed eye ratio as the engine reads it in the selfie's frames (issue 41): each
 * face of tests/fixtures/faces rendered by the bench's camera (bench/_synthetic.ts: the framing's
 * zoom, tone, lighting, sway, sensor noise, the phone's and the browser's JPEG), an open frame and a
 * closed one per patient, both analysed by the worker's own detection; prints the closed frame's
 * eye ratio over the open one's, min / median / max per face and framing. The decider takes a lid
 * as closed under 0.70 of the open baseline: a pair whose closed frames read near it is a fixture
 * that does not blink (blink-f before it was made again). Figures, not a test.
 *   npx tsx bench/blink-pair-ratio.ts [patients per face and framing=6] [FACE,...]
 */
import os from 'node:os';
import { decodeRgb } from '../server/identity/image';
import { detectWithEyes, newTask } from '../server/identity/worker/detect';
import { loadHuman } from '../server/identity/worker/models';
import { BLINK_FACES, makeSyntheticPatient, type BlinkFace } from '../tests/synthetic/model';
import { runIfMain } from './_identity';
import { FRAMINGS, syntheticCamera, type Framing } from './_synthetic';
import { IMAGE_LIMITS } from '../tests/identity/frames';

const limits = IMAGE_LIMITS;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export async function main() {
  const per = Number(process.argv[2] ?? 6);
  const faces = (process.argv[3]?.split(',') ?? BLINK_FACES) as BlinkFace[];
  const human = await loadHuman();
  console.log(`blink-pair-ratio: ${per} patients per face and framing; load ${load()}`);
  for (const face of faces)
    for (const framing of Object.keys(FRAMINGS) as Framing[]) {
      const ratios: number[] = [];
      let unread = 0;
      for (let seed = 1; seed <= per; seed++) {
        const p = makeSyntheticPatient<BlinkFace>(seed, { face });
        const camera = syntheticCamera(p, { framing });
        const closedAt = 3000 - p.cameraLatencyMs;
        const scene = {
          screenAt: () => null,
          blinks: [[closedAt - 100, closedAt + 100]] as Array<[number, number]>,
        };
        // One worker task for both, as a request's: the closed frame is tracked from the open one's box.
        const task = newTask();
        const ear = async (t: number) => {
          const rgb = await decodeRgb(await camera.capture(t, scene), limits, 640);
          const [found] = await detectWithEyes(human, rgb, false, task);
          return found?.face.ear.mean;
        };
        const open = await ear(2000);
        const closed = await ear(3000);
        if (!open || closed === undefined) unread += 1;
        else ratios.push(closed / open);
      }
      ratios.sort((a, b) => a - b);
      const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));
      console.log(
        `${face} ${framing}: closed / open ${f(ratios[0])} / ${f(ratios[Math.floor(ratios.length / 2)])} / ${f(ratios.at(-1))} (min / median / max of ${ratios.length}; ${unread} without a face or eyes)`,
      );
    }
  console.log(`load ${load()}`);
}

runIfMain(import.meta.url, main);
