import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runOnNative, type HumanModels } from '../native/patch';
import { loadNativeRuntime } from '../native/runtime';

/**
 * Loads Human (face detector, 478-point mesh, iris, 1024-d description) on the tfjs wasm backend,
 * with every model read from node_modules: nothing is fetched at run time; then, unless told
 * otherwise, moves the four models' inference to onnxruntime-node (loadFaceModels below).
 * Runs inside a worker thread: one model load per worker.
 */
const require = createRequire(import.meta.url);
// Human's exports map hides its package.json and node builds: locate the package folder from its main entry.
export const humanDir = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
const tfjsWasmDir = path.join(
  path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
  'dist',
);

export type Point3 = [number, number, number];
type HumanFace = {
  box: [number, number, number, number];
  score: number;
  boxScore?: number;
  faceScore?: number;
  mesh: Point3[];
  embedding?: number[];
};
type HumanResult = { face: HumanFace[] };
type Tensor = { dispose(): void };
type HumanTf = {
  tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  expandDims(t: Tensor, axis: number): Tensor;
  getBackend(): string;
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
};
export type Human = {
  tf: HumanTf;
  load(): Promise<void>;
  warmup(): Promise<unknown>;
  detect(
    input: Tensor,
    config?: Record<string, unknown>,
  ): Promise<HumanResult & { error?: string | null }>;
};

/** tfjs in Node cannot read file:// models by itself: this loader reads the model JSON and its shards. */
function fileIoHandler(url: string) {
  const file = url.slice('file://'.length);
  return {
    async load() {
      const json = JSON.parse(readFileSync(file, 'utf8'));
      const dir = path.dirname(file);
      const weightSpecs: unknown[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest ?? []) {
        weightSpecs.push(...group.weights);
        for (const shard of group.paths) buffers.push(readFileSync(path.join(dir, shard)));
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

/** The detector's confidence for a face (Human applies it to the face mesh's own score too). */
export const DETECTOR_MIN_CONFIDENCE = 0.5;

const humanConfig = {
  backend: 'wasm',
  wasmPath: tfjsWasmDir + path.sep,
  modelBasePath: 'file://' + path.join(humanDir, 'models') + path.sep,
  debug: false,
  async: false,
  warmup: 'none',
  cacheSensitivity: 0,
  validateModels: false,
  face: {
    enabled: true,
    detector: {
      rotation: false,
      maxDetected: 4,
      minConfidence: DETECTOR_MIN_CONFIDENCE,
      iouThreshold: 0.1,
      return: false,
    },
    mesh: { enabled: true },
    iris: { enabled: true },
    description: { enabled: true },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
    gear: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
};

export async function loadHuman(): Promise<Human> {
  const tf = require('@tensorflow/tfjs-core') as HumanTf;
  tf.io.registerLoadRouter((url) =>
    typeof url === 'string' && url.startsWith('file://') ? fileIoHandler(url) : null,
  );
  const { Human } = require(path.join(humanDir, 'dist', 'human.node-wasm.js')) as {
    Human: new (config: unknown) => Human;
  };
  const human = new Human(humanConfig);
  await human.load();
  return human;
}

/** IDENTITY_BACKEND: `auto` native with tfjs-wasm as fallback, `onnx` native or fail, `wasm` tfjs only. */
export type BackendSetting = 'auto' | 'onnx' | 'wasm';
/** What runs the face models (Human's pre- and post-processing always run on tfjs-wasm). */
export type InferenceBackend = 'onnxruntime-node' | 'tfjs-wasm';
type FaceModels = {
  human: Human;
  backend: InferenceBackend;
  /** Under `auto`: why the native runtime is not running (it could not load or convert). */
  fallback?: string;
};

/** An error's first line, bounded (a reason for the logs; it never carries request data). */
const reason = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/**
 * Loads the face models for `setting`. `onnxRuntime` names the onnxruntime-node package to load
 * (default: the installed one; another path is a seam for tests and custom builds). The native
 * library is loaded before the models, so `onnx` fails fast when it is missing.
 */
export async function loadFaceModels(
  setting: BackendSetting,
  options: { onnxRuntime?: string | undefined } = {},
): Promise<FaceModels> {
  if (setting === 'wasm') return { human: await loadHuman(), backend: 'tfjs-wasm' };
  let runtime: ReturnType<typeof loadNativeRuntime> | null = null;
  let why = '';
  try {
    runtime = loadNativeRuntime(options.onnxRuntime);
  } catch (err) {
    if (setting === 'onnx') throw new Error(`onnxruntime-node cannot load: ${reason(err)}`);
    why = `onnxruntime-node cannot load: ${reason(err)}`;
  }
  const human = await loadHuman();
  if (runtime) {
    try {
      // Human's bundle is typed here by hand (models.ts): its loaded models are read as HumanModels.
      runOnNative(human as unknown as HumanModels, runtime);
      return { human, backend: 'onnxruntime-node' };
    } catch (err) {
      if (setting === 'onnx') throw err;
      why = reason(err);
    }
  }
  return { human, backend: 'tfjs-wasm', fallback: why };
}
