import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { IdentityConfig } from './config';
import {
  createDocumentReader,
  faceInArea,
  type DocumentReader,
  type DocumentReading,
  type IdData,
} from './document';
import { IdentityError, identityMessages } from './errors';
import { checkGates, type GateResult } from './gates';
import { hints } from './hints';
import { checkUpload, fingerprintDistance, hamming64 } from './image';
import { blinkDecider, type LivenessDecider } from './liveness';
import { FacePool } from './pool';
import * as store from './store';
import { cosineSimilarity, type FaceObservation, type FrameAnalysis } from './types';

/** Structured log sink (pino-compatible). Scores, thresholds and timings only: never images, PINs, documents. */
export type IdentityLog = {
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
};
const silentLog: IdentityLog = { info: () => {}, warn: () => {} };

export type LivenessAnswer = { feedback: string[]; liveness_detected: boolean };
export type ScanAnswer = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  id_data?: IdData;
};
export type CompareResult = {
  similarity: number | null;
  threshold: number;
  match: boolean;
  faces: [number, number];
};
export type IdentifyResult = {
  match: { patientId: string; similarity: number } | null;
  best: { patientId: string; similarity: number } | null;
  threshold: number;
  gates: GateResult['failed'];
  feedback: string[];
};

export interface IdentityEngine {
  readonly config: IdentityConfig;
  readonly decider: LivenessDecider<unknown>;
  /** Detect and describe every face of an image (CLI, calibration). */
  analyze(image: Uint8Array, options?: { embedding?: boolean }): Promise<FrameAnalysis>;
  /** 1:1 comparison of the main face of two images. */
  compare(a: Uint8Array, b: Uint8Array, threshold?: number): Promise<CompareResult>;
  startSession(db: Db): Promise<{ sessionId: string }>;
  livenessFrame(db: Db, sessionId: string, frame: Uint8Array): Promise<LivenessAnswer>;
  scanDocument(
    db: Db,
    sessionId: string,
    images: { front: Uint8Array; back?: Uint8Array | undefined },
  ): Promise<ScanAnswer>;
  /** Reads a document with no session (CLI): MRZ, printed fields, checks. */
  readDocument(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
  rejectKyc(db: Db, sessionId: string, reason: string): Promise<void>;
  /** 1:N search of the frame's face among enrolled patients. */
  identify(db: Db, frame: Uint8Array): Promise<IdentifyResult>;
  stats(): { pool: ReturnType<FacePool['stats']> };
  /** For the recovery test: ends a worker as a crash would. */
  crashWorkerForTest(): Promise<void>;
  close(): Promise<void>;
}

export type EngineOptions = {
  log?: IdentityLog;
  now?: () => number;
  decider?: LivenessDecider<unknown>;
  /** Skip the OCR warm-up (CLI commands that read no document). */
  ocr?: boolean;
};

const ms = (t0: number) => Math.round(performance.now() - t0);
const round3 = (x: number | null) => (x === null ? null : Number(x.toFixed(3)));
const short = (id: string) => id.slice(0, 8);

/** Main face of an image for 1:1 work: the largest one. */
function mainFace(frame: FrameAnalysis): FaceObservation | null {
  return [...frame.faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0] ?? null;
}

export async function createIdentityEngine(
  config: IdentityConfig,
  options: EngineOptions = {},
): Promise<IdentityEngine> {
  const log = options.log ?? silentLog;
  const now = options.now ?? Date.now;
  const limits = {
    maxUploadBytes: config.maxUploadBytes,
    maxPixels: config.maxPixels,
    minImageSide: config.minImageSide,
  };
  const pool = new FacePool({
    size: config.poolSize,
    limits,
    taskTimeoutMs: config.taskTimeoutMs,
    maxQueue: config.poolSize * 16,
    onEvent: (event, data) =>
      event === 'worker_ready' ? log.info({ event, ...data }) : log.warn({ event, ...data }),
  });
  const decider = (options.decider ??
    blinkDecider({
      ...config.liveness,
      continuityThreshold: config.continuityThreshold,
    })) as LivenessDecider<unknown>;
  const t0 = performance.now();
  const reader: DocumentReader = createDocumentReader(config);
  try {
    await Promise.all([
      pool.ready(),
      options.ocr === false || !config.warmOcr ? null : reader.warm(),
    ]);
  } catch (err) {
    await Promise.allSettled([pool.close(), reader.close()]);
    throw err;
  }
  log.info({ event: 'identity_ready', workers: pool.size, ms: ms(t0) });
  let lastPurge = 0;
  let gallery: store.Gallery | null = null;

  async function describeMain(
    image: Uint8Array,
  ): Promise<{ frame: FrameAnalysis; face: FaceObservation | null }> {
    checkUpload(image, limits);
    const frame = await pool.analyze(image, { embedding: 'all' });
    return { frame, face: mainFace(frame) };
  }

  async function isDuplicate(
    db: Db,
    sessionId: string,
    frame: FrameAnalysis,
  ): Promise<{ dup: boolean; distance: number | null; replay: boolean }> {
    const fp = frame.fingerprint!;
    const thumb = Buffer.from(fp.thumb, 'base64');
    let best = Number.POSITIVE_INFINITY;
    for (const prev of await store.sessionFrames(db, sessionId, BigInt(fp.dhash)))
      best = Math.min(best, fingerprintDistance(thumb, prev.thumb));
    if (best <= config.liveness.duplicateDistance)
      return { dup: true, distance: best, replay: false };
    const dhash = BigInt(fp.dhash);
    for (const c of await store.replayCandidates(
      db,
      sessionId,
      dhash,
      config.liveness.replayWindowMs,
    )) {
      if (hamming64(dhash, BigInt(c.dhash)) > 8) continue;
      const d = fingerprintDistance(thumb, c.thumb);
      if (d <= config.liveness.duplicateDistance) return { dup: true, distance: d, replay: true };
    }
    return { dup: false, distance: Number.isFinite(best) ? best : null, replay: false };
  }

  const engine: IdentityEngine = {
    config,
    decider,

    analyze(image, opts = {}) {
      checkUpload(image, limits);
      return pool.analyze(image, { embedding: opts.embedding === false ? 'none' : 'all' });
    },

    async compare(a, b, threshold = config.matchThreshold) {
      const [ra, rb] = await Promise.all([describeMain(a), describeMain(b)]);
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

    async startSession(db) {
      const id = randomUUID();
      await store.insertSession(db, id, decider.name, decider.initial(now()), config.sessionTtlMs);
      if (now() - lastPurge > 10 * 60_000) {
        lastPurge = now();
        store
          .purgeExpired(db, config.liveness.replayWindowMs)
          .catch((err) => log.warn({ event: 'purge_failed', error: String(err) }));
      }
      log.info({ event: 'kyc_start', session: short(id), decider: decider.name });
      return { sessionId: id };
    },

    async livenessFrame(db, sessionId, image) {
      const tStart = performance.now();
      // The upload's own faults (type, size) first: they are the caller's to fix whatever the session.
      checkUpload(image, limits);
      const session = await store.loadSession(db, sessionId);
      if (session.status !== 'liveness') {
        return {
          feedback: [hints.done],
          liveness_detected: session.status === 'live' || session.status === 'completed',
        };
      }
      const plan = decider.needsEmbedding(session.liveness_state);
      const frame = await pool.analyze(image, {
        embedding: plan.always
          ? 'all'
          : { earBelow: plan.earBelow, earAbove: plan.earAbove, moved: plan.moved },
        fingerprint: true,
        maxSide: 640,
      });
      const tAnalysed = performance.now();
      const dup = await isDuplicate(db, sessionId, frame);
      const tChecked = performance.now();
      const gates = checkGates(frame, config);
      const result = await db.transaction(async (tx) => {
        const s = await store.loadSession(tx, sessionId, true);
        if (s.status !== 'liveness')
          return {
            feedback: [hints.done],
            live: s.status !== 'rejected',
            counted: false,
            scores: {},
          };
        const t = now();
        if (dup.dup) {
          const idle = decider.idle(s.liveness_state, t, [hints.duplicate]);
          await tx.query(
            'UPDATE kyc_sessions SET liveness_state = $2::jsonb, updated_at = now() WHERE id = $1',
            [sessionId, JSON.stringify(idle.state)],
          );
          return { feedback: idle.feedback, live: false, counted: false, scores: {} };
        }
        const step = gates.ok
          ? decider.step(s.liveness_state, { face: gates.face, now: t })
          : decider.idle(s.liveness_state, t, gates.hints);
        const seq = s.frame_seq + 1;
        const fp = frame.fingerprint!;
        await store.insertFrame(
          tx,
          sessionId,
          seq,
          Buffer.from(fp.thumb, 'base64'),
          BigInt(fp.dhash),
          step.counted,
        );
        const selfie =
          step.bestSelfie && gates.ok && gates.face.embedding ? gates.face.embedding : null;
        await tx.query(
          `UPDATE kyc_sessions SET liveness_state = $2::jsonb, frame_seq = $3, updated_at = now(),
             status = CASE WHEN $4 THEN 'live' ELSE status END,
             live_at = CASE WHEN $4 THEN now() ELSE live_at END,
             selfie_embedding = COALESCE($5::real[], selfie_embedding),
             selfie_photo = CASE WHEN $5::real[] IS NOT NULL AND $6::bytea IS NOT NULL THEN $6::bytea ELSE selfie_photo END
           WHERE id = $1`,
          [
            sessionId,
            JSON.stringify(step.state),
            seq,
            step.live,
            selfie,
            selfie && config.storePhotos ? image : null,
          ],
        );
        return {
          feedback: step.feedback,
          live: step.live,
          counted: step.counted,
          scores: step.scores,
        };
      });
      log.info({
        event: 'liveness_frame',
        session: short(sessionId),
        faces: frame.faces.length,
        gates: gates.failed,
        luminance: Math.round(frame.luminance),
        duplicate: dup.dup,
        replay: dup.replay,
        dupDistance: dup.distance === null ? null : Number(dup.distance.toFixed(2)),
        dupThreshold: config.liveness.duplicateDistance,
        counted: result.counted,
        live: result.live,
        ...result.scores,
        thresholds: {
          closed: config.liveness.closedRatio,
          reopen: config.liveness.reopenRatio,
          continuity: config.continuityThreshold,
        },
        ms: {
          total: ms(tStart),
          analyse: Math.round(tAnalysed - tStart),
          duplicateCheck: Math.round(tChecked - tAnalysed),
          decode: Math.round(frame.timings.decodeMs),
          detect: Math.round(frame.timings.detectMs),
        },
      });
      return { feedback: result.feedback, liveness_detected: result.live };
    },

    async scanDocument(db, sessionId, images) {
      const tStart = performance.now();
      checkUpload(images.front, limits);
      if (images.back) checkUpload(images.back, limits);
      const session = await store.loadSession(db, sessionId);
      if (session.status === 'rejected' || session.status === 'completed')
        throw new IdentityError('session_closed', identityMessages.sessionClosed);
      if (session.status !== 'live' || !session.selfie_embedding)
        throw new IdentityError('liveness_missing', identityMessages.livenessMissing);
      // Face first: when no face on the front matches the selfie the attempt ends before the OCR.
      const selfie = session.selfie_embedding.map(Number);
      const threshold = config.documentMatchThreshold;
      const simOf = (f: FaceObservation | null) =>
        f?.embedding ? cosineSimilarity(f.embedding, selfie) : null;
      const front = await describeMain(images.front);
      const anyMatch = front.frame.faces.some((f) => (simOf(f) ?? -1) >= threshold);
      const refuse = (error: string): ScanAnswer => ({
        success: false,
        kyc_complete: false,
        error,
      });
      if (!anyMatch || !images.back) {
        log.info({
          event: 'document_face',
          session: short(sessionId),
          faces: front.frame.faces.length,
          similarity: round3(simOf(front.face)),
          threshold,
          match: anyMatch,
          ms: ms(tStart),
        });
        if (!anyMatch)
          return refuse(
            front.face ? identityMessages.faceMismatch : identityMessages.noFaceOnDocument,
          );
        return refuse(identityMessages.backMissing);
      }
      const reading = await reader.read(images.front, images.back);
      // The face that counts is the one printed in the card's photo area, not any face in the picture.
      const cardFace = reading.photoArea ? faceInArea(front.frame, reading.photoArea) : null;
      const similarity = simOf(cardFace);
      const faceOk = similarity !== null && similarity >= threshold;
      log.info({
        event: 'document_read',
        session: short(sessionId),
        ok: reading.ok,
        checks: reading.checks,
        passes: reading.passes,
        faces: front.frame.faces.length,
        similarity: round3(similarity),
        threshold,
        match: faceOk,
        ms: ms(tStart),
      });
      if (!reading.ok || !reading.idData)
        return refuse(reading.error ?? identityMessages.mrzUnreadable);
      if (!faceOk)
        return refuse(cardFace ? identityMessages.faceMismatch : identityMessages.noFaceOnDocument);
      await db.query(
        `UPDATE kyc_sessions SET status = 'completed', completed_at = now(), updated_at = now(), result = $2::jsonb
          WHERE id = $1 AND status = 'live'`,
        [
          sessionId,
          JSON.stringify({
            id_data: reading.idData,
            checks: reading.checks,
            face: { similarity, threshold },
          }),
        ],
      );
      return { success: true, kyc_complete: true, id_data: reading.idData };
    },

    readDocument: (front, back) => {
      checkUpload(front, limits);
      checkUpload(back, limits);
      return reader.read(front, back);
    },

    async rejectKyc(db, sessionId, reason) {
      await store.loadSession(db, sessionId);
      await db.query(
        `UPDATE kyc_sessions SET status = 'rejected', reject_reason = $2, updated_at = now(), result = NULL,
           selfie_embedding = NULL, selfie_photo = NULL WHERE id = $1`,
        [sessionId, reason.slice(0, 500)],
      );
      log.info({ event: 'kyc_reject', session: short(sessionId) });
    },

    async identify(db, image) {
      const tStart = performance.now();
      checkUpload(image, limits);
      const frame = await pool.analyze(image, { embedding: 'all', maxSide: 640 });
      const gates = checkGates(frame, config);
      const threshold = config.matchThreshold;
      if (!gates.ok || !gates.face.embedding) {
        return { match: null, best: null, threshold, gates: gates.failed, feedback: gates.hints };
      }
      gallery = await store.loadGallery(db, gallery);
      const found = store.searchGallery(gallery, gates.face.embedding);
      const best = found && {
        patientId: found.patientId,
        similarity: Number(found.similarity.toFixed(4)),
      };
      const match = best && best.similarity >= threshold ? best : null;
      log.info({
        event: 'identify',
        enrolled: gallery.ids.length,
        best: best?.similarity ?? null,
        threshold,
        matched: Boolean(match),
        ms: ms(tStart),
      });
      return { match, best, threshold, gates: [], feedback: [] };
    },

    stats: () => ({ pool: pool.stats() }),
    crashWorkerForTest: () => pool.terminateOneForTest(),

    async close() {
      await Promise.allSettled([pool.close(), reader.close()]);
    },
  };
  return engine;
}

export { enrollFace, getCompletedKyc } from './store';
