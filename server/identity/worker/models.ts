import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Loads Human (face detector, 478-point mesh, iris, 1024-d description) on the tfjs wasm backend,
 * with every model read from node_modules: nothing is fetched at run time.
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
export type HumanFace = {
  box: [number, number, number, number];
  score: number;
  boxScore?: number;
  faceScore?: number;
  mesh: Point3[];
  embedding?: number[];
};
export type HumanResult = { face: HumanFace[] };
type Tensor = { dispose(): void };
export type HumanTf = {
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

export const humanConfig = {
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
      minConfidence: 0.5,
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
