import { randomUUID } from 'node:crypto';
import type { LivenessChallenge, LivenessMeta } from '../../contract/identity';
import type { Db } from '../db/client';
import type { IdentityConfig } from './config';
import { IdentityError, identityMessages } from './errors';
import { hints } from './hints';
import { checkUpload } from './image';
import type { EvidenceKeeper } from './evidence';
import { decideFrames, timeUpReason } from './liveness-decision';
import type { ChallengeRefusal, LivenessDecider } from './liveness';
import { ms, short, type IdentityLog } from './log';
import type { FacePool } from './pool';
import * as store from './store';
import { noInsight, type EngineInsight } from './types';
import type { FramesResult } from './worker/analyze';

/**
 * Liveness sessions: the KYC selfie's (and the kiosk's) blink challenge. A request's frames are
 * checked, analysed in one worker task, then decided in order within the session's state
 * (liveness-decision.ts); the state lives in the database, so any API process takes the next request.
 */

/**
 * `time_up`: the challenge's time is over (counted from its first frame); only a new session can
 * pass. `challenge`: what a challenge session asks now (issue 31), in every answer of one.
 */
type LivenessAnswer = {
  feedback: string[];
  liveness_detected: boolean;
  time_up: boolean;
  challenge?: LivenessChallenge;
};

/** A liveness profile other than the KYC selfie's (face authentication's kiosk); photos are never kept for it. */
type SessionProfile = { profile?: LivenessDecider<unknown> };
/** A request's `meta` (issue 31): the frames' tags and the camera; required by a challenge. */
type RequestMeta = { meta?: LivenessMeta | null };

export interface LivenessSessions {
  /** `profile`: another liveness decider (the kiosk's); its sessions answer only to that profile. */
  startSession(db: Db, opts?: SessionProfile): Promise<{ sessionId: string }>;
  /** One frame: the same as `livenessFrames` with a single frame. */
  livenessFrame(
    db: Db,
    sessionId: string,
    frame: Uint8Array,
    opts?: SessionProfile & RequestMeta,
  ): Promise<LivenessAnswer>;
  /**
   * The frames of one request (oldest first), analysed in order within the session's state: a blink
   * may close in one frame and reopen in the next, in this request or a later one.
   */
  livenessFrames(
    db: Db,
    sessionId: string,
    frames: Uint8Array[],
    opts?: SessionProfile & RequestMeta,
  ): Promise<LivenessAnswer>;
  rejectKyc(db: Db, sessionId: string, reason: string): Promise<void>;
}

/** The refusal of a session by its challenge (issue 31), with its Spanish sentence. */
const REFUSAL_TEXT: Record<ChallengeRefusal, string> = {
  cues_missed: identityMessages.cuesMissed,
  light_mismatch: identityMessages.lightMismatch,
  face_changed: identityMessages.faceChanged,
  light_unjudged: identityMessages.lightUnjudged,
};
const refusalError = (reason: ChallengeRefusal) => new IdentityError(reason, REFUSAL_TEXT[reason]);

export function createLivenessSessions(deps: {
  config: IdentityConfig;
  pool: FacePool;
  log: IdentityLog;
  now: () => number;
  /** The KYC selfie's decider (sessions started without a profile). */
  decider: LivenessDecider<unknown>;
  /** Where decisions are reported (journey insight); none by default. */
  insight?: EngineInsight;
  /** Where KYC sessions keep their evidence (issue 30); nothing is kept without it. */
  evidence?: EvidenceKeeper | null;
}): LivenessSessions {
  const { config, pool, log, now } = deps;
  /** The evidence of a session of `profile`: the KYC selfie's only (the kiosk keeps nothing). */
  const evidenceOf = (opts: SessionProfile) => (opts.profile ? null : (deps.evidence ?? null));
  const insight = deps.insight ?? noInsight;
  let lastPurge = 0;

  const maxFrameBytes = config.liveness.maxFrameBytes;
  /** A liveness frame's own faults: type, and its size limit (smaller than a document's). */
  function checkFrame(image: Uint8Array) {
    if (image.length > maxFrameBytes)
      throw new IdentityError(
        'too_large',
        identityMessages.frameTooLarge.replace('{kb}', String(Math.floor(maxFrameBytes / 1024))),
      );
    checkUpload(image, { maxUploadBytes: maxFrameBytes });
  }

  /**
   * The frames of one request, in order, in one worker task: the decider's plan says which frames
   * carry the 1024-d description (the first frame of a session, reopenings, a face that moved), and
   * frames whose eyes did not change since the last analysed one are skipped.
   */
  function analyseFrames(
    images: Uint8Array[],
    session: store.SessionRow,
    decider: LivenessDecider<unknown>,
    meta: LivenessMeta | null,
  ): Promise<FramesResult> {
    const plan = decider.needsEmbedding(session.liveness_state);
    const times = meta?.frames.map((f) => f.t);
    return pool.analyzeFrames(images, {
      anchor: session.eye_anchor,
      maxSide: 640,
      describeFirst: plan.always,
      blink: plan.blink,
      moved: plan.moved,
      unchangedBelow: config.liveness.unchangedBelow,
      analyseAll: plan.analyseAll,
      colourBox: plan.colourBox,
      colourExtent: plan.colourExtent,
      careful: plan.careful?.length && times ? { windows: plan.careful, times } : undefined,
    });
  }

  const sessions: LivenessSessions = {
    async startSession(db, opts = {}) {
      const id = randomUUID();
      const d = opts.profile ?? deps.decider;
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
      return sessions.livenessFrames(db, sessionId, [image], opts);
    },

    async livenessFrames(db, sessionId, images, opts = {}) {
      const tStart = performance.now();
      const decider = opts.profile ?? deps.decider;
      // The upload's own faults (count, type, size) first: they are the caller's to fix whatever the session.
      if (!images.length) throw new IdentityError('missing_file', identityMessages.missingFile);
      if (images.length > config.liveness.maxFrames)
        throw new IdentityError(
          'too_many_frames',
          identityMessages.tooManyFrames.replace('{n}', String(config.liveness.maxFrames)),
        );
      for (const image of images) checkFrame(image);
      // A challenge needs each frame's tag (an old browser sends none).
      const meta = opts.meta ?? null;
      if (decider.needsMeta && (!meta || meta.frames.length !== images.length))
        throw new IdentityError('meta_missing', identityMessages.metaMissing);
      const session = await store.loadSession(db, sessionId);
      // A session answers only to the profile that started it (a kiosk session is no KYC selfie).
      if (session.decider !== decider.name)
        throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
      /** What a challenge session asks now, for every answer of one. */
      const challengeOf = (state: unknown) =>
        decider.challenge ? { challenge: decider.challenge(state) } : {};
      if (session.status !== 'liveness') {
        return {
          feedback: [hints.done],
          liveness_detected: session.status === 'live' || session.status === 'completed',
          time_up: false,
          ...(decider.challenge ? { challenge: { cue: null, light: null } } : {}),
        };
      }
      // A session the challenge refused stays refused: only a new one can pass.
      const refusedBefore = decider.refusal?.(session.liveness_state) ?? null;
      if (refusedBefore) throw refusalError(refusedBefore);
      // The challenge's time is over: no frame can change the answer, so none costs model time.
      if (decider.isTimeUp(session.liveness_state, now())) {
        const at = now();
        insight.liveness({
          decider: decider.name,
          state: session.liveness_state,
          now: at,
          live: false,
          timeUp: true,
        });
        await evidenceOf(opts)?.liveness(db, sessionId, {
          selfie: null,
          reason: timeUpReason(session.liveness_state),
          attempt: false,
        });
        return {
          feedback: [hints.timeUp],
          liveness_detected: false,
          time_up: true,
          ...challengeOf(session.liveness_state),
        };
      }
      // The session's frame cap, counted before any model time (a refused request costs none).
      if (
        !(await store.countFrames(db, sessionId, images.length, config.bounds.framesPerSession))
      ) {
        insight.liveness({
          decider: decider.name,
          state: session.liveness_state,
          now: now(),
          live: false,
          timeUp: false,
          refused: 'frame_cap',
        });
        await evidenceOf(opts)?.liveness(db, sessionId, {
          selfie: null,
          reason: 'frame_cap',
          attempt: false,
        });
        throw new IdentityError('frames_exhausted', identityMessages.framesExhausted);
      }
      const { frames, anchor, detections } = await analyseFrames(images, session, decider, meta);
      const tAnalysed = performance.now();
      const result = await db.transaction((tx) =>
        decideFrames(tx, {
          sessionId,
          images,
          frames,
          meta,
          anchor: { bytes: anchor, afterSeq: session.frame_seq },
          decider,
          keepPhoto: config.storePhotos && !opts.profile,
          evidence: evidenceOf(opts),
          config,
          now,
          insight,
        }),
      );
      const tChecked = result.tChecked ?? tAnalysed;
      log.info({
        event: 'liveness_frames',
        session: short(sessionId),
        frames: result.steps,
        detections,
        live: result.live,
        ...(result.challenge
          ? {
              cue: result.challenge.cue,
              nextCue: result.challenge.next_cue,
              laterCue: result.challenge.later_cue,
            }
          : {}),
        ...(result.refused ? { refused: result.refused } : {}),
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
      if (result.refused) throw refusalError(result.refused);
      return {
        feedback: result.feedback,
        liveness_detected: result.live,
        time_up: result.timeUp,
        ...(result.challenge !== undefined ? { challenge: result.challenge } : {}),
      };
    },

    async rejectKyc(db, sessionId, reason) {
      await store.loadSession(db, sessionId);
      await store.rejectSession(db, sessionId, reason);
      log.info({ event: 'kyc_reject', session: short(sessionId) });
    },
  };
  return sessions;
}
