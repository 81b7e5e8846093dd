import { handlers, source, type Ctx } from './ops';
import {
  attrsOf,
  OnnxGraphBuilder,
  UnsupportedGraphError,
  type TfGraph,
  type TfNode,
} from './graph';
import { DataType, encodeModel, type ValueInfoProto } from './onnx-proto';

/**
 * Converts a tfjs graph model (the ops of Human 3.3.6's face detector, mesh, iris and description
 * models) to an ONNX model (opset 13) in memory. Only the nodes the outputs depend on are converted;
 * any other op, fused activation, padding or layout throws an UnsupportedGraphError naming the op
 * and the model, and the caller keeps tfjs.
 *
 * The ONNX model takes the tfjs model's NHWC input and returns its outputs with the same shapes, in
 * the order of `graph.outputs`, named `output_0`, `output_1`, ...
 */
export type Converted = { bytes: Uint8Array; input: string; outputs: string[] };

/** The nodes the outputs depend on, inputs before their consumers. */
function needed(graph: TfGraph, fail: (node: TfNode, detail: string) => never): TfNode[] {
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const state = new Map<string, 'visiting' | 'done'>();
  const order: TfNode[] = [];
  const visit = (name: string) => {
    const node = byName.get(name);
    if (!node) throw new Error(`ONNX converter: '${graph.model}' has no node '${name}'`);
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') fail(node, 'the graph has a cycle');
    state.set(name, 'visiting');
    for (const ref of node.input ?? [])
      if (!ref.startsWith('^')) visit(source(ref, { fail: (d) => fail(node, d) }));
    state.set(name, 'done');
    order.push(node);
  };
  for (const o of graph.outputs) visit(o);
  return order;
}

export function convertGraph(graph: TfGraph): Converted {
  const fail = (node: TfNode, detail?: string): never => {
    throw new UnsupportedGraphError(graph.model, node.op, node.name, detail);
  };
  const b = new OnnxGraphBuilder(graph);
  const inputName = b.fresh(graph.input.name);
  for (const node of needed(graph, fail)) {
    const ctx: Ctx = {
      b,
      node,
      a: attrsOf(node),
      ins: [],
      fail: (detail) => fail(node, detail),
    };
    ctx.ins = (node.input ?? []).filter((r) => !r.startsWith('^')).map((r) => source(r, ctx));
    if (node.op === 'Const') {
      if (!b.isConst(node.name)) fail(node, 'constant without a value');
    } else if (node.op === 'Placeholder') {
      if (node.name !== graph.input.name) fail(node, 'a second input');
      b.set(node.name, { name: inputName, rank: graph.input.shape.length, nchw: false });
    } else {
      const handler = handlers[node.op];
      if (!handler) fail(node);
      b.set(node.name, handler!(ctx));
    }
  }
  const outputs = graph.outputs.map((o, i) =>
    b.add('Identity', [b.asNhwc(b.value(o)).name], {}, `output_${i}`),
  );
  const tensorType = (dims?: number[]): ValueInfoProto['type'] => ({
    tensor_type: {
      elem_type: DataType.FLOAT,
      ...(dims && {
        shape: { dim: dims.map((d) => (d < 0 ? { dim_param: 'batch' } : { dim_value: d })) },
      }),
    },
  });
  const bytes = encodeModel({
    ir_version: 7, // the IR of opset 13 (ONNX 1.8)
    opset_import: [{ domain: '', version: 13 }],
    producer_name: 'pacientes-py tfjs-to-onnx',
    producer_version: '1',
    graph: {
      name: graph.model,
      node: b.nodes,
      initializer: b.initializers,
      input: [{ name: inputName, type: tensorType(graph.input.shape) }],
      output: outputs.map((name) => ({ name, type: tensorType() })),
    },
  });
  return { bytes, input: inputName, outputs };
}
