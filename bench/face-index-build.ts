/**
 * How fast the face index's file builds (issue 44): one synthetic gallery (bench/gallery-scale.ts's
 * model), built again with each way of feeding usearch: the server's (batches of 64 rows, threads
 * 0 = one per core, in buildFile's worker thread since 2026-11-29) against larger batches and
 * explicit threads; for each, the build time, what it costs this thread's event loop (perf_hooks'
 * delay histogram while it runs: the longest a timer waited), and the recall of the file (recall@1 against usearch's exact
 * search over the same vectors, overall and among probes at or above 0.70), so a faster build is
 * taken only with the same recall. Rounds interleave the variants (the load moves).
 *   npx tsx bench/face-index-build.ts [N=20000] [rounds=2] [variants=64:0,1000:0,10000:0,64:2]
 * Variants are batch:threads. FACE_SCALE_PROBES (default 500) held-out probes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { exactSearch, MetricKind } from 'usearch';
import { loadFaceIndexConfig } from '../server/identity/config';
import { FACE_DIM, openFile } from '../server/identity/face-index';
import { runIfMain } from './_identity';
import {
  buildSynthetic,
  indexBest,
  load,
  syntheticGallery,
  syntheticProbes,
} from './gallery-scale';

export async function main() {
  const n = Number(process.argv[2] ?? 20_000);
  const rounds = Number(process.argv[3] ?? 2);
  const variants = (process.argv[4] ?? '64:0,1000:0,10000:0,64:2').split(',').map((v) => {
    const [batch, threads] = v.split(':').map(Number);
    return { batch: batch!, threads: threads ?? 0 };
  });
  const q = Number(process.env.FACE_SCALE_PROBES ?? 500);
  const cfg = loadFaceIndexConfig(process.env);
  let t0 = performance.now();
  const g = syntheticGallery(n);
  const probes = syntheticProbes(g, q);
  console.log(
    `N=${n}: generated in ${Math.round(performance.now() - t0)} ms; ${q} probes; ${cfg.quantization}, M ${cfg.connectivity}, ef_add ${cfg.efAdd}, ef_search ${cfg.efSearch}, ${cfg.candidates} re-scored; ${os.cpus().length} cores [load ${load()}]`,
  );
  const exact = probes.map((p) => {
    const m = exactSearch(g.unit, p, FACE_DIM, 1, MetricKind.IP, 0) as {
      keys: BigUint64Array;
      distances: Float32Array;
    };
    return { row: Number(m.keys[0]), similarity: 1 - m.distances[0]! };
  });
  const above = exact.filter((e) => e.similarity >= 0.7).length;
  for (let round = 1; round <= rounds; round++) {
    for (const v of variants) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'face-index-build-'));
      try {
        const h = monitorEventLoopDelay({ resolution: 1 });
        const before = load();
        h.enable();
        t0 = performance.now();
        const built = await buildSynthetic(dir, g, cfg, v);
        const ms = performance.now() - t0;
        h.disable();
        const file = openFile(built, cfg);
        let same = 0;
        let sameAbove = 0;
        probes.forEach((p, i) => {
          const r = indexBest(file, g, p, cfg.candidates);
          if (r.row === exact[i]!.row) {
            same++;
            if (exact[i]!.similarity >= 0.7) sameAbove++;
          }
        });
        console.log(
          `  round ${round}, batch ${v.batch}, threads ${v.threads}: build ${(ms / 1000).toFixed(1)} s (${((ms * 1000) / n).toFixed(0)} us a row); event loop delay max ${(h.max / 1e6).toFixed(0)} ms, p99.9 ${(h.percentile(99.9) / 1e6).toFixed(0)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms, mean ${(h.mean / 1e6).toFixed(1)} ms; recall@1 ${((100 * same) / q).toFixed(1)}% (${same}/${q}), at 0.70 ${sameAbove}/${above} [load ${before} -> ${load()}]`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

runIfMain(import.meta.url, main);
