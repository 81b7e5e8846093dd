import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { Converted } from './convert';

/**
 * onnxruntime-node (native CPU inference) for the converted face models.
 *
 * Human calls each model's execute() synchronously inside its own pipeline, but the package's public
 * `InferenceSession.run()` is asynchronous (it defers the native call to setImmediate). So this
 * module uses the object that public session wraps: the package's native binding
 * (`dist/binding.js`: `InferenceSession` with `loadModel()` and a synchronous `run()`). That is an
 * internal of the package, so the version is pinned (package.json) and checked here: another
 * version is refused with a clear reason (and IDENTITY_BACKEND=auto falls back to tfjs-wasm).
 */
const ORT_VERSION = '1.30.0';

/** The package's internal native session (onnxruntime-node 1.30.0, lib/binding.ts). */
type BindingSession = {
  loadModel(
    buffer: ArrayBufferLike,
    byteOffset: number,
    byteLength: number,
    options: InferenceSession.SessionOptions,
  ): void;
  run(
    feeds: Record<string, Tensor>,
    fetches: Record<string, null>,
    options: InferenceSession.RunOptions,
  ): Record<string, Tensor>;
  dispose(): void;
};
type BindingModule = {
  binding: { InferenceSession: new () => BindingSession };
  initOrt(): void;
};
type OrtModule = {
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => Tensor;
  env: { logLevel?: string };
};

/**
 * One intra-op thread and no inter-op pool: the identity pool already runs one worker per core, and
 * each worker runs one model at a time. Errors only in ORT's own log (it writes to the process'
 * stderr, outside the app's logger).
 *
 * No CPU arena: each session's arena keeps the largest run's blocks for good, four sessions per
 * worker; without it a run's memory goes back to malloc, which the next run reuses: less memory,
 * the same CPU per frame (bench/identity-pool-memory.ts, bench/face-analysis-cost.ts; figures in
 * docs/measurements.md). The memory pattern stays: without it a run allocates tensor by tensor.
 */
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableCpuMemArena: false,
  enableMemPattern: true,
  logSeverityLevel: 3,
};

export type ModelOutput = { data: Float32Array; dims: number[] };

/** A converted model loaded in onnxruntime, run synchronously on the calling thread. */
export type NativeSession = {
  run(input: Float32Array, dims: readonly number[]): ModelOutput[];
  dispose(): void;
};

export type NativeRuntime = {
  /** Where the package was loaded from, for the logs. */
  dir: string;
  load(model: Converted): NativeSession;
};

/**
 * Loads onnxruntime-node's native library (`moduleId`: the package name, or a path to another
 * copy). Throws when it cannot load (missing package or platform binary, another version).
 */
export function loadNativeRuntime(moduleId = 'onnxruntime-node'): NativeRuntime {
  const require = createRequire(import.meta.url);
  const main = require.resolve(moduleId);
  const dir = path.resolve(path.dirname(main), '..'); // <package>/dist/index.js
  const pkg = require(path.join(dir, 'package.json')) as { name?: string; version?: string };
  if (pkg.name !== 'onnxruntime-node' || pkg.version !== ORT_VERSION)
    throw new Error(
      `expected onnxruntime-node ${ORT_VERSION} at ${dir}, found ${pkg.name} ${pkg.version}`,
    );
  const ort = require(main) as OrtModule;
  ort.env.logLevel = 'error';
  const { binding, initOrt } = require(path.join(dir, 'dist', 'binding.js')) as BindingModule;
  initOrt();
  return {
    dir,
    load(model) {
      const session = new binding.InferenceSession();
      const { bytes } = model;
      session.loadModel(bytes.buffer, bytes.byteOffset, bytes.byteLength, SESSION_OPTIONS);
      // onnxruntime keeps its own copy: the closure below holds the names, never the model's bytes.
      const { input: inputName, outputs } = model;
      const fetches = Object.fromEntries(outputs.map((o) => [o, null]));
      return {
        run(input, dims) {
          const feeds = { [inputName]: new ort.Tensor('float32', input, dims) };
          const result = session.run(feeds, fetches, {});
          return outputs.map((name) => {
            const t = result[name];
            if (t?.type !== 'float32')
              throw new Error(`onnxruntime: output ${name} is not float32`);
            return { data: t.data as Float32Array, dims: t.dims.map(Number) };
          });
        },
        dispose: () => session.dispose(),
      };
    },
  };
}
