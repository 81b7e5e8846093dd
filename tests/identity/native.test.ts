/**
 * Human's face models on onnxruntime-node (IDENTITY_BACKEND): the converter on Human's own loaded
 * models, the native engine against the tfjs-wasm engine on every fixture face, the backend each
 * setting really runs, what readiness says, and the fallback when the native runtime cannot load.
 * Models load once per engine or pool, all started together in beforeAll.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { loadIdentityConfig } from '../../server/identity/config';
import { createIdentityEngine, type IdentityEngine } from '../../server/identity/engine';
import { convertGraph } from '../../server/identity/native/convert';
import { UnsupportedGraphError, type TfGraph } from '../../server/identity/native/graph';
import { decodeModel } from '../../server/identity/native/onnx-proto';
import {
  FACE_MODELS,
  loadedGraph,
  runOnNative,
  type HumanModels,
} from '../../server/identity/native/patch';
import { loadNativeRuntime, type NativeRuntime } from '../../server/identity/native/runtime';
import { FacePool } from '../../server/identity/pool';
import { identityPlugin } from '../../server/identity/plugin';
import { identityRoutes } from '../../server/identity/routes';
import type { FaceObservation, FrameAnalysis } from '../../server/identity/types';
import { analyzeImage } from '../../server/identity/worker/analyze';
import { loadHuman, type Human } from '../../server/identity/worker/models';
import { Readiness } from '../../server/lifecycle/readiness';
import { fixture, fixtures } from './frames';

const limits = { maxUploadBytes: 8 << 20, maxPixels: 40_000_000, minImageSide: 64 };
const faceFiles = readdirSync(path.join(fixtures, 'faces')).filter((f) => f.endsWith('.jpg'));

let native: IdentityEngine;
let wasm: IdentityEngine;
/** `auto` with an onnxruntime-node that cannot load, two workers. */
let fallback: FacePool;
const fallbackEvents: Array<[string, Record<string, unknown>]> = [];
let human: HumanModels;
let runtime: NativeRuntime;

beforeAll(async () => {
  const engine = (env: Record<string, string>) =>
    createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1', ...env }), { ocr: false });
  fallback = new FacePool({
    size: 2,
    limits,
    taskTimeoutMs: 60_000,
    backend: 'auto',
    onnxRuntime: '/nonexistent/onnxruntime-node',
    onEvent: (event, data) => fallbackEvents.push([event, data]),
  });
  [native, wasm, human] = await Promise.all([
    engine({}), // IDENTITY_BACKEND unset: auto
    engine({ IDENTITY_BACKEND: 'wasm' }),
    loadHuman() as unknown as Promise<HumanModels>,
    fallback.ready(),
  ]);
  runtime = loadNativeRuntime();
});
afterAll(async () => {
  await Promise.all([native?.close(), wasm?.close(), fallback?.close()]);
});

describe('IDENTITY_BACKEND', () => {
  it('is auto by default, takes onnx and wasm, and refuses anything else by name', () => {
    expect(loadIdentityConfig({}).backend).toBe('auto');
    expect(loadIdentityConfig({ IDENTITY_BACKEND: 'onnx' }).backend).toBe('onnx');
    expect(loadIdentityConfig({ IDENTITY_BACKEND: 'wasm' }).backend).toBe('wasm');
    expect(() => loadIdentityConfig({ IDENTITY_BACKEND: 'gpu' })).toThrow(/IDENTITY_BACKEND/);
  });

  it('auto runs onnxruntime-node here; wasm runs tfjs-wasm', () => {
    expect(native.stats().pool.backend).toBe('onnxruntime-node');
    expect(wasm.stats().pool.backend).toBe('tfjs-wasm');
  });
});

describe('converter', () => {
  /** A graph of one input 'x', the given nodes (the last is the output) and constants. */
  const tiny = (nodes: TfGraph['nodes'], consts: TfGraph['consts'] = new Map()): TfGraph => ({
    model: 'facemesh',
    nodes: [{ name: 'x', op: 'Placeholder' }, ...nodes],
    consts,
    input: { name: 'x', shape: [-1, 8, 8, 3] },
    outputs: [nodes.at(-1)!.name],
  });
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('an op it does not know fails with an error naming the op, the node and the model', () => {
    const graph = tiny([{ name: 'gelu/erf', op: 'Erf', input: ['x'] }]);
    expect(() => convertGraph(graph)).toThrow(UnsupportedGraphError);
    expect(() => convertGraph(graph)).toThrow(
      "op Erf (node 'gelu/erf') of model 'facemesh' is not supported",
    );
  });

  it('a known op in a form it does not translate (a fused Relu6) fails the same way', () => {
    const consts: TfGraph['consts'] = new Map([
      ['w', { dtype: 'float32', shape: [1, 1, 3, 2], data: new Float32Array(6) }],
      ['b', { dtype: 'float32', shape: [2], data: new Float32Array(2) }],
    ]);
    const conv = {
      name: 'c',
      op: '_FusedConv2D',
      input: ['x', 'w', 'b'],
      attr: {
        padding: { s: b64('SAME') },
        fused_ops: { list: { s: ['BiasAdd', 'Relu6'].map(b64) } },
      },
    };
    const graph = tiny([{ name: 'w', op: 'Const' }, { name: 'b', op: 'Const' }, conv], consts);
    expect(() => convertGraph(graph)).toThrow(
      /op _FusedConv2D \(node 'c'\) of model 'facemesh'.*BiasAdd\+Relu6/,
    );
  });

  it.each(FACE_MODELS)(
    '%s: the ONNX model computes what tfjs computes (same shapes, within 1e-4 relative)',
    (name) => {
      const graph = loadedGraph(human, name);
      const converted = convertGraph(graph);
      const model = decodeModel(converted.bytes);
      expect(model.opset_import).toEqual([{ domain: '', version: 13 }]);
      expect(model.graph.input.map((i) => i.name)).toEqual([graph.input.name]);
      const session = runtime.load(converted);
      // Human runs the iris model on both eyes at once: a batch of 2 where the graph allows it.
      const shape = graph.input.shape.map((d) => (d < 0 ? 2 : d));
      const data = new Float32Array(shape.reduce((a, b) => a * b, 1)).map(
        (_, i) => Math.sin(i * 12.9898) * 0.9,
      );
      const x = human.tf.tensor(data, shape, 'float32');
      const out = human.models.models[name]!.execute(x);
      const expected = Array.isArray(out) ? out : [out];
      const got = session.run(data, shape);
      expect(got.map((g) => g.dims)).toEqual(expected.map((e) => e.shape));
      expected.forEach((e, k) => {
        const ref = Array.from(e.dataSync());
        const scale = Math.max(1, ...ref.map(Math.abs));
        const diff = Math.max(...ref.map((v, i) => Math.abs(v - got[k]!.data[i]!)));
        expect(diff / scale).toBeLessThan(1e-4);
      });
      [x, ...expected].forEach((t) => t.dispose());
      session.dispose();
    },
  );

  it('all four models or none: a model that fails to load leaves every model on tfjs', () => {
    let loaded = 0;
    const failing: NativeRuntime = {
      dir: runtime.dir,
      load(m) {
        if (++loaded === 3) throw new Error('third model refused');
        return runtime.load(m);
      },
    };
    expect(() => runOnNative(human, failing)).toThrow('third model refused');
    for (const name of FACE_MODELS) {
      const model = human.models.models[name]!;
      expect(Object.hasOwn(model, 'execute')).toBe(false);
      expect(
        Object.values(model.weights)
          .flat()
          .some((t) => t.isDisposed),
      ).toBe(false);
    }
  });
});

// After the converter's tests, which need this Human's models on tfjs: this one swaps them for good.
describe('after the swap', () => {
  it('the tfjs weights are released, and Human analyses on the native sessions alone', async () => {
    const models = FACE_MODELS.map((name) => human.models.models[name]!);
    const weights = models.flatMap((m) => Object.values(m.weights).flat());
    const tf = human.tf as unknown as { memory(): { numTensors: number } };
    const bytes = fixture('faces', 'group.jpg');
    const analyse = () =>
      analyzeImage(human as unknown as Human, bytes, limits, { embedding: 'all' });
    const onTfjs = await analyse();
    const tensors = tf.memory().numTensors;

    runOnNative(human, runtime);
    expect(weights.length).toBeGreaterThan(400);
    expect(weights.filter((t) => !t.isDisposed)).toEqual([]);
    expect(tf.memory().numTensors).toBe(tensors - weights.length); // no other copy made or kept
    for (const m of models) expect(m.artifacts.weightData).toBeUndefined();

    // A disposed weight throws when read: every model run below is native, executeAsync too.
    const iris = human.models.models.iris!;
    const x = human.tf.tensor(new Float32Array(2 * 64 * 64 * 3), [2, 64, 64, 3], 'float32');
    const out = [await iris.executeAsync(x)].flat();
    expect(out.length).toBeGreaterThan(0);
    for (const t of out) expect(t.shape[0]).toBe(2);
    [x, ...out].forEach((t) => t.dispose());
    const onNative = await analyse();
    expect(onNative.faces.length).toBe(onTfjs.faces.length);
    const before = sorted(onTfjs);
    sorted(onNative).forEach((f, k) => {
      const g = before[k]!;
      expect(Math.max(...f.box.map((v, i) => Math.abs(v - g.box[i]!)))).toBeLessThanOrEqual(2);
      expect(cosine(f.embedding!, g.embedding!)).toBeGreaterThanOrEqual(0.9999);
    });
  });
});

/** Faces in a stable order (by box position), so the two engines' faces pair up. */
const sorted = (f: FrameAnalysis) =>
  [...f.faces].sort((a, b) => a.box[0] - b.box[0] || a.box[1] - b.box[1]);
function cosine(a: number[], b: number[]) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * b[i]!;
    na += v * v;
    nb += b[i]! ** 2;
  });
  return dot / Math.sqrt(na * nb);
}

describe('native against tfjs-wasm on the fixture faces', () => {
  const worst = { cosine: 1, earMean: 0, earEye: 0, box: 0 };
  afterAll(() => console.log('native vs wasm, worst over the fixtures:', worst));

  it.each(faceFiles)(
    '%s: same faces, boxes within 2 px, eye ratio within 0.03, description cosine >= 0.9999',
    async (file) => {
      const bytes = fixture('faces', file);
      const [n, w] = await Promise.all([native.analyze(bytes), wasm.analyze(bytes)]);
      expect(n.faces.length).toBe(w.faces.length);
      expect(n.faces.length).toBeGreaterThan(0);
      const ws = sorted(w);
      sorted(n).forEach((f: FaceObservation, k) => {
        const g = ws[k]!;
        const box = Math.max(...f.box.map((v, i) => Math.abs(v - g.box[i]!)));
        const cos = cosine(f.embedding!, g.embedding!);
        const earMean = Math.abs(f.ear.mean - g.ear.mean);
        worst.box = Math.max(worst.box, box);
        worst.cosine = Math.min(worst.cosine, cos);
        worst.earMean = Math.max(worst.earMean, earMean);
        worst.earEye = Math.max(
          worst.earEye,
          Math.abs(f.ear.left - g.ear.left),
          Math.abs(f.ear.right - g.ear.right),
        );
        expect(box).toBeLessThanOrEqual(2);
        expect(earMean).toBeLessThanOrEqual(0.03); // the blink decider reads the mean of both eyes
        expect(cos).toBeGreaterThanOrEqual(0.9999);
      });
    },
  );

  it('wasm really runs tfjs: its descriptions equal a fallback pool’s bit for bit, not native’s', async () => {
    for (const file of ['blink-open.jpg', 'person-05.jpg', 'group.jpg']) {
      const bytes = fixture('faces', file);
      const [n, w, f] = await Promise.all([
        native.analyze(bytes),
        wasm.analyze(bytes),
        fallback.analyze(bytes, { embedding: 'all' }),
      ]);
      const emb = (a: FrameAnalysis) => sorted(a).map((x) => x.embedding);
      expect(emb(w)).toEqual(emb(f)); // both tfjs-wasm: identical
      expect(emb(n)).not.toEqual(emb(w)); // onnxruntime: within 1e-4, never bit-identical
    }
  });

  it('GET /api/ready: the identity check says which backend runs the models', async () => {
    const app = Fastify({ logger: false });
    app.decorate('readiness', new Readiness());
    // The readiness check and identity-status never touch the database.
    await app.register(identityPlugin, { env: 'test', identity: native });
    await app.register(identityRoutes, {
      prefix: '/api/onboarding',
      ctx: { db: null as unknown as Db },
    });
    await app.ready();
    try {
      expect((await app.readiness.report(1000)).checks.identity).toEqual({
        ok: true,
        state: 'on-demand',
      });
      await app.inject({ method: 'GET', url: '/api/onboarding/identity-status' });
      expect((await app.readiness.report(1000)).checks.identity).toEqual({
        ok: true,
        state: 'ready',
        backend: 'onnxruntime-node',
        // The KYC selfie's challenge (issue 31): the default, this engine's settings giving none.
        challenge: 'cues,light',
      });
    } finally {
      await app.close();
    }
  });
});

describe('when onnxruntime-node cannot load', () => {
  it('auto runs tfjs-wasm in every worker and says why once per pool, not per worker', () => {
    const unavailable = fallbackEvents.filter(([e]) => e === 'native_unavailable');
    expect(unavailable).toEqual([
      [
        'native_unavailable',
        {
          reason: expect.stringMatching(/^onnxruntime-node cannot load: Cannot find module/),
          backend: 'tfjs-wasm',
        },
      ],
    ]);
    const ready = fallbackEvents.filter(([e]) => e === 'worker_ready').map(([, d]) => d.backend);
    expect(ready).toEqual(['tfjs-wasm', 'tfjs-wasm']);
    expect(fallback.stats().backend).toBe('tfjs-wasm');
  });

  it('onnx: the workers do not start, and the error gives the reason', async () => {
    const pool = new FacePool({
      size: 1,
      limits,
      taskTimeoutMs: 60_000,
      backend: 'onnx',
      onnxRuntime: '/nonexistent/onnxruntime-node',
    });
    try {
      await expect(pool.ready()).rejects.toThrow(
        /identity workers fail to start \(onnxruntime-node cannot load: Cannot find module/,
      );
    } finally {
      await pool.close();
    }
  }, 60_000);
});
