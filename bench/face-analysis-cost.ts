/**
 * What one face analysis costs, model by model (the profile behind bench/kiosk-latency.ts): Human
 * on the WebAssembly backend, one 480x480 kiosk frame (the square crop the page sends), in this
 * thread, median wall-clock and CPU time of 10 runs after 3 warm-ups. A liveness frame runs the
 * detector, the mesh and the iris model; a deciding frame adds the 1024-d description.
 *   npx tsx bench/face-analysis-cost.ts
 */
import os from 'node:os';
import sharp from 'sharp';
import { loadHuman } from '../server/identity/worker/models';
import { fixture } from '../tests/identity/frames';
import { runIfMain } from './_identity';

const SIDE = 480;
// Human merges a call's configuration into its own and keeps it: every plan names every model.
const plan = (mesh: boolean, iris: boolean, description: boolean) => ({
  mesh: { enabled: mesh },
  iris: { enabled: iris },
  description: { enabled: description },
});
const PLANS: Array<[string, Record<string, unknown>]> = [
  ['detector only', plan(false, false, false)],
  ['detector + mesh', plan(true, false, false)],
  ['detector + mesh + iris (a liveness frame)', plan(true, true, false)],
  ['+ description (a deciding frame)', plan(true, true, true)],
];

export async function main() {
  const human = await loadHuman();
  const frame = await sharp(fixture('faces', 'blink-open.jpg'))
    .extract({ left: 80, top: 0, width: SIDE, height: SIDE })
    .removeAlpha()
    .raw()
    .toBuffer();
  const median = (a: number[]) => Math.round([...a].sort((x, y) => x - y)[a.length >> 1]!);
  for (const [label, face] of PLANS) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let k = 0; k < 13; k++) {
      const t = human.tf.tensor3d(new Uint8Array(frame), [SIDE, SIDE, 3], 'int32');
      const batch = human.tf.expandDims(t, 0);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await human.detect(batch, { face });
      const c = process.cpuUsage(c0);
      t.dispose();
      batch.dispose();
      if (!r.face.length) throw new Error(`no face found (${label})`);
      if (k < 3) continue;
      wall.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
    }
    console.log(`${label.padEnd(44)} wall ${median(wall)} ms, CPU ${median(cpu)} ms`);
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  );
}

runIfMain(import.meta.url, main);
