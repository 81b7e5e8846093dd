/**
 * The 1:N gallery at scale (issue 44 item 5): N synthetic enrolments (1% of people enrolled twice
 * under two patient ids: known duplicates), then today's linear scan and the face index side by
 * side: search p50/p95 per probe, recall@1 of the index (after the exact re-score of its
 * candidates) against the exact scan on held-out captures, resident memory of a process that
 * serves searches (a fresh child process each: the scan's Float32 gallery, the index's mapped
 * file), build time, start-up time with the file present (seal check + map + first search), with
 * os.loadavg() beside every figure.
 *   npx tsx bench/gallery-scale.ts 10000 [100000 ...]
 *   npx tsx bench/gallery-scale.ts --sweep FILE N [ef,...]   (search widths on a kept file)
 *   npx tsx bench/gallery-scale.ts --db [N]                  (start-up from PGlite)
 * Settings from the environment as the server reads them (IDENTITY_FACE_INDEX_*; defaults of
 * server/identity/config.ts). FACE_SCALE_PROBES (default 500) held-out probes.
 *
 * The synthetic faces (`syntheticFaces`): real descriptions cluster, random vectors do not
 * (docs/measurements.md: Human's impostor pairs reach 0.635, genuine pairs 0.787 and more). A
 * person's centre is unit(0.55 m + 0.45 g_k + 0.70 z): m a mean shared by everyone, g_k one of 32
 * group directions (k = person mod 32), z the person's own direction, all random unit vectors in
 * 1024-d; two people of one group are about 0.50 alike, of two groups about 0.30 (the fixtures'
 * impostors: up to 0.635). A capture is unit(centre + s w), w a random unit vector, s uniform in
 * [0.30, 0.60]: two captures of one person are 0.74-0.92 alike (the fixtures' genuine pairs from
 * 0.787), so some genuine probes fall under the 0.70 threshold as real ones do.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFaceIndexConfig, type FaceIndexConfig } from '../server/identity/config';
import { exactSearch, MetricKind } from 'usearch';
import { openDb } from '../server/db/client';
import {
  buildFile,
  FACE_DIM,
  openFile,
  searchFile,
  type BuildOptions,
} from '../server/identity/face-index';
import { createFaceIndex } from '../server/identity/face-index-sync';
import { silentLog } from '../server/identity/log';
import { enrollFace, loadGallery } from '../server/identity/store';
import { runIfMain } from './_identity';
import { seedRandomEnrolments } from './gallery-load';

const D = FACE_DIM;
const GROUPS = 32;

/** Seeded uniform [0, 1) (mulberry32) and normal deviates (Box-Muller). */
export function rng(seed: number) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () =>
    Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let j = 0; j < v.length; j++) n += v[j]! * v[j]!;
  const inv = 1 / Math.sqrt(n);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
  return v;
}

function randomUnit(r: ReturnType<typeof rng>, out = new Float32Array(D)): Float32Array {
  for (let j = 0; j < D; j++) out[j] = r.normal();
  return normalise(out);
}

/** The population model above: people's centres and captures of them, reproducible by seed. */
export function syntheticFaces(seed = 44) {
  const r = rng(seed);
  const mean = randomUnit(r);
  const groups = Array.from({ length: GROUPS }, () => randomUnit(r));
  const own = new Float32Array(D);
  return {
    /** Person p's centre. */
    centre(p: number, out = new Float32Array(D)): Float32Array {
      randomUnit(rng(seed * 1_000_003 + p), own);
      const g = groups[p % GROUPS]!;
      for (let j = 0; j < D; j++) out[j] = 0.55 * mean[j]! + 0.45 * g[j]! + 0.7 * own[j]!;
      return normalise(out);
    },
    /** Capture c of a centre (a different c is a different photo of the person). */
    capture(centre: Float32Array, p: number, c: number, out = new Float32Array(D)): Float32Array {
      const cr = rng((seed * 7_919 + p) * 131 + c);
      const s = 0.3 + 0.3 * cr.uniform();
      const w = randomUnit(cr);
      for (let j = 0; j < D; j++) out[j] = centre[j]! + s * w[j]!;
      return normalise(out);
    },
  };
}

export type SyntheticGallery = {
  /** Patient ids (1..), one row each of `unit`. */
  ids: string[];
  unit: Float32Array;
  /** The person of each row (a duplicate's two rows share one). */
  person: Int32Array;
  /** Rows that are a second enrolment of someone already enrolled. */
  duplicates: number;
};

/** N enrolments: people 0..; every 100th person is enrolled a second time (another capture). */
export function syntheticGallery(n: number, seed = 44): SyntheticGallery {
  const f = syntheticFaces(seed);
  const unit = new Float32Array(n * D);
  const person = new Int32Array(n);
  const centre = new Float32Array(D);
  let p = 0;
  let duplicates = 0;
  for (let i = 0; i < n;) {
    f.centre(p, centre);
    f.capture(centre, p, 0, unit.subarray(i * D, (i + 1) * D));
    person[i++] = p;
    if (p % 100 === 99 && i < n) {
      f.capture(centre, p, 1, unit.subarray(i * D, (i + 1) * D));
      person[i++] = p;
      duplicates++;
    }
    p++;
  }
  return { ids: Array.from({ length: n }, (_, i) => String(i + 1)), unit, person, duplicates };
}

/** Held-out probes: a new capture (c = 9) of enrolled people, and a few people never enrolled. */
export function syntheticProbes(
  g: Pick<SyntheticGallery, 'person'>,
  count: number,
  seed = 44,
): Float32Array[] {
  const f = syntheticFaces(seed);
  const r = rng(seed + 1);
  const people = g.person[g.person.length - 1]! + 1;
  return Array.from({ length: count }, (_, q) => {
    const p = q % 10 === 9 ? people + q : Math.floor(r.uniform() * people);
    return f.capture(f.centre(p), p, 9);
  });
}

/** Today's search: every row's dot product with the unit probe. */
export function exactBest(g: { unit: Float32Array; ids: string[] }, probe: Float32Array) {
  let best = -Infinity;
  let bestI = -1;
  const n = g.ids.length;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    const off = i * D;
    for (let j = 0; j < D; j++) dot += g.unit[off + j]! * probe[j]!;
    if (dot > best) {
      best = dot;
      bestI = i;
    }
  }
  return { row: bestI, similarity: best };
}

/** The index's answer: its candidates re-scored exactly (here from the bench's vectors). */
export function indexBest(
  file: Parameters<typeof searchFile>[0],
  g: { unit: Float32Array },
  probe: Float32Array,
  candidates: number,
) {
  let best = -Infinity;
  let bestI = -1;
  for (const c of searchFile(file, probe, candidates)) {
    const i = Number(c.patientId) - 1;
    let dot = 0;
    for (let j = 0; j < D; j++) dot += g.unit[i * D + j]! * probe[j]!;
    if (dot > best) {
      best = dot;
      bestI = i;
    }
  }
  return { row: bestI, similarity: best };
}

export const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/**
 * Builds a file from a synthetic gallery (pages of 2,000 as the server reads them, or of `batch`
 * rows when larger, so a batch is never cut by a page).
 */
export async function buildSynthetic(
  dir: string,
  g: SyntheticGallery,
  cfg: FaceIndexConfig,
  opts: BuildOptions = {},
) {
  const pageRows = Math.max(2000, opts.batch ?? 0);
  let at = 0;
  return buildFile(
    dir,
    '00000000-0000-0000-0000-000000000044',
    String(g.ids.length),
    cfg,
    () => {
      if (at >= g.ids.length) return Promise.resolve(null);
      const end = Math.min(at + pageRows, g.ids.length);
      const page = { ids: g.ids.slice(at, end), unit: g.unit.subarray(at * D, end * D) };
      at = end;
      return Promise.resolve(page);
    },
    opts,
  );
}

/** A child process's resident memory (VmRSS, MB) after `mode` and a few searches. */
function childRss(mode: 'scan' | 'index', n: number, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, String(n), file],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(out))));
  });
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1048576);
/** VmRSS, and of it the private (RssAnon) and the file-backed, shared (RssFile) part, MB. */
function memory(): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) =>
    Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return `rss ${kb('VmRSS')} MB (private ${kb('RssAnon')}, file-backed ${kb('RssFile')})`;
}

/** In a child: the memory a serving process holds (the scan's gallery, or the mapped file). */
async function child(mode: string, n: number, file: string) {
  const before = rssMb();
  const probes = syntheticProbes(syntheticGallery(Math.min(n, 1000)), 20);
  const t0 = performance.now();
  if (mode === 'scan') {
    const g = syntheticGallery(n);
    const gen = performance.now() - t0;
    global.gc?.();
    for (const p of probes) exactBest(g, p);
    console.log(
      `${memory()}, ${before} MB before (gallery ${Math.round((n * D * 4) / 1048576)} MB, generated in ${Math.round(gen)} ms)`,
    );
  } else {
    const cfg = loadFaceIndexConfig(process.env);
    const f = openFile({ path: file, since: String(n) }, cfg);
    const opened = performance.now() - t0;
    searchFile(f, probes[0]!, cfg.candidates);
    const first = performance.now() - t0;
    for (const p of probes) searchFile(f, p, cfg.candidates);
    console.log(
      `${memory()}, ${before} MB before; seal check + map ${Math.round(opened)} ms, first search at ${Math.round(first)} ms`,
    );
  }
}

async function scale(n: number) {
  const cfg = loadFaceIndexConfig(process.env);
  const q = Number(process.env.FACE_SCALE_PROBES ?? 500);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gallery-scale-'));
  try {
    let t0 = performance.now();
    const g = syntheticGallery(n);
    const probes = syntheticProbes(g, q);
    console.log(
      `N=${n}: generated in ${Math.round(performance.now() - t0)} ms, ${g.duplicates} known duplicates, ${q} probes [load ${load()}]`,
    );
    const scanMs: number[] = [];
    const exact = probes.map((p) => {
      const t = performance.now();
      const r = exactBest(g, p);
      scanMs.push(performance.now() - t);
      return r;
    });
    console.log(
      `  linear scan: p50 ${pct(scanMs, 50).toFixed(2)} ms, p95 ${pct(scanMs, 95).toFixed(2)} ms [load ${load()}]`,
    );

    t0 = performance.now();
    const built = await buildSynthetic(dir, g, cfg);
    const buildMs = performance.now() - t0;
    console.log(
      `  index build (${cfg.quantization}, M ${cfg.connectivity}, ef_add ${cfg.efAdd}, both cores): ${(buildMs / 1000).toFixed(1)} s [load ${load()}]`,
    );
    const file = openFile(built, cfg);
    const idxMs: number[] = [];
    let same = 0;
    let sameAbove = 0;
    let personAbove = 0;
    let above = 0;
    for (let i = 0; i < probes.length; i++) {
      const t = performance.now();
      const r = indexBest(file, g, probes[i]!, cfg.candidates);
      idxMs.push(performance.now() - t);
      if (r.row === exact[i]!.row) same++;
      if (exact[i]!.similarity >= 0.7) {
        above++;
        if (r.row === exact[i]!.row) sameAbove++;
        if (r.row >= 0 && g.person[r.row] === g.person[exact[i]!.row]) personAbove++;
      }
    }
    console.log(
      `  index search (ef ${cfg.efSearch}, ${cfg.candidates} candidates re-scored): p50 ${pct(idxMs, 50).toFixed(2)} ms, p95 ${pct(idxMs, 95).toFixed(2)} ms; recall@1 vs exact ${((100 * same) / q).toFixed(1)}% (${same}/${q}), at the 0.70 threshold ${((100 * sameAbove) / Math.max(above, 1)).toFixed(1)}% (${sameAbove}/${above}; the same person ${personAbove}/${above}) [load ${load()}]`,
    );
    console.log(`  scan process: ${await childRss('scan', n, built.path)} [load ${load()}]`);
    console.log(`  index process: ${await childRss('index', n, built.path)} [load ${load()}]`);
  } finally {
    if (process.env.FACE_SCALE_KEEP === '1') console.log(`  kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--sweep FILE N [ef,...]`: the search widths on a file built by this bench for N (kept with
 * FACE_SCALE_KEEP=1), exact answers from usearch's exact search (SIMD) over the same vectors.
 */
async function sweep(filePath: string, n: number, efs: number[]) {
  const base = loadFaceIndexConfig(process.env);
  const q = Number(process.env.FACE_SCALE_PROBES ?? 500);
  let t0 = performance.now();
  const g = syntheticGallery(n);
  const probes = syntheticProbes(g, q);
  console.log(
    `sweep N=${n}: generated in ${Math.round(performance.now() - t0)} ms [load ${load()}]`,
  );
  t0 = performance.now();
  const exact = probes.map((p) => {
    const m = exactSearch(g.unit, p, D, 1, MetricKind.IP, 0) as {
      keys: BigUint64Array;
      distances: Float32Array;
    };
    return { row: Number(m.keys[0]), similarity: 1 - m.distances[0]! };
  });
  console.log(
    `  exact (usearch SIMD, 2 threads): ${((performance.now() - t0) / q).toFixed(1)} ms a probe [load ${load()}]`,
  );
  const above = exact.filter((e) => e.similarity >= 0.7).length;
  for (const ef of efs) {
    const file = openFile({ path: filePath, since: String(n) }, { ...base, efSearch: ef });
    const ms: number[] = [];
    let same = 0;
    let sameAbove = 0;
    probes.forEach((p, i) => {
      const t = performance.now();
      const r = indexBest(file, g, p, base.candidates);
      ms.push(performance.now() - t);
      if (r.row === exact[i]!.row) {
        same++;
        if (exact[i]!.similarity >= 0.7) sameAbove++;
      }
    });
    console.log(
      `  ef ${ef}: recall@1 ${((100 * same) / q).toFixed(1)}%, at threshold ${((100 * sameAbove) / Math.max(1, above)).toFixed(1)}% (${above - sameAbove} of ${above} missed); p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms [load ${load()}]`,
    );
  }
}

/**
 * Start-up from the database (`--db N`, PGlite in this process): today's first full gallery load,
 * the index's first sync without a file (it builds one), and a new instance's first sync with the
 * file present (what a process pays at start), then an enrolment seen by the next poll.
 */
async function fromDatabase(n: number) {
  const cfg = { ...loadFaceIndexConfig(process.env), minRows: 0 };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gallery-scale-db-'));
  const db = await openDb({ memory: true });
  try {
    let t0 = performance.now();
    await seedRandomEnrolments(db, n);
    console.log(
      `N=${n} in PGlite (random vectors): seeded in ${Math.round(performance.now() - t0)} ms [load ${load()}]`,
    );
    t0 = performance.now();
    const g = await loadGallery(db, null);
    console.log(
      `  linear scan, first load: ${Math.round(performance.now() - t0)} ms for ${g.ids.length} [load ${load()}]`,
    );
    const index = createFaceIndex({ config: { ...cfg, dir }, log: silentLog });
    t0 = performance.now();
    const built = await index.sync(db);
    console.log(
      `  index, first sync without a file (builds it): ${Math.round(performance.now() - t0)} ms, file ${built.file} [load ${load()}]`,
    );
    index.close();
    const again = createFaceIndex({ config: { ...cfg, dir }, log: silentLog });
    t0 = performance.now();
    const s = await again.sync(db);
    console.log(
      `  index, first sync with the file present (start-up): ${Math.round(performance.now() - t0)} ms, ${s.enrolled} enrolled [load ${load()}]`,
    );
    t0 = performance.now();
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ('9999999', 'P', 'Q', 'x') RETURNING id::text AS id`,
    );
    await enrollFace(
      db,
      rows[0]!.id,
      Array.from({ length: 1024 }, () => Math.random() - 0.5),
    );
    const polled = await again.sync(db);
    console.log(
      `  an enrolment, then a poll: ${Math.round(performance.now() - t0)} ms, ${polled.fetched} row read [load ${load()}]`,
    );
    again.close();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main() {
  if (process.argv[2] === '--child')
    return child(process.argv[3]!, Number(process.argv[4]), process.argv[5]!);
  if (process.argv[2] === '--sweep')
    return sweep(
      process.argv[3]!,
      Number(process.argv[4]),
      (process.argv[5] ?? '128,256,512').split(',').map(Number),
    );
  if (process.argv[2] === '--db') return fromDatabase(Number(process.argv[3] ?? 10_000));
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  for (const n of sizes.length ? sizes : [10_000]) await scale(n);
}

runIfMain(import.meta.url, main);
