import type { Db } from '../db/client';
import type { IdentityConfig } from './config';
import { describeMain } from './faces';
import { checkGates, type GateResult } from './gates';
import { flatBestMatch } from './duplicates-face';
import type { FlatSearch } from './face-flat-search';
import { createFaceIndex, type FaceIndex } from './face-index-sync';
import { checkUpload, type ImageLimits } from './image';
import { ms, type IdentityLog } from './log';
import { withTimeout } from '../timeout';
import type { FacePool } from './pool';
import * as store from './store';
import { cosineSimilarity, noInsight, type EngineInsight, type FrameAnalysis } from './types';

/** Exact searches identify may have running at once (createIdentification's exactInFlight). */
const EXACT_IN_FLIGHT = 1;

/**
 * Identification: 1:N search of a face among enrolled patients (the kiosk), and the CLI's and
 * calibration's face analysis and 1:1 comparison.
 */
type CompareResult = {
  similarity: number | null;
  threshold: number;
  match: boolean;
  faces: [number, number];
};
type IdentifyResult = {
  match: { patientId: string; similarity: number } | null;
  best: { patientId: string; similarity: number } | null;
  threshold: number;
  gates: GateResult['failed'];
  feedback: string[];
};

export interface Identification {
  /** Detect and describe every face of an image (CLI, calibration). */
  analyze(image: Uint8Array, options?: { embedding?: boolean }): Promise<FrameAnalysis>;
  /** 1:1 comparison of the main face of two images. */
  compare(a: Uint8Array, b: Uint8Array, threshold?: number): Promise<CompareResult>;
  /** 1:N search of the frame's face (or of a description already made) among enrolled patients. */
  identify(db: Db, frame: Uint8Array | { embedding: ArrayLike<number> }): Promise<IdentifyResult>;
  /**
   * Brings the 1:N gallery up to date with `db` (a full read the first time, then only the rows
   * written since), so that the next identify does not pay the full read; the load on stats.
   */
  refreshGallery(db: Db): Promise<{ enrolled: number; full: boolean; fetched: number }>;
}

export function createIdentification(deps: {
  config: IdentityConfig;
  pool: FacePool;
  limits: ImageLimits;
  log: IdentityLog;
  /** Where decisions are reported (journey insight); none by default. */
  insight?: EngineInsight;
  /** The 1:N face index (issue 44); by default made from config.faceIndex (`scan`: none). */
  faceIndex?: FaceIndex | null;
  /**
   * The exact flat search (the duplicate search's, face-flat-search.ts), searched when the index's
   * best is under the threshold (config.faceIndex.exactBelowThreshold): none, the index alone.
   */
  exact?: FlatSearch | null;
}): Identification {
  const { config, pool, limits, log } = deps;
  const indexConfig = config.faceIndex;
  const faceIndex =
    deps.faceIndex !== undefined
      ? deps.faceIndex
      : indexConfig?.mode === 'hnsw'
        ? createFaceIndex({ config: indexConfig, log })
        : null;
  const exact =
    faceIndex && indexConfig?.exactBelowThreshold !== false ? (deps.exact ?? null) : null;
  /**
   * Exact searches started and not settled (a timed-out one goes on in the flat search's thread).
   * At most EXACT_IN_FLIGHT: past it identify answers from the index alone, so a stream of faces
   * nobody enrolled never queues scans behind each other, or registration's duplicate check
   * behind them (it shares the thread).
   */
  let exactInFlight = 0;
  /** The enrolled faces: read in full once, then only the rows written since the last load. */
  let gallery: store.Gallery | null = null;
  /** Loads run one after the other: each merges into the gallery the previous one left. */
  let loading: Promise<unknown> = Promise.resolve();
  const refresh = (db: Db): Promise<store.Gallery> => {
    const next = loading.then(async () => (gallery = await store.loadGallery(db, gallery)));
    loading = next.catch(() => {});
    return next;
  };

  return {
    analyze(image, opts = {}) {
      checkUpload(image, limits);
      return pool.analyze(image, { embedding: opts.embedding === false ? 'none' : 'all' });
    },

    async compare(a, b, threshold = config.matchThreshold) {
      const [ra, rb] = await Promise.all([
        describeMain(pool, limits, a),
        describeMain(pool, limits, b),
      ]);
      const similarity =
        ra.face?.embedding && rb.face?.embedding
          ? cosineSimilarity(ra.face.embedding, rb.face.embedding)
          : null;
      return {
        similarity: similarity === null ? null : Number(similarity.toFixed(4)),
        threshold,
        match: similarity !== null && similarity >= threshold,
        faces: [ra.frame.faces.length, rb.frame.faces.length],
      };
    },

    async identify(db, input) {
      const tStart = performance.now();
      const threshold = config.matchThreshold;
      let probe: ArrayLike<number>;
      if ('embedding' in input) probe = input.embedding;
      else {
        checkUpload(input, limits);
        const frame = await pool.analyze(input, { embedding: 'all', maxSide: 640 });
        const gates = checkGates(frame, config);
        if (!gates.ok || !gates.face.embedding) {
          return { match: null, best: null, threshold, gates: gates.failed, feedback: gates.hints };
        }
        probe = gates.face.embedding;
      }
      const searched = faceIndex
        ? await searchIndex(faceIndex, db, probe, indexConfig?.candidates ?? 10)
        : await refresh(db).then((g) => ({
            found: store.searchGallery(g, probe),
            enrolled: g.ids.length,
            galleryRows: g.last.fetched,
          }));
      const { enrolled, galleryRows } = searched;
      let { found } = searched;
      // Under the threshold, the graph may not have reached the face (issue 44: 5.6% of a 1M
      // graph's rows): the exact flat file answers. Only a match above the threshold replaces the
      // index's answer, re-scored against the database like it.
      const tExact = performance.now();
      const exactWanted = Boolean(exact) && !(found && found.similarity >= threshold);
      const exactUsed = exactWanted && exactInFlight < EXACT_IN_FLIGHT;
      let exactFailed: string | null = exactWanted && !exactUsed ? 'busy' : null;
      if (exactUsed) {
        exactInFlight++;
        const search = flatBestMatch(db, exact!, probe, threshold).finally(() => exactInFlight--);
        try {
          const hit = await withTimeout(search, indexConfig?.exactTimeoutMs ?? 2_000);
          if (hit) found = hit;
        } catch (err) {
          // The kiosk never waits on the file's build or a failed scan: the index's answer stands.
          exactFailed = err instanceof Error ? err.message : String(err);
          search.catch(() => {});
        }
      }
      const best = found && {
        patientId: found.patientId,
        similarity: Number(found.similarity.toFixed(4)),
      };
      const match = best && best.similarity >= threshold ? best : null;
      log.info({
        event: 'identify',
        enrolled,
        galleryRows,
        best: best?.similarity ?? null,
        threshold,
        matched: Boolean(match),
        ...(exactUsed ? { exactMs: ms(tExact) } : {}),
        ...(exactFailed ? { exactFailed } : {}),
        ms: ms(tStart),
      });
      (deps.insight ?? noInsight).record({
        flow: 'faceLogin',
        step: 'recognition',
        outcome: match ? 'passed' : 'failed',
        ...(match ? {} : { error: 'not_recognised' as const }),
        durationMs: performance.now() - tStart,
      });
      return { match, best, threshold, gates: [], feedback: [] };
    },

    async refreshGallery(db) {
      if (faceIndex) {
        const s = await faceIndex.sync(db);
        return { enrolled: s.enrolled, full: s.full, fetched: s.fetched };
      }
      const g = await refresh(db);
      return { enrolled: g.ids.length, ...g.last };
    },
  };
}

/**
 * 1:N through the face index: brought up to date (one small statement), its best candidates
 * re-scored exactly against the database's vectors (a candidate no longer enrolled drops out).
 */
async function searchIndex(
  index: FaceIndex,
  db: Db,
  probe: ArrayLike<number>,
  candidates: number,
): Promise<{
  found: { patientId: string; similarity: number } | null;
  enrolled: number;
  galleryRows: number;
}> {
  const stats = await index.sync(db);
  const unit = new Float32Array(probe.length);
  let n = 0;
  for (let j = 0; j < probe.length; j++) n += probe[j]! * probe[j]!;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let j = 0; j < probe.length; j++) unit[j] = probe[j]! * inv;
  const ids = n > 0 ? index.candidates(unit, candidates).map((c) => c.patientId) : [];
  const exact = await store.enrolledVectors(db, ids);
  let found: { patientId: string; similarity: number } | null = null;
  for (const [patientId, v] of exact) {
    const similarity = cosineSimilarity(v, unit);
    if (!found || similarity > found.similarity) found = { patientId, similarity };
  }
  return { found, enrolled: stats.enrolled, galleryRows: stats.fetched };
}
