/**
 * Whether the face index's graph reaches its faces (issue 44), on a file kept by
 * bench/gallery-scale-kept.ts: rows searched with their own stored vector (an HNSW search that
 * cannot find a row from its exact vector cannot find it from a new photo either; found = in the
 * best IDENTITY_FACE_INDEX_CANDIDATES), and, when DIR holds the serve step's exact answers, the
 * held-out genuine probes (exact best >= 0.70) whose true row the index missed, their true row
 * searched the same way. IDENTITY_FACE_INDEX_EF_SEARCH sets the width; the file is the one of
 * DIR built with the IDENTITY_FACE_INDEX_* settings.
 *   npx tsx bench/face-index-reach.ts N DIR [sample=500]
 *     `sample` rows evenly spread, one search at a time on this thread as a serving process
 *     searches (its p50/p95 beside the count); the rows not found are written to
 *     DIR/unreached-<file>-ef<ef>-sample<sample>.json.
 *   npx tsx bench/face-index-reach.ts N DIR all [ROWS]
 *     every row, or the first ROWS (batches of 1,000 searched on both cores, threads 0); the rows not found are
 *     written to DIR/unreached-<file>-ef<ef>.json (what `repair` takes), with the time a row.
 *   npx tsx bench/face-index-reach.ts N DIR repair [LIST]
 *     the repair that needs no new build setting: the file loaded, every unreached row (of `all`'s
 *     list, or of LIST: a sample's, to measure the repair without the full pass) added again
 *     under a second key of the same patient (its id + ALIAS), saved and sealed into DIR/repair/
 *     (faces.f32 and gallery.json linked), then those rows searched again; run `N DIR/repair
 *     [sample]` after it for the sample on the repaired file.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadFaceIndexConfig } from '../server/identity/config';
import {
  FACE_DIM,
  latestFile,
  newIndex,
  openFile,
  sealOf,
  searchFile,
  type FaceIndexFile,
} from '../server/identity/face-index';
import { runIfMain } from './_identity';
import { load, pct, syntheticProbes } from './gallery-scale';
import { faceRows, KEPT_DATABASE as DB, peopleOf } from './_kept';

/** A second key of a patient: its id plus 2^40 (no patient id comes near it). */
export const ALIAS = 1n << 40n;
const s1 = (ms: number) => (ms / 1000).toFixed(1);

/** The row's patient (its id, or its second key after a repair) among a search's keys. */
const hits = (keys: ArrayLike<bigint>, r: number) => {
  const id = BigInt(r + 1);
  for (let i = 0; i < keys.length; i++) if (keys[i] === id || keys[i] === id + ALIAS) return true;
  return false;
};

const unreachedFile = (dir: string, file: { path: string }, ef: number, part = '') =>
  path.join(dir, `unreached-${path.basename(file.path)}-ef${ef}${part}.json`);

/** Every row searched with its own vector, both cores; returns the rows not found. */
function searchAll(f: FaceIndexFile, n: number, dir: string, k: number): number[] {
  const read = faceRows(dir);
  const CHUNK = 1_000;
  const batch = new Float32Array(CHUNK * FACE_DIM);
  const missed: number[] = [];
  const t0 = performance.now();
  for (let at = 0; at < n; at += CHUNK) {
    const count = Math.min(CHUNK, n - at);
    for (let i = 0; i < count; i++)
      read.row(at + i, batch.subarray(i * FACE_DIM, (i + 1) * FACE_DIM));
    const m = f.index.search(batch.subarray(0, count * FACE_DIM), k, 0) as unknown as {
      keys: BigUint64Array;
    };
    for (let i = 0; i < count; i++)
      if (!hits(m.keys.subarray(i * k, (i + 1) * k), at + i)) missed.push(at + i);
    if ((at + count) % 50_000 === 0)
      console.log(
        `  ${(at + count).toLocaleString('en')} rows searched in ${s1(performance.now() - t0)} s, ${missed.length} not found [load ${load()}]`,
      );
  }
  read.close();
  const ms = performance.now() - t0;
  console.log(
    `  every row searched in ${s1(ms)} s (${((ms * 1000) / n).toFixed(0)} us a row on both cores) [load ${load()}]`,
  );
  return missed;
}

function sample(f: FaceIndexFile, n: number, dir: string, size: number, k: number, ef: number) {
  const read = faceRows(dir);
  const step = Math.floor(n / size);
  const ms: number[] = [];
  let reached = 0;
  let count = 0;
  const missed: number[] = [];
  for (let r = 7; r < n && count < size; r += step, count++) {
    const v = read.row(r);
    const t = performance.now();
    const m = f.index.search(v, Math.min(k, f.size), 1);
    ms.push(performance.now() - t);
    if (hits(m.keys, r)) reached++;
    else missed.push(r);
  }
  writeFileSync(unreachedFile(dir, f, ef, `-sample${size}`), JSON.stringify(missed));
  console.log(
    `N=${n}, ef ${ef}: ${reached} of ${count} sampled rows found by their own vector (in the best ${k}; ${count - reached} not, ${((100 * (count - reached)) / count).toFixed(2)}%); a search p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms (one thread) [load ${load()}]`,
  );
  const people = peopleOf(dir);
  const q = Number(process.env.FACE_SCALE_PROBES ?? 500);
  const exactFile = path.join(dir, `exact-${q}.json`);
  if (existsSync(exactFile)) {
    const probes = syntheticProbes({ person: Int32Array.of(people - 1) }, q);
    const exact = JSON.parse(readFileSync(exactFile, 'utf8')) as {
      row: number;
      similarity: number;
    }[];
    let missed = 0;
    let missedReached = 0;
    probes.forEach((p, i) => {
      const want = exact[i]!;
      if (want.similarity < 0.7) return;
      if (searchFile(f, p, k).some((c) => c.patientId === String(want.row + 1))) return;
      missed++;
      if (hits(f.index.search(read.row(want.row), k, 1).keys, want.row)) missedReached++;
    });
    console.log(
      `  genuine probes missed ${missed}, their true row found by its own vector in ${missedReached}`,
    );
  }
  read.close();
}

function repair(n: number, dir: string, listFile?: string) {
  const cfg = loadFaceIndexConfig(process.env);
  const found = latestFile(dir, DB, cfg)!;
  const list = JSON.parse(
    readFileSync(listFile ?? unreachedFile(dir, found, cfg.efSearch), 'utf8'),
  ) as number[];
  let t0 = performance.now();
  const index = newIndex(cfg);
  index.load(found.path);
  const loaded = performance.now() - t0;
  const read = faceRows(dir);
  const unit = new Float32Array(list.length * FACE_DIM);
  list.forEach((r, i) => read.row(r, unit.subarray(i * FACE_DIM, (i + 1) * FACE_DIM)));
  t0 = performance.now();
  if (list.length)
    index.add(
      BigUint64Array.from(list, (r) => BigInt(r + 1) + ALIAS),
      unit,
      0,
    );
  const added = performance.now() - t0;
  const out = path.join(dir, 'repair');
  mkdirSync(out, { recursive: true });
  for (const name of ['faces.f32', 'gallery.json'])
    if (!existsSync(path.join(out, name))) symlinkSync(path.join(dir, name), path.join(out, name));
  const target = path.join(out, path.basename(found.path));
  index.save(target);
  writeFileSync(`${target}.seal`, sealOf(target));
  const f = openFile({ path: target, since: found.since }, cfg);
  let now = 0;
  list.forEach((r) => {
    if (hits(f.index.search(read.row(r), cfg.candidates, 1).keys, r)) now++;
  });
  read.close();
  console.log(
    `repair N=${n}, ef ${cfg.efSearch}: ${list.length} unreached rows added again under a second key (file loaded in ${s1(loaded)} s, the rows added in ${added.toFixed(0)} ms); now ${now} of them found by their own vector; the file ${target} [load ${load()}]`,
  );
}

export async function main() {
  const [nArg, dir, mode, listFile] = process.argv.slice(2);
  const n = Number(nArg);
  const cfg = loadFaceIndexConfig(process.env);
  const found = dir ? latestFile(dir, DB, cfg) : null;
  if (!n || !dir || !found)
    throw new Error(
      'usage: N DIR [sample|all|repair] (a folder kept by gallery-scale-kept.ts build)',
    );
  if (mode === 'repair') return repair(n, dir, listFile);
  const f = openFile(found, cfg);
  console.log(
    `${path.basename(found.path)}: ${f.size.toLocaleString('en')} rows; ef_search ${cfg.efSearch}, ${cfg.candidates} candidates [load ${load()}]`,
  );
  if (mode === 'all') {
    // The first ROWS rows only (listFile's place), where every row is too long to search.
    const rowsOf = Number(listFile ?? n);
    const missed = searchAll(f, rowsOf, dir, cfg.candidates);
    writeFileSync(
      unreachedFile(dir, found, cfg.efSearch, rowsOf < n ? `-first${rowsOf}` : ''),
      JSON.stringify(missed),
    );
    console.log(
      `N=${n}, ef ${cfg.efSearch}: ${missed.length} of the first ${rowsOf} rows not found by their own vector (${((100 * missed.length) / rowsOf).toFixed(3)}%)`,
    );
    return;
  }
  sample(f, n, dir, Number(mode ?? 500), cfg.candidates, cfg.efSearch);
}

runIfMain(import.meta.url, main);
