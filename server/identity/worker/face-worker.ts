import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { IdentityError } from '../errors';
import type { ImageLimits } from '../image';
import { analyzeFrames, analyzeImage, type AnalyzeOptions, type FramesOptions } from './analyze';
import { humanDir, loadFaceModels, type BackendSetting, type InferenceBackend } from './models';

/**
 * Worker thread: loads the face models once, warms them, then answers analysis requests.
 * Every failure is answered as a message; nothing an upload contains can throw out of this loop.
 */
type WorkerRequest =
  | { id: number; op: 'analyze'; bytes: Uint8Array; opts: AnalyzeOptions }
  | { id: number; op: 'frames'; frames: Uint8Array[]; opts: FramesOptions };
export type WorkerResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };
/** Sent once, after the warm-up: which backend runs the models, and why not native under `auto`. */
export type WorkerReady = { ready: true; backend: InferenceBackend; fallback?: string };
export type WorkerData = {
  limits: ImageLimits;
  backend: BackendSetting;
  /** The onnxruntime-node package to load (default: the installed one). */
  onnxRuntime?: string | undefined;
};

const port = parentPort;
if (!port) throw new Error('face-worker must run in a worker thread');
const data = workerData as WorkerData;
const limits = data.limits;
sharp.concurrency(1);

const { human, backend, fallback } = await loadFaceModels(data.backend, {
  onnxRuntime: data.onnxRuntime,
});
// Warm-up: the first inference of each model compiles its kernels; do it now on a real face (a
// thumbnail in Human's own sample sheet), not on a patient's first frame.
const warm = await sharp(path.join(humanDir, 'assets', 'samples.jpg'))
  .extract({ left: 326, top: 0, width: 210, height: 158 })
  .resize(420)
  .jpeg()
  .toBuffer()
  .catch(() =>
    sharp({ create: { width: 256, height: 256, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer(),
  );
for (let i = 0; i < 2; i++)
  await analyzeImage(human, warm, limits, { embedding: 'all', fingerprint: true });
port.postMessage({ ready: true, backend, fallback } satisfies WorkerReady);

port.on('message', async (msg: WorkerRequest) => {
  try {
    const result =
      msg.op === 'frames'
        ? await analyzeFrames(human, msg.frames, limits, msg.opts)
        : await analyzeImage(human, msg.bytes, limits, msg.opts);
    port.postMessage({ id: msg.id, ok: true, result } satisfies WorkerResponse);
  } catch (err) {
    const error =
      err instanceof IdentityError
        ? { code: err.code, message: err.message }
        : { code: 'worker_failed', message: err instanceof Error ? err.message : String(err) };
    port.postMessage({ id: msg.id, ok: false, error } satisfies WorkerResponse);
  }
});
