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
import { findReplays, findSessionDuplicate, type DuplicateCheck } from './duplicates';
import { checkUpload } from './image';
import { blinkDecider, type LivenessDecider } from './liveness';
import { FacePool } from './pool';
import { createWorkQueue, type WorkQueue } from './queue';
import * as store from './store';
import { cosineSimilarity, type FaceObservation, type FrameAnalysis } from './types';

/** Structured log sink (pino-compatible). Scores, thresholds and timings only: never images, PINs, documents. */
export type IdentityLog = {
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
};
const silentLog: IdentityLog = { info: () => {}, warn: () => {} };

/** `time_up`: the challenge's time is over (counted from its first frame); only a new session can pass. */
export type LivenessAnswer = { feedback: string[]; liveness_detected: boolean; time_up: boolean };
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
  /** `profile`: another liveness decider (the kiosk's); its sessions answer only to that profile. */
  startSession(db: Db, opts?: SessionProfile): Promise<{ sessionId: string }>;
  /** One frame: the same as `livenessFrames` with a single frame. */
  livenessFrame(
    db: Db,
    sessionId: string,
    frame: Uint8Array,
    opts?: SessionProfile,
  ): Promise<LivenessAnswer>;
  /**
   * The frames of one request (oldest first), analysed in order within the session's state: a blink
   * may close in one frame and reopen in the next, in this request or a later one.
   */
  livenessFrames(
    db: Db,
    sessionId: string,
    frames: Uint8Array[],
    opts?: SessionProfile,
  ): Promise<LivenessAnswer>;
  scanDocument(
    db: Db,
    sessionId: string,
    images: { front: Uint8Array; back?: Uint8Array | undefined },
  ): Promise<ScanAnswer>;
  /** Reads a document with no session (CLI): MRZ, printed fields, checks. */
  readDocument(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
  rejectKyc(db: Db, sessionId: string, reason: string): Promise<void>;
  /** 1:N search of the frame's face (or of a description already made) among enrolled patients. */
  identify(db: Db, frame: Uint8Array | { embedding: ArrayLike<number> }): Promise<IdentifyResult>;
  /**
   * Bounded queues in front of costly work (issue 11 item 9): face analysis (liveness frames, 1:N) and
   * documents (OCR). Callers run work through them with the client address as key; see queue.ts.
   */
  readonly queues: { face: WorkQueue; document: WorkQueue };
  stats(): { pool: ReturnType<FacePool['stats']> };
  /** For the recovery test: ends a worker as a crash would. */
  crashWorkerForTest(): Promise<void>;
  close(): Promise<void>;
}

/** A liveness profile other than the KYC selfie's (face authentication's kiosk); photos are never kept for it. */
export type SessionProfile = { profile?: LivenessDecider<unknown> };

export type EngineOptions = {
  log?: IdentityLog;
  now?: () => number;
  decider?: LivenessDecider<unknown>;
  /** Skip the OCR warm-up (CLI commands that read no document). */
  ocr?: boolean;
};

/** What the log keeps of one frame: gates, duplicate distance, decider scores (never the image). */
type FrameLog = Record<string, unknown>;
function frameLog(
  frame: FrameAnalysis,
  gates: GateResult,
  dup: { dup: boolean; distance: number | null; replay: boolean },
  extra: Record<string, unknown>,
): FrameLog {
  return {
    faces: frame.faces.length,
    gates: gates.failed,
    luminance: Math.round(frame.luminance),
    duplicate: dup.dup,
    replay: dup.replay,
    dupDistance: dup.distance === null ? null : Number(dup.distance.toFixed(2)),
    ...extra,
  };
}

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
  const defaultDecider = (options.decider ??
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

  const frameLimits = { maxUploadBytes: config.liveness.maxFrameBytes };
  /** A liveness frame's own faults: type, and its size limit (smaller than a document's). */
  function checkFrame(image: Uint8Array) {
    if (image.length > frameLimits.maxUploadBytes)
      throw new IdentityError(
        'too_large',
        identityMessages.frameTooLarge.replace(
          '{kb}',
          String(Math.floor(frameLimits.maxUploadBytes / 1024)),
        ),
      );
    checkUpload(image, frameLimits);
  }

  /**
   * The frames of one request, in order, in one worker task: the decider's plan says which frames
   * carry the 1024-d description (the first frame of a session, reopenings, a face that moved), and
   * frames whose eyes did not change since the last analysed one are skipped.
   */
  async function analyseFrames(
    images: Uint8Array[],
    state: unknown,
    decider: LivenessDecider<unknown>,
  ): Promise<FrameAnalysis[]> {
    const plan = decider.needsEmbedding(state);
    const { frames } = await pool.analyzeFrames(images, {
      maxSide: 640,
      describeFirst: plan.always,
      blink: plan.blink,
      moved: plan.moved,
      unchangedBelow: config.liveness.unchangedBelow,
      analyseAll: plan.analyseAll,
    });
    return frames;
  }

  type Dup = DuplicateCheck;

  /** Near-duplicates of counted frames of other sessions in the replay window (one search per request). */
  function replaysOf(db: Db, sessionId: string, frames: FrameAnalysis[]): Promise<Dup[]> {
    return findReplays(
      db,
      sessionId,
      frames.map((f) => ({
        thumb: Buffer.from(f.fingerprint!.thumb, 'base64'),
        dhash: BigInt(f.fingerprint!.dhash),
      })),
      {
        windowMs: config.liveness.replayWindowMs,
        duplicateDistance: config.liveness.duplicateDistance,
      },
    );
  }

  /** A near-duplicate of any earlier frame of this session (stored, or earlier in this request). */
  function isSessionDuplicate(
    db: Db,
    sessionId: string,
    thumb: Buffer,
    dhash: bigint,
    earlier: Buffer[],
  ): Promise<Dup> {
    return findSessionDuplicate(db, sessionId, thumb, dhash, earlier, {
      duplicateDistance: config.liveness.duplicateDistance,
    });
  }

  const queues = {
    face: createWorkQueue({ name: 'face', ...config.bounds.face }),
    document: createWorkQueue({ name: 'document', ...config.bounds.document }),
  };

  const engine: IdentityEngine = {
    config,
    decider: defaultDecider,
    queues,

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

    async startSession(db, opts = {}) {
      const id = randomUUID();
      const d = opts.profile ?? defaultDecider;
      await store.insertSession(
        db,
        id,
        d.name,
        d.initial(),
        config.sessionTtlMs,
        config.sessionIdleMs,
      );
      if (now() - lastPurge > 10 * 60_000) {
        lastPurge = now();
        store
          .purgeExpired(db, config.liveness.replayWindowMs)
          .catch((err) => log.warn({ event: 'purge_failed', error: String(err) }));
      }
      log.info({ event: 'kyc_start', session: short(id), decider: d.name });
      return { sessionId: id };
    },

    livenessFrame(db, sessionId, image, opts = {}) {
      return engine.livenessFrames(db, sessionId, [image], opts);
    },

    async livenessFrames(db, sessionId, images, opts = {}) {
      const tStart = performance.now();
      const decider = opts.profile ?? defaultDecider;
      // The upload's own faults (count, type, size) first: they are the caller's to fix whatever the session.
      if (!images.length) throw new IdentityError('missing_file', identityMessages.missingFile);
      if (images.length > config.liveness.maxFrames)
        throw new IdentityError(
          'too_many_frames',
          identityMessages.tooManyFrames.replace('{n}', String(config.liveness.maxFrames)),
        );
      for (const image of images) checkFrame(image);
      const session = await store.loadSession(db, sessionId);
      // A session answers only to the profile that started it (a kiosk session is no KYC selfie).
      if (session.decider !== decider.name)
        throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
      if (session.status !== 'liveness') {
        return {
          feedback: [hints.done],
          liveness_detected: session.status === 'live' || session.status === 'completed',
          time_up: false,
        };
      }
      // The challenge's time is over: no frame can change the answer, so none costs model time.
      if (decider.isTimeUp(session.liveness_state, now()))
        return { feedback: [hints.timeUp], liveness_detected: false, time_up: true };
      // The session's frame cap, counted before any model time (a refused request costs none).
      if (!(await store.countFrames(db, sessionId, images.length, config.bounds.framesPerSession)))
        throw new IdentityError('frames_exhausted', identityMessages.framesExhausted);
      const frames = await analyseFrames(images, session.liveness_state, decider);
      const tAnalysed = performance.now();
      let tChecked = tAnalysed;
      const result = await db.transaction(async (tx) => {
        // The session row is locked: two concurrent requests of one session apply their frames one
        // after the other, and each sees the other's frames in the duplicate check below.
        const s = await store.loadSession(tx, sessionId, true);
        if (s.status !== 'liveness')
          return {
            feedback: [hints.done],
            live: s.status !== 'rejected',
            timeUp: false,
            steps: [],
          };
        // Replays of other sessions (their counted frames, 72 h), under a lock on every dHash band
        // of these frames: a concurrent request of another session storing a frame that shares a
        // band (a replay raced against its source) commits first or waits for this one.
        await store.lockBands(
          tx,
          frames.map((f) => BigInt(f.fingerprint!.dhash)),
        );
        const replays = await replaysOf(tx, sessionId, frames);
        tChecked = performance.now();
        let state = s.liveness_state;
        let seq = s.frame_seq;
        let feedback: string[] = [];
        let selfie: { embedding: number[]; image: Uint8Array } | null = null;
        let anyDuplicate = false;
        const steps: FrameLog[] = [];
        const earlier: Buffer[] = [];
        for (const [i, frame] of frames.entries()) {
          const t = now();
          const fp = frame.fingerprint!;
          const thumb = Buffer.from(fp.thumb, 'base64');
          const dup = replays[i]!.dup
            ? replays[i]!
            : await isSessionDuplicate(tx, sessionId, thumb, BigInt(fp.dhash), earlier);
          earlier.push(thumb);
          const gates = checkGates(frame, config);
          if (frame.skipped && !dup.dup) {
            // The eyes did not change since an analysed frame: nothing new for the decider (only
            // the time limit). Its fingerprint is kept against later duplicates.
            const idle = decider.idle(state, t, []);
            state = idle.state;
            if (idle.feedback.length) feedback = idle.feedback;
            seq += 1;
            await store.insertFrame(tx, sessionId, seq, thumb, BigInt(fp.dhash), true);
            steps.push({ skipped: frame.skipped, duplicate: false });
            continue;
          }
          if (dup.dup) {
            // No progress; the answer keeps the last real frame's feedback (or time up).
            anyDuplicate = true;
            const idle = decider.idle(state, t, []);
            state = idle.state;
            if (idle.feedback.length) feedback = idle.feedback;
            steps.push(frameLog(frame, gates, dup, { counted: false, live: idle.live }));
            continue;
          }
          const step = gates.ok
            ? decider.step(state, { face: gates.face, now: t })
            : decider.idle(state, t, gates.hints);
          state = step.state;
          feedback = step.feedback;
          seq += 1;
          // Every stored frame is remembered against replays into other sessions, not only the
          // ones that changed the count: at 8 frames/s a blink leaves a second closed frame and
          // open frames that a replay could otherwise use as a fresh closing and reopening.
          await store.insertFrame(tx, sessionId, seq, thumb, BigInt(fp.dhash), true);
          if (step.bestSelfie && gates.ok && gates.face.embedding)
            selfie = { embedding: gates.face.embedding, image: images[i]! };
          steps.push(
            frameLog(frame, gates, dup, { counted: step.counted, live: step.live, ...step.scores }),
          );
          if (step.live) break;
        }
        const live = decider.isLive(state);
        if (anyDuplicate && !live && !feedback.includes(hints.duplicate))
          feedback = [...feedback, hints.duplicate];
        if (!feedback.length) feedback = [hints.duplicate];
        await tx.query(
          `UPDATE kyc_sessions SET liveness_state = $2::jsonb, frame_seq = $3, updated_at = now(),
             status = CASE WHEN $4 THEN 'live' ELSE status END,
             live_at = CASE WHEN $4 THEN now() ELSE live_at END,
             selfie_embedding = COALESCE($5::real[], selfie_embedding),
             selfie_photo = CASE WHEN $5::real[] IS NOT NULL AND $6::bytea IS NOT NULL THEN $6::bytea ELSE selfie_photo END
           WHERE id = $1`,
          [
            sessionId,
            JSON.stringify(state),
            seq,
            live,
            selfie?.embedding ?? null,
            selfie && config.storePhotos && !opts.profile ? selfie.image : null,
          ],
        );
        return { feedback, live, timeUp: decider.isTimeUp(state, now()), steps };
      });
      log.info({
        event: 'liveness_frames',
        session: short(sessionId),
        frames: result.steps,
        live: result.live,
        thresholds: {
          closed: config.liveness.closedRatio,
          reopen: config.liveness.reopenRatio,
          continuity: config.continuityThreshold,
          duplicate: config.liveness.duplicateDistance,
        },
        ms: {
          total: ms(tStart),
          analyse: Math.round(tAnalysed - tStart),
          replayCheck: Math.round(tChecked - tAnalysed),
          decode: Math.round(frames.reduce((a, f) => a + f.timings.decodeMs, 0)),
          detect: Math.round(frames.reduce((a, f) => a + f.timings.detectMs, 0)),
        },
      });
      return {
        feedback: result.feedback,
        liveness_detected: result.live,
        time_up: result.timeUp,
      };
    },

    async scanDocument(db, sessionId, images) {
      const tStart = performance.now();
      checkUpload(images.front, limits);
      if (images.back) checkUpload(images.back, limits);
      const session = await store.loadSession(db, sessionId);
      if (session.decider !== defaultDecider.name)
        throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
      if (session.status === 'rejected' || session.status === 'completed')
        throw new IdentityError('session_closed', identityMessages.sessionClosed);
      if (session.status !== 'live' || !session.selfie_embedding)
        throw new IdentityError('liveness_missing', identityMessages.livenessMissing);
      if (!(await store.countScanAttempt(db, sessionId, config.bounds.scanAttemptsPerSession)))
        throw new IdentityError('attempts_exhausted', identityMessages.attemptsExhausted);
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
      gallery = await store.loadGallery(db, gallery);
      const found = store.searchGallery(gallery, probe);
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
