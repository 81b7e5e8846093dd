/**
 * Recall of the face index at the face threshold (issue 44 item 2), to choose its settings by
 * measurement: for each storage (f32, f16, i8) and connectivity M, one file built from N synthetic
 * enrolments (bench/gallery-scale.ts's clustered model: people as centres, captures as noise around
 * them, 1% enrolled twice), then for each search width ef and each number of candidates re-scored
 * exactly: recall@1 against the exact scan on held-out captures (another photo of an enrolled
 * person, 10% never-enrolled people), recall among the probes whose exact best is at or above the
 * 0.70 threshold (the ones a miss would turn away), search p50/p95, the file's size, and the load.
 * A false accept cannot be added: the answer is the best exact similarity among the candidates,
 * never above the exact scan's.
 * Random vectors (no clusters) are reported once beside it: the pessimistic case.
 *   npx tsx bench/face-index-recall.ts [N=20000] [probes=500]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFaceIndexConfig, type FaceIndexConfig } from '../server/identity/config';
import { FACE_DIM, openFile } from '../server/identity/face-index';
import { runIfMain } from './_identity';
import {
  buildSynthetic,
  exactBest,
  indexBest,
  load,
  pct,
  rng,
  syntheticGallery,
  syntheticProbes,
  type SyntheticGallery,
} from './gallery-scale';

const THRESHOLD = 0.7;

function randomGallery(n: number): SyntheticGallery {
  const r = rng(7);
  const unit = new Float32Array(n * FACE_DIM);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < FACE_DIM; j++) s += (unit[i * FACE_DIM + j] = r.normal()) ** 2;
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < FACE_DIM; j++) unit[i * FACE_DIM + j]! *= inv;
  }
  return {
    ids: Array.from({ length: n }, (_, i) => String(i + 1)),
    unit,
    person: Int32Array.from({ length: n }, (_, i) => i),
    duplicates: 0,
  };
}

/** Random probes near random rows (noise as a capture's): pessimistic, no cluster structure. */
function randomProbes(g: SyntheticGallery, count: number): Float32Array[] {
  const r = rng(8);
  return Array.from({ length: count }, () => {
    const i = Math.floor(r.uniform() * g.ids.length);
    const p = new Float32Array(FACE_DIM);
    let s = 0;
    for (let j = 0; j < FACE_DIM; j++)
      s += (p[j] = g.unit[i * FACE_DIM + j]! + 0.45 * (r.normal() / 32)) ** 2;
    for (let j = 0; j < FACE_DIM; j++) p[j]! /= Math.sqrt(s);
    return p;
  });
}

async function measure(
  label: string,
  g: SyntheticGallery,
  probes: Float32Array[],
  builds: Pick<FaceIndexConfig, 'quantization' | 'connectivity'>[],
  efs: number[],
  candidates: number[],
) {
  const base = loadFaceIndexConfig(process.env);
  const exact = probes.map((p) => exactBest(g, p));
  const above = exact.filter((e) => e.similarity >= THRESHOLD).length;
  console.log(
    `${label}: N=${g.ids.length}, ${probes.length} probes, ${above} with an exact best >= ${THRESHOLD} [load ${load()}]`,
  );
  for (const b of builds) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'face-recall-'));
    try {
      const t0 = performance.now();
      const built = await buildSynthetic(dir, g, { ...base, ...b });
      const mb = statSync(built.path).size / 1048576;
      console.log(
        `  ${b.quantization} M=${b.connectivity} ef_add=${base.efAdd}: built in ${((performance.now() - t0) / 1000).toFixed(1)} s, file ${mb.toFixed(0)} MB [load ${load()}]`,
      );
      for (const ef of efs) {
        // The search width is the mapping's setting: the same file mapped with another ef.
        const file = openFile(built, { ...base, ...b, efSearch: ef });
        for (const k of candidates) {
          const ms: number[] = [];
          let same = 0;
          let sameAbove = 0;
          let personAbove = 0;
          probes.forEach((p, i) => {
            const t = performance.now();
            const r = indexBest(file, g, p, k);
            ms.push(performance.now() - t);
            if (r.row === exact[i]!.row) same++;
            if (exact[i]!.similarity >= THRESHOLD) {
              if (r.row === exact[i]!.row) sameAbove++;
              // A person enrolled twice: the other enrolment of the same person is no miss.
              if (r.row >= 0 && g.person[r.row] === g.person[exact[i]!.row]) personAbove++;
            }
          });
          console.log(
            `    ef ${String(ef).padStart(4)} k ${String(k).padStart(3)}: recall@1 ${((100 * same) / probes.length).toFixed(1)}%, at threshold ${((100 * sameAbove) / Math.max(1, above)).toFixed(1)}% (${above - sameAbove} missed, ${above - personAbove} of them another person); p50 ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms [load ${load()}]`,
          );
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

export async function main() {
  const n = Number(process.argv[2] ?? 20_000);
  const q = Number(process.argv[3] ?? 500);
  const g = syntheticGallery(n);
  await measure(
    'clustered faces',
    g,
    syntheticProbes(g, q),
    [
      { quantization: 'f32', connectivity: 16 },
      { quantization: 'f16', connectivity: 16 },
      { quantization: 'i8', connectivity: 16 },
      { quantization: 'f16', connectivity: 32 },
      { quantization: 'i8', connectivity: 32 },
    ],
    [16, 32, 64, 128, 256],
    [1, 10],
  );
  const r = randomGallery(n);
  await measure(
    'random vectors (pessimistic)',
    r,
    randomProbes(r, q),
    [{ quantization: 'f16', connectivity: 16 }],
    [64, 256],
    [10],
  );
}

runIfMain(import.meta.url, main);
