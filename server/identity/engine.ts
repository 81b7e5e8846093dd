import type { Worker } from 'node:worker_threads';
import type { IdentityConfig } from './config';
import { createDocumentReader } from './document';
import { createDocumentScan, type DocumentScan } from './document-scan';
import { evidenceKeeper } from './evidence';
import { createFlatSearch, type FlatSearch } from './face-flat-search';
import { createIdentification, type Identification } from './identification';
import type { LivenessDecider } from './liveness';
import { challengeDecider } from './liveness-challenge';
import { createLivenessSessions, type LivenessSessions } from './liveness-sessions';
import { ms, silentLog, type IdentityLog } from './log';
import { FacePool } from './pool';
import { createWorkQueue, type WorkQueue } from './queue';
import { noInsight, type EngineInsight } from './types';
import type { WorkerData } from './worker/face-worker';
import type { Sealer } from '../security/sealed';

/**
 * The identity engine: three services on one worker pool and one document reader.
 * - liveness sessions (liveness-sessions.ts, liveness-decision.ts): startSession, livenessFrames,
 *   rejectKyc;
 * - document scan (document-scan.ts, document.ts): scanDocument, readDocument;
 * - identification (identification.ts): identify (1:N), analyze and compare (CLI, calibration).
 * This file only composes them: it starts and warms the pool and the reader, makes the queues and
 * closes everything. Database access is in store/.
 */
export type { IdentityLog } from './log';
export type { ScanAnswer } from './document-scan';

export interface IdentityEngine extends LivenessSessions, DocumentScan, Identification {
  readonly config: IdentityConfig;
  readonly decider: LivenessDecider<unknown>;
  /**
   * Bounded queues in front of costly work (issue 11 item 9): face analysis (liveness frames, 1:N) and
   * documents (OCR). Callers run work through them with the client address as key; see queue.ts.
   */
  readonly queues: { face: WorkQueue; document: WorkQueue };
  /** The exact duplicate search's flat file in a worker (issue 44; none: the database read). */
  readonly duplicateSearch: FlatSearch | null;
  stats(): { pool: ReturnType<FacePool['stats']> };
  close(): Promise<void>;
}

export type EngineOptions = {
  log?: IdentityLog;
  now?: () => number;
  decider?: LivenessDecider<unknown>;
  /** Skip the OCR warm-up (CLI commands that read no document). */
  ocr?: boolean;
  /**
   * Where decisions are reported for journey insight (the app's recorder,
   * server/insight/engine-recorder.ts); none by default.
   */
  insight?: EngineInsight;
  /** Starts each face worker (FacePool's `spawn`). */
  spawnFaceWorker?: (workerData: WorkerData) => Worker;
  /**
   * Seals the evidence KYC sessions keep for a person's review (issue 30: the app's
   * `createSealer(CASES_KEY)`); without it nothing is kept.
   */
  sealer?: Sealer;
};

/**
 * The KYC selfie's decider for IDENTITY_LIVENESS_CHALLENGE (issue 31): the challenge (blinks on cue,
 * and the screen's light with 'cues,light'), or three blinks at any time ('none'); the signals of
 * the frames' tags and the camera are kept in every mode.
 */
export function kycDecider(config: IdentityConfig): LivenessDecider<unknown> {
  return challengeDecider(
    { ...config.liveness, continuityThreshold: config.continuityThreshold },
    { thresholds: config.liveness.light },
  ) as LivenessDecider<unknown>;
}

export async function createIdentityEngine(
  config: IdentityConfig,
  options: EngineOptions = {},
): Promise<IdentityEngine> {
  const log = options.log ?? silentLog;
  const now = options.now ?? Date.now;
  const insight = options.insight ?? noInsight;
  const limits = {
    maxUploadBytes: config.maxUploadBytes,
    maxPixels: config.maxPixels,
    minImageSide: config.minImageSide,
  };
  const pool = new FacePool({
    backend: config.backend,
    size: config.poolSize,
    limits,
    taskTimeoutMs: config.taskTimeoutMs,
    maxQueue: config.poolSize * 16,
    ...(options.spawnFaceWorker ? { spawn: options.spawnFaceWorker } : {}),
    onEvent: (event, data) =>
      event === 'worker_ready' ? log.info({ event, ...data }) : log.warn({ event, ...data }),
  });
  const decider = (options.decider ?? kycDecider(config)) as LivenessDecider<unknown>;
  const t0 = performance.now();
  const evidence = options.sealer ? evidenceKeeper(options.sealer, log) : null;
  const reader = createDocumentReader(config, (event, data) => log.warn({ event, ...data }));
  try {
    await Promise.all([
      pool.ready(),
      options.ocr === false || !config.warmOcr ? null : reader.warm(),
    ]);
  } catch (err) {
    await Promise.allSettled([pool.close(), reader.close()]);
    throw err;
  }
  log.info({ event: 'identity_ready', workers: pool.size, backend: pool.backend, ms: ms(t0) });
  const duplicateSearch =
    config.duplicates?.mode === 'flat'
      ? createFlatSearch({ config: config.duplicates, log })
      : null;

  return {
    config,
    decider,
    queues: {
      face: createWorkQueue({ name: 'face', ...config.bounds.face }),
      document: createWorkQueue({ name: 'document', ...config.bounds.document }),
    },
    ...createLivenessSessions({ config, pool, log, now, decider, insight, evidence }),
    ...createDocumentScan({
      config,
      pool,
      reader,
      limits,
      log,
      insight,
      decider: decider.name,
      evidence,
    }),
    ...createIdentification({ config, pool, limits, log, insight, exact: duplicateSearch }),
    duplicateSearch,
    stats: () => ({ pool: pool.stats() }),
    async close() {
      await Promise.allSettled([pool.close(), reader.close(), duplicateSearch?.close()]);
    },
  };
}

export { enrollFace, getCompletedKyc } from './store';
/**
 * The engine's face similarity (cosine of two 1024-d descriptions) for other areas (the desk photo
 * against the card's portrait, issue 30); the threshold it uses for a card's portrait against a
 * face is `engine.config.documentMatchThreshold` (IDENTITY_DOCUMENT_MATCH_THRESHOLD).
 */
export { cosineSimilarity as faceSimilarity } from './types';
export const faceMatchThreshold = (config: Pick<IdentityConfig, 'documentMatchThreshold'>) =>
  config.documentMatchThreshold;
