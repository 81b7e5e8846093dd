/**
 * Whether the face index's graph reaches its faces (issue 44), on a file kept by
 * bench/gallery-scale-kept.ts: a sample of 500 rows, each searched with its own stored vector
 * (an HNSW search that cannot find a row from its exact vector cannot find it from a new photo
 * either), and the held-out genuine probes (exact best >= 0.70) whose true row the index missed,
 * their true row searched the same way. IDENTITY_FACE_INDEX_EF_SEARCH sets the width.
 *   npx tsx bench/face-index-reach.ts N DIR
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { loadFaceIndexConfig } from '../server/identity/config';
import { FACE_DIM, latestFile, openFile, searchFile } from '../server/identity/face-index';
import { runIfMain } from './_identity';
import { load, syntheticProbes } from './gallery-scale';

export async function main() {
  const n = Number(process.argv[2]);
  const dir = process.argv[3]!;
  const cfg = loadFaceIndexConfig(process.env);
  const found = latestFile(dir, '00000000-0000-0000-0000-000000000044', cfg);
  if (!n || !found) throw new Error('usage: N DIR (a folder kept by gallery-scale-kept.ts build)');
  const f = openFile(found, cfg);
  const read = (() => {
    const fd = openSync(path.join(dir, 'faces.f32'), 'r');
    const row = new Float32Array(FACE_DIM);
    return {
      row(r: number) {
        readSync(fd, new Uint8Array(row.buffer), 0, FACE_DIM * 4, r * FACE_DIM * 4);
        return row;
      },
      close: () => closeSync(fd),
    };
  })();
  const reaches = (r: number) =>
    searchFile(f, read.row(r), cfg.candidates).some((c) => c.patientId === String(r + 1));
  const { people } = JSON.parse(readFileSync(path.join(dir, 'gallery.json'), 'utf8')) as {
    people: number;
  };
  const q = Number(process.env.FACE_SCALE_PROBES ?? 500);
  const probes = syntheticProbes({ person: Int32Array.of(people - 1) }, q);
  const exactFile = path.join(dir, `exact-${q}.json`);
  const exact = JSON.parse(readFileSync(exactFile, 'utf8')) as {
    row: number;
    similarity: number;
  }[];
  let missed = 0;
  let missedReached = 0;
  probes.forEach((p, i) => {
    const want = exact[i]!;
    if (want.similarity < 0.7) return;
    if (searchFile(f, p, cfg.candidates).some((c) => c.patientId === String(want.row + 1))) return;
    missed++;
    if (reaches(want.row)) missedReached++;
  });
  const step = Math.floor(n / 500);
  let sample = 0;
  let reached = 0;
  for (let r = 7; r < n && sample < 500; r += step, sample++) if (reaches(r)) reached++;
  read.close();
  console.log(
    `N=${n}, ef ${cfg.efSearch}: ${reached} of ${sample} sampled rows found by their own vector (in the best ${cfg.candidates}); genuine probes missed ${missed}, their true row found by its own vector in ${missedReached} [load ${load()}]`,
  );
}

runIfMain(import.meta.url, main);
