import {
  NHWC_TO_NCHW,
  transposeData,
  type Attributes,
  type Attrs,
  type OnnxGraphBuilder,
  type TfNode,
  type Value,
} from './graph';

/**
 * The TensorFlow ops of Human 3.3.6's face models (blazeface, facemesh, iris, faceres) as ONNX
 * opset 13 nodes. Each handler reads one tfjs node and returns the ONNX value holding its output;
 * what it cannot translate exactly (another padding, data format, fused activation, operand kind)
 * it refuses through `fail`, which names the op and the model.
 */

/** What a handler gets for one tfjs node. */
export type Ctx = {
  b: OnnxGraphBuilder;
  node: TfNode;
  /** Data inputs (control inputs dropped, ':0' removed). */
  ins: string[];
  a: Attrs;
  fail(detail: string): never;
};

/** Node name of a tensor reference ('conv1:0' -> 'conv1'); other output indices are not used here. */
export function source(ref: string, ctx: { fail(detail: string): never }): string {
  const m = /^(.*?)(?::(\d+))?$/.exec(ref)!;
  if (m[2] !== undefined && m[2] !== '0') ctx.fail(`input ${ref}: only output 0 is supported`);
  return m[1]!;
}

/** A float constant as operand of an op with `x`: channel-first when x is a 4-D NCHW value. */
function operand(c: Ctx, tfName: string | undefined, nchw: boolean): string {
  const k = tfName === undefined ? undefined : c.b.constOf(tfName);
  if (!k || k.dtype !== 'float32' || tfName === undefined)
    return c.fail(`operand ${tfName} is not a float32 constant`);
  const size = k.data.length;
  if (!nchw || size === 1) return c.b.floats(tfName, k.shape, Float32Array.from(k.data));
  if (k.shape.length > 4) c.fail(`constant ${tfName} has rank ${k.shape.length}`);
  // Broadcasting aligns trailing axes: a [C] or [W, C] constant is [1, 1, 1, C] / [1, 1, W, C] NHWC.
  const dims4 = [...new Array<number>(4 - k.shape.length).fill(1), ...k.shape];
  const t = () => transposeData(k.data, dims4, NHWC_TO_NCHW).data;
  return c.b.floats(
    `${tfName}/nchw`,
    NHWC_TO_NCHW.map((p) => dims4[p]!),
    t,
  );
}

function intsOf(c: Ctx, tfName: string): number[] {
  const k = c.b.constOf(tfName);
  if (!k || k.dtype !== 'int32') c.fail(`${tfName} must be an int32 constant`);
  return Array.from(k.data);
}

/** [1, h, w, 1] NHWC window attributes -> [h, w]. */
function spatial(c: Ctx, key: string): [number, number] {
  const v = c.a.ints(key) ?? [1, 1, 1, 1];
  if (v.length !== 4 || v[0] !== 1 || v[3] !== 1) c.fail(`${key} ${v.join(',')}`);
  return [v[1]!, v[2]!];
}

function padding(c: Ctx): Attributes {
  if ((c.a.str('data_format') ?? 'NHWC') !== 'NHWC')
    c.fail(`data_format ${c.a.str('data_format')}`);
  const p = c.a.str('padding');
  // TensorFlow's SAME puts the odd pixel at the end: ONNX's SAME_UPPER.
  if (p === 'SAME') return { auto_pad: 'SAME_UPPER' };
  if (p === 'VALID') return { auto_pad: 'VALID' };
  if (p === 'EXPLICIT') {
    const e = c.a.ints('explicit_paddings') ?? [];
    if (e.length !== 8) c.fail('explicit_paddings');
    return { pads: [e[2]!, e[4]!, e[3]!, e[5]!] }; // [top, left, bottom, right]
  }
  return c.fail(`padding ${p}`);
}

/** The activation fused after a convolution or matmul (PReLU's alpha is the input after the bias). */
function activation(c: Ctx, fused: string[], x: Value): Value {
  if (fused.length === 0) return x;
  const base = c.node.name;
  if (fused.length === 1 && fused[0] === 'Relu')
    return { ...x, name: c.b.add('Relu', [x.name], {}, base) };
  if (fused.length === 1 && fused[0] === 'Prelu') {
    const alpha = operand(c, c.ins[3], x.nchw);
    return { ...x, name: c.b.add('PRelu', [x.name, alpha], {}, base) };
  }
  return c.fail(`fused ops ${c.a.strs('fused_ops').join('+')}`);
}

/** Fused ops: an optional BiasAdd (argument 2), then at most one activation. */
function splitFused(c: Ctx): { bias: string | null; rest: string[] } {
  const fused = c.a.strs('fused_ops');
  if (fused.length === 0) return { bias: null, rest: [] };
  if (fused[0] !== 'BiasAdd') c.fail(`fused ops ${fused.join('+')}`);
  return { bias: c.ins[2]!, rest: fused.slice(1) };
}

function conv(c: Ctx, depthwise: boolean): Value {
  const pads = padding(c);
  const x = c.b.asNchw(c.b.value(c.ins[0]!));
  const w = c.b.constOf(c.ins[1]!);
  if (x.rank !== 4 || !w || w.dtype !== 'float32' || w.shape.length !== 4) c.fail('filter');
  const [kh, kw, ci, co] = w.shape as [number, number, number, number];
  // TensorFlow filters are [kh, kw, in, out] (depthwise: [kh, kw, in, multiplier]); ONNX wants
  // [out, in / group, kh, kw]. Depthwise output channel i * multiplier + m is group i's m-th.
  const cout = depthwise ? ci * co : co;
  const perm = depthwise ? [2, 3, 0, 1] : [3, 2, 0, 1];
  const filter = c.b.floats(
    `${c.ins[1]}/filter`,
    depthwise ? [cout, 1, kh, kw] : [co, ci, kh, kw],
    () => transposeData(w.data, w.shape, perm).data,
  );
  const { bias, rest } = splitFused(c);
  const inputs = [x.name, filter];
  if (bias) {
    const k = c.b.constOf(bias);
    if (!k || k.data.length !== cout) c.fail(`bias ${bias}`);
    inputs.push(c.b.floats(bias, [cout], Float32Array.from(k.data)));
  }
  const [sh, sw] = spatial(c, 'strides');
  const [dh, dw] = spatial(c, 'dilations');
  const out = c.b.add(
    'Conv',
    inputs,
    {
      kernel_shape: [kh, kw],
      strides: [sh, sw],
      dilations: [dh, dw],
      group: depthwise ? ci : 1,
      ...pads,
    },
    rest.length ? `${c.node.name}/conv` : c.node.name,
  );
  return activation(c, rest, { name: out, rank: 4, nchw: true });
}

function matmul(c: Ctx): Value {
  const x = c.b.asNhwc(c.b.value(c.ins[0]!));
  const y = c.b.isConst(c.ins[1]!) ? null : c.b.asNhwc(c.b.value(c.ins[1]!));
  if (x.rank !== 2 || (y && y.rank !== 2)) c.fail('only 2-D operands are supported');
  const w = y ? y.name : operand(c, c.ins[1]!, false);
  const { bias, rest } = splitFused(c);
  const inputs = [x.name, w];
  if (bias) inputs.push(operand(c, bias, false));
  const attributes = {
    transA: c.a.bool('transpose_a') ? 1 : 0,
    transB: c.a.bool('transpose_b') ? 1 : 0,
  };
  const base = rest.length ? `${c.node.name}/gemm` : c.node.name;
  const out = c.b.add('Gemm', inputs, attributes, base);
  return activation(c, rest, { name: out, rank: 2, nchw: false });
}

/** Element-wise ops with broadcasting; constants follow the layout of the other operand. */
function binary(c: Ctx, op: string): Value {
  const vals = c.ins.map((i) => (c.b.isConst(i) ? null : c.b.value(i)));
  const live = vals.filter((v): v is Value => v !== null);
  if (!live.length) c.fail('all operands are constants');
  const nchw = live.some((v) => v.nchw) && live.every((v) => v.rank === 4);
  const inputs = c.ins.map((i, k) => {
    const v = vals[k];
    if (v) return (nchw ? c.b.asNchw(v) : c.b.asNhwc(v)).name;
    return operand(c, i, nchw);
  });
  const ranks = c.ins.map((i, k) => vals[k]?.rank ?? c.b.constOf(i)!.shape.length);
  return { name: c.b.add(op, inputs, {}, c.node.name), rank: Math.max(...ranks), nchw };
}

const unary = (op: string) => (c: Ctx) => {
  const x = c.b.value(c.ins[0]!);
  return { ...x, name: c.b.add(op, [x.name], {}, c.node.name) };
};

const binaryOps: Record<string, string> = {
  Add: 'Add',
  AddV2: 'Add',
  Sub: 'Sub',
  Mul: 'Mul',
  Minimum: 'Min',
  Maximum: 'Max',
};

export const handlers: Record<string, (c: Ctx) => Value> = {
  Identity: (c) => c.b.value(c.ins[0]!),
  Conv2D: (c) => conv(c, false),
  _FusedConv2D: (c) => conv(c, false),
  DepthwiseConv2dNative: (c) => conv(c, true),
  MatMul: matmul,
  _FusedMatMul: matmul,
  Relu: unary('Relu'),
  Sigmoid: unary('Sigmoid'),
  ...Object.fromEntries(
    Object.entries(binaryOps).map(([tf, op]) => [tf, (c: Ctx) => binary(c, op)]),
  ),
  Prelu(c) {
    const x = c.b.value(c.ins[0]!);
    const alpha = operand(c, c.ins[1]!, x.nchw);
    return { ...x, name: c.b.add('PRelu', [x.name, alpha], {}, c.node.name) };
  },
  Softmax(c) {
    // TensorFlow normalises over the last axis: the channel axis (1) of an NCHW value.
    const x = c.b.value(c.ins[0]!);
    return { ...x, name: c.b.add('Softmax', [x.name], { axis: x.nchw ? 1 : -1 }, c.node.name) };
  },
  MaxPool(c) {
    const pads = padding(c);
    const x = c.b.asNchw(c.b.value(c.ins[0]!));
    if (x.rank !== 4) c.fail('input is not 4-D');
    const attributes = {
      kernel_shape: spatial(c, 'ksize'),
      strides: spatial(c, 'strides'),
      ...pads,
    };
    return { ...x, name: c.b.add('MaxPool', [x.name], attributes, c.node.name) };
  },
  Pad(c) {
    const x = c.b.value(c.ins[0]!);
    const p = intsOf(c, c.ins[1]!); // [[before, after] per axis], NHWC axes
    if (p.length !== 2 * x.rank) c.fail('paddings');
    const axes = x.nchw ? NHWC_TO_NCHW : [...Array(x.rank).keys()];
    const pads = [...axes.map((a) => p[2 * a]!), ...axes.map((a) => p[2 * a + 1]!)];
    const name = c.b.add(
      'Pad',
      [x.name, c.b.int64s(`${c.node.name}/pads`, pads)],
      { mode: 'constant' },
      c.node.name,
    );
    return { ...x, name };
  },
  Reshape(c) {
    const x = c.b.asNhwc(c.b.value(c.ins[0]!));
    const shape = intsOf(c, c.ins[1]!);
    // ONNX reads 0 as 'keep this dimension', TensorFlow as an empty one.
    if (shape.includes(0)) c.fail('a zero in the shape');
    const name = c.b.add(
      'Reshape',
      [x.name, c.b.int64s(`${c.node.name}/shape`, shape)],
      {},
      c.node.name,
    );
    return { name, rank: shape.length, nchw: false };
  },
  ConcatV2(c) {
    const parts = c.ins
      .slice(0, -1)
      .map((i) => (c.b.isConst(i) ? c.fail(`constant input ${i}`) : c.b.value(i)));
    const [axisRaw] = intsOf(c, c.ins.at(-1)!);
    const rank = parts[0]!.rank;
    const nchw = parts.every((v) => v.nchw);
    const axis = (axisRaw! + rank) % rank;
    const inputs = parts.map((v) => (nchw ? v : c.b.asNhwc(v)).name);
    const onnxAxis = nchw ? NHWC_TO_NCHW.indexOf(axis) : axis;
    return { name: c.b.add('Concat', inputs, { axis: onnxAxis }, c.node.name), rank, nchw };
  },
  Mean(c) {
    let x = c.b.value(c.ins[0]!);
    const axes = intsOf(c, c.ins[1]!).map((a) => (a + x.rank) % x.rank);
    const keep = c.a.bool('keep_dims');
    if (x.nchw && !keep) {
      // The kept axes must come out in TensorFlow's order: C before H or W would not.
      const kept = [0, 1, 2, 3]
        .filter((a) => !axes.includes(a))
        .map((a) => NHWC_TO_NCHW.indexOf(a));
      if (kept.some((p, k) => k > 0 && p < kept[k - 1]!)) x = c.b.asNhwc(x);
    }
    const onnxAxes = x.nchw ? axes.map((a) => NHWC_TO_NCHW.indexOf(a)) : axes;
    const name = c.b.add(
      'ReduceMean',
      [x.name],
      { axes: onnxAxes, keepdims: keep ? 1 : 0 },
      c.node.name,
    );
    return { name, rank: keep ? x.rank : x.rank - axes.length, nchw: x.nchw && keep };
  },
};
