/**
 * The exact duplicate search at national scale (issue 44): N synthetic enrolments (bench/gallery-
 * scale.ts's faces: every 100th person enrolled twice, the known duplicates) written page by page
 * into a flat int8 file (server/identity/face-flat.ts) without ever holding the gallery, then held-out
 * probes searched by the worker (face-flat-search.ts's scanner) as the background check does:
 * p50/p95 of a search, the file's build time and size, how the int8 rounding changes the 0.70
 * decision against the float exact scan (computed page by page beside the build), and a fresh
 * process's resident memory after 20 searches (VmRSS: private and file-backed), with os.loadavg()
 * beside each figure.
 *   npx tsx bench/duplicate-scale.ts 10000 100000 1000000
 *   npx tsx bench/duplicate-scale.ts --quick 10000 1000000   (time and memory only: repeated faces)
 * DUP_SCALE_PROBES (default 200) probes: a fifth of them a new capture of someone enrolled twice.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exactSearch, MetricKind } from 'usearch';
import { loadDuplicateSearchConfig } from '../server/identity/config-duplicates';
import { buildFlat, openFlat, quantise, readFlatIds } from '../server/identity/face-flat';
import { flatScanner } from '../server/identity/face-flat-search';
import { FACE_DIM as D } from '../server/identity/face-index';
import { runIfMain } from './_identity';
import { load, pct, rng, syntheticFaces } from './gallery-scale';

const T = 0.7;
const K = 8;
const PAGE = 2_000;

/** Row i's person and capture, as syntheticGallery enrols them (every 100th person twice). */
function layout(n: number) {
  const person = new Int32Array(n);
  const capture = new Uint8Array(n);
  for (let i = 0, p = 0; i < n; p++) {
    person[i++] = p;
    if (p % 100 === 99 && i < n) {
      person[i] = p;
      capture[i++] = 1;
    }
  }
  return { person, capture, people: person[n - 1]! + 1 };
}

async function scale(n: number, dir: string) {
  const q = Number(process.env.DUP_SCALE_PROBES ?? 200);
  const f = syntheticFaces(44);
  const { person, capture, people } = layout(n);
  const r = rng(4_401);
  // Probes: another capture (c = 9) of someone enrolled, of someone enrolled twice, or of nobody.
  const probes = Array.from({ length: q }, (_, k) => {
    const p =
      k % 10 === 9
        ? people + k
        : k % 5 === 0
          ? Math.min(99 + 100 * Math.floor(r.uniform() * (people / 100)), people - 1)
          : Math.floor(r.uniform() * people);
    return f.capture(f.centre(p), p, 9);
  });
  const probeMatrix = new Float32Array(q * D);
  probes.forEach((p, k) => probeMatrix.set(p, k * D));
  /** Each probe's float top rows (similarity, row) over every page so far. */
  const top = probes.map(() => [] as { row: number; s: number }[]);
  const centre = new Float32Array(D);
  let genMs = 0;
  let floatMs = 0;
  let at = 0;
  const t0 = performance.now();
  const file = await buildFlat(dir, '00000000-0000-0000-0000-000000000d44', String(n), () => {
    if (at >= n) return Promise.resolve(null);
    const end = Math.min(at + PAGE, n);
    let t = performance.now();
    const unit = new Float32Array((end - at) * D);
    for (let i = at; i < end; i++) {
      f.centre(person[i]!, centre);
      f.capture(centre, person[i]!, capture[i]!, unit.subarray((i - at) * D, (i - at + 1) * D));
    }
    genMs += performance.now() - t;
    t = performance.now();
    const count = Math.min(K, end - at);
    const m = exactSearch(unit, probeMatrix, D, count, MetricKind.IP, 0) as {
      keys: BigUint64Array;
      distances: Float32Array;
    };
    for (let k = 0; k < q; k++)
      for (let j = 0; j < count; j++)
        top[k]!.push({
          row: at + Number(m.keys[k * count + j]),
          s: 1 - m.distances[k * count + j]!,
        });
    for (const list of top) list.sort((a, b) => b.s - a.s).splice(K);
    floatMs += performance.now() - t;
    const page = { ids: Array.from({ length: end - at }, (_, i) => String(at + i + 1)), unit };
    at = end;
    return Promise.resolve(page);
  });
  const total = performance.now() - t0;
  const size = openFlat(file).rows * (D + 8) + 64;
  console.log(
    `N=${n} (${Math.floor(n / 101)} known duplicates, ${q} probes): flat file ${(size / 1048576).toFixed(1)} MB, written in ${((total - genMs - floatMs) / 1000).toFixed(1)} s (quantise + write; generating the faces ${(genMs / 1000).toFixed(1)} s, the float exact scan beside it ${(floatMs / 1000).toFixed(1)} s) [load ${load()}]`,
  );

  const cfg = loadDuplicateSearchConfig(process.env);
  const scanner = flatScanner(cfg);
  const vector = (row: number) => f.capture(f.centre(person[row]!), person[row]!, capture[row]!);
  const dot = (a: Float32Array, b: Float32Array) => {
    let s = 0;
    for (let j = 0; j < D; j++) s += a[j]! * b[j]!;
    return s;
  };
  const ms: number[] = [];
  const c = { above: 0, int8FalseMatch: 0, int8FalseNon: 0, reFalseMatch: 0, reFalseNon: 0 };
  let samePatient = 0;
  let maxErr = 0;
  await scanner.scan(file, quantise(probes[0]!), cfg.candidates, new BigInt64Array(0));
  for (let k = 0; k < q; k++) {
    const t = performance.now();
    const { hits } = await scanner.scan(
      file,
      quantise(probes[k]!),
      cfg.candidates,
      new BigInt64Array(0),
    );
    ms.push(performance.now() - t);
    const exact = top[k]![0]!;
    const floatMatch = exact.s >= T;
    const int8Match = (hits[0]?.similarity ?? -1) >= T;
    let best = { row: -1, s: -Infinity };
    for (const h of hits) {
      const row = Number(h.patientId) - 1;
      const s = dot(vector(row), probes[k]!);
      maxErr = Math.max(maxErr, Math.abs(s - h.similarity));
      if (s > best.s) best = { row, s };
    }
    const reMatch = best.s >= T;
    if (floatMatch) c.above++;
    if (int8Match && !floatMatch) c.int8FalseMatch++;
    if (!int8Match && floatMatch) c.int8FalseNon++;
    if (reMatch && !floatMatch) c.reFalseMatch++;
    if (!reMatch && floatMatch) c.reFalseNon++;
    if (floatMatch && reMatch && best.row === exact.row) samePatient++;
  }
  // Borderline probes: a row's face turned to a cosine in [0.69, 0.71] with it (the decision's edge).
  const edge = { n: 0, above: 0, int8Wrong: 0, reWrong: 0 };
  for (let k = 0; k < q / 2; k++) {
    const row = Math.floor(r.uniform() * n);
    const x = vector(row);
    const t = 0.69 + 0.02 * r.uniform();
    const w = f.capture(f.centre(people + 10_000 + k), k, 3);
    const along = dot(w, x);
    let norm = 0;
    for (let j = 0; j < D; j++) norm += (w[j]! - along * x[j]!) ** 2;
    const probe = x.map(
      (v, j) => t * v + (Math.sqrt(1 - t * t) * (w[j]! - along * v)) / Math.sqrt(norm),
    );
    const { hits } = await scanner.scan(
      file,
      quantise(probe),
      cfg.candidates,
      new BigInt64Array(0),
    );
    const truth = t >= T;
    const int8 = hits.some((h) => h.patientId === String(row + 1) && h.similarity >= T);
    const re = hits.some((h) => h.patientId === String(row + 1)) && dot(x, probe) >= T;
    edge.n++;
    if (truth) edge.above++;
    if (int8 !== truth) edge.int8Wrong++;
    if (re !== truth) edge.reWrong++;
  }
  await scanner.close();
  console.log(
    `  ${edge.n} borderline probes (cosine 0.69-0.71 with one row, ${edge.above} at or above 0.70): the int8 cosine alone decides ${edge.int8Wrong} wrongly, after the re-score ${edge.reWrong} [load ${load()}]`,
  );
  console.log(
    `  search (worker, int8, ${cfg.candidates} rows re-scored, chunks of ${cfg.chunkRows}): p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms [load ${load()}]`,
  );
  console.log(
    `  at 0.70 against the float exact scan: ${c.above}/${q} probes above; int8 alone: false match ${c.int8FalseMatch}, false non-match ${c.int8FalseNon}; after the re-score: false match ${c.reFalseMatch}, false non-match ${c.reFalseNon}, the same patient ${samePatient}/${c.above}; largest |int8 - float| cosine ${maxErr.toFixed(4)}`,
  );
  console.log(
    `  a fresh process after 20 searches: ${await childRss(file.path, n)} [load ${load()}]`,
  );
}

/**
 * A child process's memory after reading the file's ids (as the search does) and 20 scans. Each scan
 * is sent an empty mask of its own: a view of the ids would carry its whole buffer to the worker
 * (structured clone copies the buffer), 8 MB a search at 1M, which the first full run did (+67 MB).
 */
function childRss(file: string, n: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file, String(n)],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(out))));
  });
}

function memory(): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) =>
    Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return `VmRSS ${kb('VmRSS')} MB (private ${kb('RssAnon')}, file-backed ${kb('RssFile')})`;
}

async function child(filePath: string, n: number) {
  const cfg = loadDuplicateSearchConfig(process.env);
  const file = openFlat({ path: filePath, since: String(n) });
  // The search keeps the file's ids (whether a changed patient is in the file): 8 bytes a face.
  const ids = readFlatIds(file);
  const scanner = flatScanner(cfg);
  const f = syntheticFaces(44);
  for (let k = 0; k < 20; k++)
    await scanner.scan(
      file,
      quantise(f.capture(f.centre(k), k, 9)),
      cfg.candidates,
      new BigInt64Array(0),
    );
  console.log(`${memory()}, the ids ${(ids.byteLength / 1048576).toFixed(1)} MB of it`);
  await scanner.close();
}

/**
 * `--quick N`: a file of N rows cut from 2,000 synthetic faces repeated (the scan's time and memory
 * do not depend on what the rows hold), then 50 searches' p50/p95 and a fresh process's memory:
 * the figures again without the minutes of generating N distinct faces.
 */
async function quick(n: number, dir: string) {
  const f = syntheticFaces(44);
  const base = new Float32Array(PAGE * D);
  for (let i = 0; i < PAGE; i++) f.capture(f.centre(i), i, 0, base.subarray(i * D, (i + 1) * D));
  let at = 0;
  const t0 = performance.now();
  const file = await buildFlat(dir, '00000000-0000-0000-0000-000000000d45', String(n), () => {
    if (at >= n) return Promise.resolve(null);
    const end = Math.min(at + PAGE, n);
    const ids = Array.from({ length: end - at }, (_, i) => String(at + i + 1));
    at = end;
    return Promise.resolve({ ids, unit: base.subarray(0, ids.length * D) });
  });
  console.log(
    `N=${n} (quick): written in ${((performance.now() - t0) / 1000).toFixed(1)} s [load ${load()}]`,
  );
  const cfg = loadDuplicateSearchConfig(process.env);
  const scanner = flatScanner(cfg);
  const ms: number[] = [];
  for (let k = 0; k <= 50; k++) {
    const probe = quantise(f.capture(f.centre(k), k, 9));
    const t = performance.now();
    await scanner.scan(file, probe, cfg.candidates, new BigInt64Array(0));
    if (k) ms.push(performance.now() - t);
  }
  await scanner.close();
  console.log(
    `  search p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms [load ${load()}]`,
  );
  console.log(
    `  a fresh process after 20 searches: ${await childRss(file.path, n)} [load ${load()}]`,
  );
}

export async function main() {
  if (process.argv[2] === '--child') return child(process.argv[3]!, Number(process.argv[4]));
  const fast = process.argv[2] === '--quick';
  const sizes = process.argv
    .slice(fast ? 3 : 2)
    .map(Number)
    .filter(Boolean);
  for (const n of sizes.length ? sizes : [10_000]) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duplicate-scale-'));
    try {
      await (fast ? quick(n, dir) : scale(n, dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

runIfMain(import.meta.url, main);
