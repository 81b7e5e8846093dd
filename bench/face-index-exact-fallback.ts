/**
 * Recall of identify at national scale with the exact flat file behind the face index (issue 44
 * item 2; identification.ts, IDENTITY_FACE_INDEX_EXACT_BELOW_THRESHOLD): on a folder kept by
 * bench/gallery-scale-kept.ts (its HNSW file, faces.f32, the exact answers), each held-out probe is
 * searched as identify searches it: the index's best IDENTITY_FACE_INDEX_CANDIDATES re-scored from
 * faces.f32 (the server re-scores from the database); when that best is under 0.70, the int8 flat
 * file (built here once from faces.f32, kept in DIR/flat) scanned by the server's worker thread
 * (flatScanner), its best IDENTITY_DUPLICATE_CANDIDATES re-scored. Prints recall@1 at 0.70 of the
 * index alone and with the flat file, how many probes paid the flat scan and its p50 / p95, any
 * answer at 0.70 or more that is not the exact best (a false accept would show there), and the load.
 *   npx tsx bench/face-index-exact-fallback.ts N DIR
 * Settings from the environment (IDENTITY_FACE_INDEX_*: a folder built with M 32 needs
 * IDENTITY_FACE_INDEX_CONNECTIVITY=32); FACE_SCALE_PROBES (default 500).
 */
import path from 'node:path';
import { loadFaceIndexConfig } from '../server/identity/config';
import { loadDuplicateSearchConfig } from '../server/identity/config-duplicates';
import { buildFlat, latestFlat, openFlat, quantise } from '../server/identity/face-flat';
import { flatScanner } from '../server/identity/face-flat-search';
import { latestFile, openFile, searchFile } from '../server/identity/face-index';
import { runIfMain } from './_identity';
import { load, pct, syntheticProbes } from './gallery-scale';
import { faceRows, KEPT_DATABASE as DB, KEPT_PAGE as PAGE, peopleOf } from './_kept';
import { exactAnswers } from './gallery-scale-kept';

const T = 0.7;
const q = Number(process.env.FACE_SCALE_PROBES ?? 500);

/** The flat file of DIR's faces (rows 1..N as patient ids), built once. */
async function flatOf(n: number, dir: string) {
  const flatDir = path.join(dir, 'flat');
  const kept = latestFlat(flatDir, DB);
  if (kept?.since === String(n)) return openFlat(kept);
  const t0 = performance.now();
  const faces = faceRows(dir);
  let at = 0;
  try {
    const file = await buildFlat(flatDir, DB, String(n), () => {
      if (at >= n) return Promise.resolve(null);
      const count = Math.min(PAGE, n - at);
      const unit = faces.rows(at, count);
      const ids = Array.from({ length: count }, (_, i) => String(at + i + 1));
      at += count;
      return Promise.resolve({ ids, unit });
    });
    console.log(
      `  flat file built from faces.f32: ${((performance.now() - t0) / 1000).toFixed(1)} s [load ${load()}]`,
    );
    return file;
  } finally {
    faces.close();
  }
}

async function main() {
  const n = Number(process.argv[2]);
  const dir = process.argv[3];
  if (!n || !dir) throw new Error('usage: N DIR');
  const cfg = loadFaceIndexConfig(process.env);
  const dup = loadDuplicateSearchConfig(process.env);
  const probes = syntheticProbes({ person: Int32Array.of(peopleOf(dir) - 1) }, q);
  const exact = exactAnswers(n, dir, probes);
  const found = latestFile(dir, DB, cfg);
  if (!found || found.since !== String(n)) throw new Error(`no index file for ${n} in ${dir}`);
  const index = openFile(found, cfg);
  const flat = await flatOf(n, dir);
  const scanner = flatScanner(dup);
  const faces = faceRows(dir);
  console.log(
    `N=${n}: index M ${cfg.connectivity}, ef ${cfg.efSearch}, ${cfg.candidates} re-scored; flat file ${flat.rows} rows, best ${dup.candidates} re-scored; ${q} probes [load ${load()}]`,
  );
  const above = exact.filter((e) => e.similarity >= T).length;
  let alone = 0;
  let withFlat = 0;
  let wrongAccept = 0;
  const scanMs: number[] = [];
  const totalMs: number[] = [];
  await scanner.scan(flat, quantise(probes[0]!), dup.candidates, new BigInt64Array(0));
  try {
    for (let i = 0; i < q; i++) {
      const p = probes[i]!;
      const t = performance.now();
      let best = faces.best(
        searchFile(index, p, cfg.candidates).map((c) => c.patientId),
        p,
      );
      const truth = exact[i]!;
      if (truth.similarity >= T && best.row === truth.row) alone++;
      if (best.similarity < T) {
        const ts = performance.now();
        const { hits } = await scanner.scan(
          flat,
          quantise(p),
          dup.candidates,
          new BigInt64Array(0),
        );
        scanMs.push(performance.now() - ts);
        const viaFlat = faces.best(
          hits.map((h) => h.patientId),
          p,
        );
        if (viaFlat.similarity >= T) best = viaFlat;
      }
      totalMs.push(performance.now() - t);
      if (truth.similarity >= T && best.row === truth.row) withFlat++;
      if (best.similarity >= T && best.row !== truth.row && best.similarity < truth.similarity)
        wrongAccept++;
    }
  } finally {
    faces.close();
  }
  const share = (k: number) => `${((100 * k) / Math.max(1, above)).toFixed(1)}% (${k}/${above})`;
  console.log(`  recall@1 at 0.70, index alone: ${share(alone)}`);
  console.log(`  recall@1 at 0.70, with the flat file under the threshold: ${share(withFlat)}`);
  console.log(
    `  flat scans: ${scanMs.length} of ${q} probes (every answer under 0.70), p50 ${pct(scanMs, 50).toFixed(0)} ms, p95 ${pct(scanMs, 95).toFixed(0)} ms; identify p50 ${pct(totalMs, 50).toFixed(1)} ms, p95 ${pct(totalMs, 95).toFixed(1)} ms; answers at 0.70 that are not the exact best: ${wrongAccept} [load ${load()}]`,
  );
}

runIfMain(import.meta.url, main);
