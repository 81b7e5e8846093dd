/**
 * Operators' command line for the identity engine (offline). Each command prints one JSON object.
 *
 *   npm run identity -- faces IMAGE
 *   npm run identity -- compare IMAGE_A IMAGE_B [--threshold 0.55]
 *   npm run identity -- document --front FRONT --back BACK
 *
 * Thresholds come from the environment (IDENTITY_* variables, see server/identity/config.ts).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadIdentityConfig } from '../identity/config';
import { createIdentityEngine, type IdentityEngine } from '../identity/engine';
import { IdentityError } from '../identity/errors';
import { checkGates } from '../identity/gates';

const USAGE = `Usage:
  npm run identity -- faces IMAGE
  npm run identity -- compare IMAGE_A IMAGE_B [--threshold 0.55]
  npm run identity -- document --front FRONT --back BACK`;

const round = (x: number, d = 3) => Number(x.toFixed(d));

async function faces(engine: IdentityEngine, file: string) {
  const frame = await engine.analyze(await readFile(file));
  const gates = checkGates(frame, engine.config);
  return {
    command: 'faces',
    image: { file, width: frame.width, height: frame.height, luminance: round(frame.luminance, 1) },
    faces: frame.faces.map((f) => ({
      box: { x: f.box[0], y: f.box[1], width: f.box[2], height: f.box[3] },
      score: f.score,
      eyeOpenness: { left: round(f.ear.left), right: round(f.ear.right), mean: round(f.ear.mean) },
      luminance: round(f.luminance, 1),
      embeddingLength: f.embedding?.length ?? 0,
    })),
    selfieGates: { ok: gates.ok, failed: gates.failed },
    ms: { decode: Math.round(frame.timings.decodeMs), detect: Math.round(frame.timings.detectMs) },
  };
}

async function compare(engine: IdentityEngine, a: string, b: string, threshold?: number) {
  const [ia, ib] = await Promise.all([readFile(a), readFile(b)]);
  const r = await engine.compare(ia, ib, threshold);
  return {
    command: 'compare',
    images: [a, b],
    facesFound: r.faces,
    similarity: r.similarity,
    threshold: r.threshold,
    verdict: r.similarity === null ? 'no_face' : r.match ? 'same_person' : 'different_person',
  };
}

async function document(engine: IdentityEngine, front: string, back: string) {
  const [f, b] = await Promise.all([readFile(front), readFile(back)]);
  const t0 = performance.now();
  const r = await engine.readDocument(f, b);
  return {
    command: 'document',
    ok: r.ok,
    id_data: r.idData ?? null,
    checks: r.checks,
    mrz: r.mrz ?? null,
    ocrPasses: r.passes,
    ocrPass: r.pass ?? null,
    error: r.error ?? null,
    ms: Math.round(performance.now() - t0),
  };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { front: { type: 'string' }, back: { type: 'string' }, threshold: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [command, ...files] = positionals;
  const valid =
    (command === 'faces' && files.length === 1) ||
    (command === 'compare' && files.length === 2) ||
    (command === 'document' && values.front && values.back && files.length === 0);
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (!valid || (threshold !== undefined && !(threshold >= 0 && threshold <= 1))) {
    console.error(USAGE);
    return 2;
  }
  const config = loadIdentityConfig({ IDENTITY_POOL_SIZE: '1', ...process.env });
  const engine = await createIdentityEngine(config, { ocr: command === 'document' });
  try {
    const out =
      command === 'faces'
        ? await faces(engine, files[0]!)
        : command === 'compare'
          ? await compare(engine, files[0]!, files[1]!, threshold)
          : await document(engine, values.front!, values.back!);
    console.log(JSON.stringify(out, null, 2));
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message =
      err instanceof IdentityError
        ? err.message
        : e.code === 'ENOENT'
          ? `file not found: ${e.path}`
          : String(e.message ?? err);
    console.log(JSON.stringify({ command, ok: false, error: message }));
    return 1;
  } finally {
    await engine.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
