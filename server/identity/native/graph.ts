import {
  AttributeType,
  DataType,
  type AttributeProto,
  type NodeProto,
  type TensorProto,
} from './onnx-proto';

/**
 * Both sides of the conversion: a tfjs graph as Human loads it (TensorFlow NodeDefs as JSON, and the
 * values of its constants) and the ONNX graph being built from it.
 *
 * Layout: TensorFlow's convolutions work on NHWC tensors, ONNX's on NCHW. The builder keeps each
 * 4-D value in the layout its producer made (`nchw`), transposes where a consumer needs the other
 * one (once per value), and the converter hands NHWC back at the graph's outputs, so the ONNX model
 * takes and returns exactly what the tfjs model does.
 */

/** A NodeDef attribute as tfjs' model JSON holds it (strings base64, 64-bit integers as strings). */
type TfAttr = {
  s?: string;
  i?: string | number;
  f?: number;
  b?: boolean;
  list?: { s?: string[]; i?: Array<string | number>; f?: number[] };
};
export type TfNode = { name: string; op: string; input?: string[]; attr?: Record<string, TfAttr> };
export type TfConst = {
  dtype: 'float32' | 'int32';
  shape: number[];
  data: Float32Array | Int32Array;
};
export type TfGraph = {
  /** The model's name in Human (facedetect, facemesh, faceiris, faceres): for error messages. */
  model: string;
  nodes: TfNode[];
  consts: Map<string, TfConst>;
  /** The graph's one input (a Placeholder): name and NHWC shape, -1 for a free batch size. */
  input: { name: string; shape: number[] };
  /** Node names of the values the model returns, in the order tfjs' execute() returns them. */
  outputs: string[];
};

/** A graph the converter cannot translate faithfully; the caller falls back to tfjs. */
export class UnsupportedGraphError extends Error {
  constructor(
    readonly model: string,
    readonly op: string,
    node: string,
    detail?: string,
  ) {
    super(
      `ONNX converter: op ${op} (node '${node}') of model '${model}' is not supported` +
        (detail ? ` (${detail})` : ''),
    );
    this.name = 'UnsupportedGraphError';
  }
}

const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** Typed reads of a node's attributes. */
export function attrsOf(node: TfNode) {
  const a = node.attr ?? {};
  return {
    str: (key: string): string | undefined =>
      a[key]?.s === undefined ? undefined : text(a[key].s),
    strs: (key: string): string[] => (a[key]?.list?.s ?? []).map(text),
    ints: (key: string): number[] | undefined => a[key]?.list?.i?.map(Number),
    bool: (key: string): boolean => a[key]?.b === true,
  };
}
export type Attrs = ReturnType<typeof attrsOf>;

/** A value of the ONNX graph: its name, rank, and whether a 4-D value is held channel-first. */
export type Value = { name: string; rank: number; nchw: boolean };

export const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];

/** Row-major data of shape `dims` with its axes permuted (output axis k is input axis perm[k]). */
export function transposeData(
  data: Float32Array | Int32Array,
  dims: number[],
  perm: number[],
): { data: Float32Array; dims: number[] } {
  const rank = dims.length;
  const outDims = perm.map((p) => dims[p]!);
  const strides = dims.map((_, k) => dims.slice(k + 1).reduce((x, y) => x * y, 1));
  const step = perm.map((p) => strides[p]!); // input offset of one step along output axis k
  const out = new Float32Array(data.length);
  const idx = new Array<number>(rank).fill(0);
  for (let o = 0, i = 0; o < out.length; o++) {
    out[o] = data[i]!;
    for (let k = rank - 1; k >= 0; k--) {
      idx[k]!++;
      i += step[k]!;
      if (idx[k]! < outDims[k]!) break;
      i -= step[k]! * outDims[k]!;
      idx[k] = 0;
    }
  }
  return { data: out, dims: outDims };
}

/** ONNX attributes by value: an integer, a list of integers, or a string. */
export type Attributes = Record<string, number | number[] | string>;

function attribute(name: string, v: number | number[] | string): AttributeProto {
  if (typeof v === 'string')
    return { name, type: AttributeType.STRING, s: new TextEncoder().encode(v) };
  if (Array.isArray(v)) return { name, type: AttributeType.INTS, ints: v };
  if (!Number.isInteger(v)) throw new Error(`attribute ${name}: ${v} is not an integer`);
  return { name, type: AttributeType.INT, i: v };
}

const bytesOf = (a: Float32Array | BigInt64Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export class OnnxGraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly initializers: TensorProto[] = [];
  /** tfjs tensor name -> the ONNX value holding it. */
  private readonly values = new Map<string, Value>();
  private readonly names = new Set<string>();
  /** Initializers by cache key: a constant used by several nodes is stored once per layout. */
  private readonly constants = new Map<string, string>();
  /** A value already transposed to the other layout, by the value's name. */
  private readonly transposed = new Map<string, Value>();

  constructor(readonly graph: TfGraph) {}

  /** A value name not used yet, derived from `base`. */
  fresh(base: string): string {
    let name = base;
    for (let k = 1; this.names.has(name); k++) name = `${base}/${k}`;
    this.names.add(name);
    return name;
  }

  set(tfName: string, v: Value): void {
    this.values.set(tfName, v);
  }

  value(tfName: string): Value {
    const v = this.values.get(tfName);
    if (!v) throw new Error(`ONNX converter: '${tfName}' of '${this.graph.model}' has no value`);
    return v;
  }

  isConst(tfName: string): boolean {
    return this.graph.consts.has(tfName);
  }

  constOf(tfName: string): TfConst | undefined {
    return this.graph.consts.get(tfName);
  }

  /** Appends a node; returns its (single) output's name. */
  add(op: string, inputs: string[], attributes: Attributes = {}, base?: string): string {
    const out = this.fresh(base ?? op);
    this.nodes.push({
      input: inputs,
      output: [out],
      name: out,
      op_type: op,
      attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)),
    });
    return out;
  }

  /** A float32 initializer, stored once per key. */
  floats(key: string, dims: number[], data: Float32Array | (() => Float32Array)): string {
    let name = this.constants.get(key);
    if (!name) {
      name = this.fresh(key);
      const values = typeof data === 'function' ? data() : data;
      this.initializers.push({ name, dims, data_type: DataType.FLOAT, raw_data: bytesOf(values) });
      this.constants.set(key, name);
    }
    return name;
  }

  /** An int64 vector initializer (shapes, pads). */
  int64s(key: string, values: number[]): string {
    let name = this.constants.get(key);
    if (!name) {
      name = this.fresh(key);
      const data = BigInt64Array.from(values.map((v) => BigInt(v)));
      this.initializers.push({
        name,
        dims: [values.length],
        data_type: DataType.INT64,
        raw_data: bytesOf(data),
      });
      this.constants.set(key, name);
    }
    return name;
  }

  /** The value in channel-first layout (a 4-D value held NHWC is transposed once). */
  asNchw(v: Value): Value {
    if (v.nchw || v.rank !== 4) return v;
    return this.transpose(v, NHWC_TO_NCHW, true);
  }

  /** The value in TensorFlow's layout (NHWC for 4-D values). */
  asNhwc(v: Value): Value {
    return v.nchw ? this.transpose(v, NCHW_TO_NHWC, false) : v;
  }

  private transpose(v: Value, perm: number[], nchw: boolean): Value {
    let t = this.transposed.get(v.name);
    if (!t) {
      const name = this.add('Transpose', [v.name], { perm }, `${v.name}/${nchw ? 'nchw' : 'nhwc'}`);
      t = { name, rank: 4, nchw };
      this.transposed.set(v.name, t);
    }
    return t;
  }
}
