/**
 * What one face analysis costs, model by model, on each backend the identity workers can run
 * (IDENTITY_BACKEND: onnxruntime-node and tfjs-wasm): one worker thread per backend, loaded as the
 * identity pool loads it, given the same frames, interleaved round by round (the order alternates)
 * with one worker busy at a time, so the process' CPU time is that worker's. Frames:
 * - liveness: the oval's region as the browser sends it (160x180, JPEG 0.6), detector + mesh + iris;
 * - deciding: the same frame with the 1024-d description;
 * - kiosk: the 480x480 square the kiosk page sends, everything.
 * Prints medians over the rounds (after 2 warm-ups): CPU and wall ms per frame, and CPU ms inside
 * each model's execute (the models run synchronously on the worker's thread; process CPU time, which
 * is this worker's while the others wait), with the load average.
 *   npx tsx bench/face-analysis-cost.ts [rounds=15]
 */
import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import type { HumanModels } from '../server/identity/native/patch';
import { loadFaceModels, type BackendSetting } from '../server/identity/worker/models';
import { cameraFrame, ovalFrame } from '../tests/identity/frames';
import { runIfMain } from './_identity';

/** Human's model names -> what they do. */
const MODELS = { blazeface: 'detector', facemesh: 'mesh', iris: 'iris', faceres: 'description' };
type ModelLabel = (typeof MODELS)[keyof typeof MODELS];
const KINDS = {
  liveness: 'liveness frame (detector, mesh, iris)',
  deciding: 'deciding frame (+ description)',
  kiosk: 'kiosk frame 480x480 (everything)',
} as const;
type Kind = keyof typeof KINDS;
type Frame = { data: Uint8Array; width: number; height: number };
type Job = { kind: Kind; frame: Frame };
type Result = {
  cpu: number;
  wall: number;
  faces: number;
  models: Partial<Record<ModelLabel, number>>;
};

/** Worker side: the face models for one backend, each model's execute timed. */
async function serve(setting: BackendSetting) {
  const port = parentPort!;
  const { human, backend } = await loadFaceModels(setting);
  const spent: Partial<Record<ModelLabel, number>> = {};
  const models = (human as unknown as HumanModels).models.models;
  for (const [name, label] of Object.entries(MODELS)) {
    const model = models[name]!;
    const execute = model.execute; // onnxruntime's when patched, else tfjs' own
    model.execute = (...args) => {
      const c0 = process.cpuUsage();
      try {
        return execute.apply(model, args);
      } finally {
        const c = process.cpuUsage(c0);
        spent[label] = (spent[label] ?? 0) + (c.user + c.system) / 1000;
      }
    };
  }
  port.on('message', async ({ kind, frame }: Job) => {
    for (const k of Object.keys(spent)) delete spent[k as ModelLabel];
    const t = human.tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
    const batch = human.tf.expandDims(t, 0);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    // Human keeps a call's configuration: every call names every model.
    const face = { mesh: { enabled: true }, iris: { enabled: true } };
    const r = await human.detect(batch, {
      face: { ...face, description: { enabled: kind !== 'liveness' } },
    });
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    t.dispose();
    batch.dispose();
    const result: Result = {
      cpu: (c.user + c.system) / 1000,
      wall,
      faces: r.face.length,
      models: { ...spent },
    };
    port.postMessage(result);
  });
  port.postMessage({ ready: backend });
}

const require = createRequire(import.meta.url);
function spawn(setting: BackendSetting): Promise<{ worker: Worker; backend: string }> {
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const src = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(src, { eval: true, workerData: { setting } });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { ready: string }) => resolve({ worker, backend: m.ready }));
    worker.once('error', reject);
  });
}
const call = (worker: Worker, job: Job) =>
  new Promise<Result>((resolve, reject) => {
    const fail = (err: Error) => reject(err);
    worker.once('error', fail);
    worker.once('message', (result: Result) => {
      worker.off('error', fail);
      resolve(result);
    });
    worker.postMessage(job);
  });

async function raw(
  jpeg: Buffer,
  crop?: { left: number; top: number; width: number; height: number },
) {
  const img = crop ? sharp(jpeg).extract(crop) : sharp(jpeg);
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1] ?? Number.NaN;
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function main(rounds = Number(process.argv[2] ?? 15)) {
  console.log(`load average at start ${loadavg()} on ${os.cpus().length} cores`);
  // 'onnx', not 'auto': a native runtime that cannot run fails here rather than timing wasm twice.
  const workers = [await spawn('onnx'), await spawn('wasm')];
  const results = new Map<string, Result[]>(); // `${backend}/${kind}`
  const load1: number[] = [];
  for (let r = 0; r < rounds + 2; r++) {
    const jpeg = await ovalFrame({ seed: r + 1, width: 160, quality: 60 });
    const liveness = await raw(jpeg);
    const kiosk = await raw(await cameraFrame('blink-open.jpg', { seed: r + 1 }), {
      left: 80,
      top: 0,
      width: 480,
      height: 480,
    });
    const frames: Record<Kind, Frame> = { liveness, deciding: liveness, kiosk };
    const order = r % 2 ? [...workers].reverse() : workers;
    for (const { worker, backend } of order)
      for (const kind of Object.keys(KINDS) as Kind[]) {
        const result = await call(worker, { kind, frame: frames[kind] });
        if (result.faces !== 1) throw new Error(`${backend} ${kind}: ${result.faces} faces`);
        if (r >= 2)
          results.set(`${backend}/${kind}`, [...(results.get(`${backend}/${kind}`) ?? []), result]);
      }
    load1.push(os.loadavg()[0]!);
  }
  const load = `load 1 min ${Math.min(...load1).toFixed(1)}-${Math.max(...load1).toFixed(1)}`;
  console.log(`\nmedians of ${rounds} rounds (ms; models: CPU inside execute), ${load}`);
  const ms = (v: number) => v.toFixed(1).padStart(6);
  for (const [kind, label] of Object.entries(KINDS)) {
    console.log(`${label}:`);
    const cpu: number[] = [];
    for (const { backend } of workers) {
      const rs = results.get(`${backend}/${kind}`)!;
      const model = (m: ModelLabel) =>
        rs[0]!.models[m] === undefined ? '-' : median(rs.map((x) => x.models[m] ?? 0)).toFixed(1);
      const perModel = Object.values(MODELS).map((m) => `${m} ${model(m)}`);
      cpu.push(median(rs.map((x) => x.cpu)));
      const wall = median(rs.map((x) => x.wall));
      console.log(
        `  ${backend.padEnd(17)} CPU ${ms(cpu.at(-1)!)}  wall ${ms(wall)}  models: ${perModel.join(', ')}`,
      );
    }
    console.log(`  tfjs-wasm / onnxruntime-node CPU: x${(cpu[1]! / cpu[0]!).toFixed(2)}`);
  }
  console.log(`load average at end ${loadavg()}`);
  await Promise.all(workers.map((w) => w.worker.terminate()));
}

if (!isMainThread) await serve((workerData as { setting: BackendSetting }).setting);
else runIfMain(import.meta.url, main);
