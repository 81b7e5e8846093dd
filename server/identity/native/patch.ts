import v8 from 'node:v8';
import vm from 'node:vm';
import { convertGraph } from './convert';
import type { TfConst, TfGraph, TfNode } from './graph';
import type { ModelOutput, NativeRuntime, NativeSession } from './runtime';

/**
 * Runs Human's face models on onnxruntime instead of tfjs: after Human has loaded them, each
 * model's graph and weights are converted to ONNX in memory, loaded in a native session, checked
 * against tfjs on a test input, and only then is the model's `execute` replaced by a synchronous
 * native run. Everything around execute (Human's resizing, normalisation, box decoding, NMS, mesh
 * and iris geometry, the description's read-out) stays Human's own code on tfjs, so thresholds and
 * enrolled embeddings stay valid. Once all four are swapped, the models' tfjs weights are released
 * (releaseTfjs): a native worker never goes back to tfjs for them.
 *
 * This reads Human 3.3.6's loaded models (`human.models.models`) and tfjs-converter 4.22's
 * GraphModel internals (artifacts, weights, outputNodes): keep both pinned.
 */

/** Human's names of the four models the identity engine uses (detector, mesh, iris, description). */
export const FACE_MODELS = ['blazeface', 'facemesh', 'iris', 'faceres'] as const;

type TfTensor = {
  dtype: string;
  shape: number[];
  isDisposed: boolean;
  dataSync(): ArrayLike<number>;
  dispose(): void;
};
type ExecuteInput = TfTensor | TfTensor[] | Record<string, TfTensor>;
/** What this module reads and replaces of a tfjs GraphModel. */
type GraphModel = {
  artifacts: {
    modelTopology: { node: TfNode[] };
    signature?: { outputs?: Record<string, { name?: string }> };
    /** The weight file's bytes as the loader read them (tfjs decoded its tensors from them). */
    weightData?: ArrayBuffer | ArrayBuffer[];
  };
  weights: Record<string, TfTensor[]>;
  inputs: Array<{ name: string; shape?: number[] }>;
  outputNodes: string[];
  execute(inputs: ExecuteInput, outputs?: string | string[]): TfTensor | TfTensor[];
  executeAsync(inputs: ExecuteInput, outputs?: string | string[]): Promise<TfTensor | TfTensor[]>;
  /** tfjs: disposes the weight tensors (and the model's resources); the graph stays. */
  dispose(): void;
};
type Tf = {
  tensor(values: Float32Array, shape: number[], dtype: 'float32'): TfTensor;
  cast(x: TfTensor, dtype: 'float32'): TfTensor;
};
/** The parts of a loaded Human instance this module uses. */
export type HumanModels = {
  tf: Tf;
  models: { models: Record<string, GraphModel | null | undefined> };
};

/** The model's graph as the converter reads it: topology, constant values, input, outputs. */
function graphOf(name: string, model: GraphModel): TfGraph {
  const consts = new Map<string, TfConst>();
  for (const [key, [t]] of Object.entries(model.weights)) {
    if (!t || (t.dtype !== 'float32' && t.dtype !== 'int32')) continue;
    const data = t.dataSync() as Float32Array | Int32Array; // a copy out of the wasm heap
    consts.set(key, { dtype: t.dtype, shape: [...t.shape], data });
  }
  if (model.inputs.length !== 1) throw new Error(`${name}: ${model.inputs.length} inputs`);
  const input = model.inputs[0]!;
  const signature = model.artifacts.signature?.outputs ?? {};
  return {
    model: name,
    nodes: model.artifacts.modelTopology.node,
    consts,
    input: { name: input.name, shape: input.shape ?? [] },
    // outputNodes may name signature keys (facemesh: 'output_mesh' -> 'Identity_2:0').
    outputs: model.outputNodes.map((o) => (signature[o]?.name ?? o).replace(/:0$/, '')),
  };
}

const asList = (x: TfTensor | TfTensor[]) => (Array.isArray(x) ? x : [x]);

function singleInput(inputs: ExecuteInput): TfTensor {
  const list = Array.isArray(inputs)
    ? inputs
    : 'dataSync' in inputs
      ? [inputs]
      : Object.values(inputs);
  if (list.length !== 1) throw new Error(`native execute: ${list.length} inputs`);
  return list[0] as TfTensor;
}

/**
 * The converted model against tfjs on one deterministic input (values in [-1, 1), batch 1): same
 * output shapes, values within 1e-3 of the larger of 1 and the output's magnitude. Guards against a
 * conversion that loads but computes something else.
 */
function check(name: string, tf: Tf, model: GraphModel, session: NativeSession): void {
  const shape = (model.inputs[0]!.shape ?? []).map((d) => (d < 0 ? 1 : d));
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  for (let i = 0, s = 12345; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s / 2 ** 31 - 1;
  }
  const x = tf.tensor(data, shape, 'float32');
  const expected = asList(model.execute(x));
  try {
    const got = session.run(data, shape);
    expected.forEach((e, k) => {
      const g = got[k];
      if (!g || g.dims.join() !== e.shape.join())
        throw new Error(`${name}: output ${k} shape ${g?.dims} instead of ${e.shape}`);
      const ref = e.dataSync();
      let scale = 1;
      let diff = 0;
      for (let i = 0; i < ref.length; i++) {
        scale = Math.max(scale, Math.abs(ref[i]!));
        diff = Math.max(diff, Math.abs(ref[i]! - g.data[i]!));
      }
      if (!(diff <= 1e-3 * scale))
        throw new Error(`${name}: output ${k} differs from tfjs by ${diff} (scale ${scale})`);
    });
  } finally {
    x.dispose();
    expected.forEach((t) => t.dispose());
  }
}

/** tfjs' execute(inputs, outputs?) contract, answered by the native session. */
function nativeExecute(tf: Tf, model: GraphModel, session: NativeSession): GraphModel['execute'] {
  const strip = (n: string) => n.replace(/:0$/, '');
  const names = model.outputNodes.map(strip);
  return (inputs, outputs) => {
    const requested =
      outputs === undefined ? null : typeof outputs === 'string' ? [outputs] : outputs;
    const order = (requested ?? names).map((n) => {
      const i = names.indexOf(strip(n));
      if (i < 0) throw new Error(`native execute: no output ${n}`);
      return i;
    });
    const x = singleInput(inputs);
    const xf = x.dtype === 'float32' ? x : tf.cast(x, 'float32');
    let results: ModelOutput[];
    try {
      results = session.run(xf.dataSync() as Float32Array, xf.shape);
    } finally {
      if (xf !== x) xf.dispose();
    }
    const tensors = order.map((i) => tf.tensor(results[i]!.data, results[i]!.dims, 'float32'));
    // A single name (or a one-output model without names) answers one tensor, as tfjs does.
    return typeof outputs === 'string' || (!requested && tensors.length === 1)
      ? tensors[0]!
      : tensors;
  };
}

/**
 * After the swap, what only tfjs used: the weight tensors (on tfjs-wasm they sit in the wasm heap,
 * which never shrinks but reuses the freed space for Human's own tensors), the weight file's bytes
 * the model kept, and tfjs' executeAsync (answered natively too, so nothing can reach the disposed
 * weights). What Human 3.3.6 still reads of these models stays: `executor` (tested as "loaded"),
 * `inputs` (input sizes), `outputNodes` and the signature, all graph structure, none of it weights.
 */
function releaseTfjs(model: GraphModel, execute: GraphModel['execute']): void {
  model.executeAsync = async (inputs, outputs) => execute(inputs, outputs);
  model.dispose();
  delete model.artifacts.weightData;
}

/**
 * A full garbage collection now. The conversion leaves garbage of a few times a model's weights
 * (the copies out of tfjs, their transposes, the encoding): collected only at V8's next
 * collection, it is still allocated while onnxruntime builds the session around it, and the worker
 * thread's malloc arena cannot give that memory back once the session sits on top of it
 * (bench/identity-pool-memory.ts; figures in docs/measurements.md). `gc` is exposed
 * by setting the V8 flag (new contexts get it; the idiom jest's leak detector uses); where that does
 * not work, V8 collects later, as before.
 */
function collectGarbage(): void {
  try {
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
  } catch {
    // Only memory is at stake.
  }
}

type NativeModels = {
  /** Milliseconds spent converting, loading and checking per model. */
  ms: Record<string, number>;
};

/**
 * Converts, loads and checks every face model, then swaps their execute all at once and releases
 * their tfjs weights: on any error (an op the converter lacks, a session that does not load, a check
 * that fails) nothing is swapped or released and Human keeps running on tfjs.
 */
export function runOnNative(human: HumanModels, runtime: NativeRuntime): NativeModels {
  const ms: Record<string, number> = {};
  const swaps: Array<() => void> = [];
  const sessions: NativeSession[] = [];
  try {
    for (const name of FACE_MODELS) {
      const t0 = performance.now();
      const model = human.models.models[name];
      if (!model) throw new Error(`Human has not loaded its ${name} model`);
      const converted = convertGraph(graphOf(name, model));
      collectGarbage(); // the conversion's garbage, before onnxruntime allocates
      const session = runtime.load(converted);
      sessions.push(session);
      check(name, human.tf, model, session);
      const execute = nativeExecute(human.tf, model, session);
      swaps.push(() => {
        model.execute = execute;
        releaseTfjs(model, execute);
      });
      ms[name] = Math.round(performance.now() - t0);
    }
  } catch (err) {
    sessions.forEach((s) => s.dispose());
    throw err;
  }
  // All four converted, loaded and checked: swap and release (nothing below can fail half-way).
  swaps.forEach((swap) => swap());
  collectGarbage(); // the last model's encoding, the weights' bytes and tensors just released
  return { ms };
}

/** The converter's input for one of Human's loaded models (tests and diagnostics). */
export function loadedGraph(human: HumanModels, name: string): TfGraph {
  const model = human.models.models[name];
  if (!model) throw new Error(`Human has not loaded its ${name} model`);
  return graphOf(name, model);
}
