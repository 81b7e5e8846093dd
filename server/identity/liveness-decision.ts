import type { LivenessChallenge, LivenessMeta } from '../../contract/identity';
import type { EngineReason } from '../../contract/insight';
import type { Db } from '../db/client';
import type { IdentityConfig } from './config';
import type { EvidenceKeeper } from './evidence';
import { findReplays, findSessionDuplicates, type DuplicateCheck } from './duplicates';
import { checkGates, type GateResult } from './gates';
import { hints } from './hints';
import type { ChallengeRefusal, FrameSignals, LivenessDecider } from './liveness';
import * as store from './store';
import { noInsight, type EngineInsight, type FrameAnalysis } from './types';

/**
 * The per-frame decision loop of one liveness request, in the transaction that locks the session
 * row: two concurrent requests of one session apply their frames one after the other, and each sees
 * the other's frames in the duplicate check. The frames were analysed (in order) by the worker pool.
 */
type DecisionInput = {
  sessionId: string;
  /** The request's uploads, oldest first (the best frame's photo may be kept). */
  images: Uint8Array[];
  /** Their analyses, in the same order. */
  frames: FrameAnalysis[];
  /** The request's `meta` (issue 31): one tag per frame, the camera; null when not sent. */
  meta?: LivenessMeta | null;
  /**
   * The eye anchor the worker returned, and the session's frame_seq it analysed after: kept for the
   * next request only if no other request of the session was applied in between (its frames would
   * come after the anchor's), else dropped so that the next request analyses its first frame.
   */
  anchor: { bytes: Uint8Array | null; afterSeq: number };
  decider: LivenessDecider<unknown>;
  /** Keep the selfie's photo (IDENTITY_STORE_PHOTOS, the KYC selfie only). */
  keepPhoto: boolean;
  /** Where the deciding frame and the refusals are kept (KYC sessions with a sealer), else null. */
  evidence?: EvidenceKeeper | null;
  config: IdentityConfig;
  now: () => number;
  /** Where the request's decisions are reported (journey insight); none by default. */
  insight?: EngineInsight;
};

/** What the log keeps of one frame: gates, duplicate distance, decider scores (never the image). */
type FrameLog = Record<string, unknown>;

type Decision = {
  feedback: string[];
  live: boolean;
  timeUp: boolean;
  steps: FrameLog[];
  /** The challenge refused the session (issue 31): only a new one can pass. */
  refused: ChallengeRefusal | null;
  /** What a challenge session asks now (issue 31); undefined for a decider without one. */
  challenge?: LivenessChallenge;
  /**
   * When the replay and session-duplicate searches ended (performance.now()); null when the session
   * was no longer in liveness.
   */
  tChecked: number | null;
};

/** The duplicate and replay checks' part of a frame's log. */
const duplicateLog = (dup: DuplicateCheck) => ({
  duplicate: dup.dup,
  replay: dup.replay,
  dupDistance: dup.distance === null ? null : Number(dup.distance.toFixed(2)),
});

function frameLog(
  frame: FrameAnalysis,
  gates: GateResult,
  dup: DuplicateCheck,
  extra: Record<string, unknown>,
): FrameLog {
  const extent = gates.face?.extent;
  return {
    faces: frame.faces.length,
    gates: gates.failed,
    // The face's own width as a share of the frame's (issue 41: the light's distance).
    ...(extent ? { size: Number((extent[2] / frame.width).toFixed(2)) } : {}),
    luminance: Math.round(frame.luminance),
    ...duplicateLog(dup),
    ...extra,
  };
}

/** The decider's best frame so far outranks any frame kept only for showing a face (below 1). */
const BEST_SELFIE_RANK = 2;

/**
 * How well a frame that is not the decider's best shows one face, for the evidence while no best
 * frame exists (a patient who never passes the gates): fewer failed gates, then the detector's score.
 */
const faceFrameRank = (gates: GateResult) =>
  gates.face
    ? 0.99 * (1 - gates.failed.length / 5) * Math.min(1, Math.max(0, gates.face.score))
    : -1;

/** Applies a request's analysed frames to the session, in order, and saves the outcome. */
export async function decideFrames(tx: Db, input: DecisionInput): Promise<Decision> {
  const { sessionId, images, frames, decider, config, now } = input;
  const tags = input.meta?.frames ?? [];
  const s = await store.loadSession(tx, sessionId, true);
  if (s.status !== 'liveness')
    return {
      feedback: [hints.done],
      live: s.status !== 'rejected',
      timeUp: false,
      steps: [],
      refused: null,
      tChecked: null,
    };
  const fps = frames.map((f) => ({
    thumb: Buffer.from(f.fingerprint!.thumb, 'base64'),
    dhash: BigInt(f.fingerprint!.dhash),
  }));
  const distance = { duplicateDistance: config.liveness.duplicateDistance };
  // Replays of other sessions (their counted frames, 72 h), under a lock on every dHash band of
  // these frames: a concurrent request of another session storing a frame that shares a band (a
  // replay raced against its source) commits first or waits for this one. The lock is its own
  // statement, before the search: the search's snapshot must be taken after the wait.
  await store.lockBands(
    tx,
    fps.map((f) => f.dhash),
  );
  const replays = await findReplays(tx, sessionId, fps, {
    windowMs: config.liveness.replayWindowMs,
    ...distance,
  });
  // Near-duplicates of the session's stored frames (one query for the request; the row lock keeps
  // other requests of the session out) or of an earlier frame of this request.
  const repeats = await findSessionDuplicates(tx, sessionId, fps, distance);
  const tChecked = performance.now();
  let state = s.liveness_state;
  let seq = s.frame_seq;
  let feedback: string[] = [];
  let selfie: { embedding: number[]; image: Uint8Array } | null = null;
  /** The request's best frame showing one face, for the evidence when no best selfie exists yet. */
  let faceFrame: { rank: number; image: Uint8Array } | null = null;
  let anyReplay = false;
  let anyDuplicate = false;
  const steps: FrameLog[] = [];
  /** The frames to store, in one statement after the loop (none is read back before). */
  const stored: store.NewFrame[] = [];
  for (const [i, frame] of frames.entries()) {
    const t = now();
    const { thumb, dhash } = fps[i]!;
    /** The frame's tag and colour statistic for a challenge (not for a replay: nothing of it counts). */
    const signals: FrameSignals = { tag: tags[i], colour: frame.colour };
    /** The frame's time on the challenge's clock, for the log (no tag, nothing). */
    const logTime = tags[i] ? { t: tags[i].t } : {};
    // A near-duplicate of another session's frame, or of an earlier frame of this session (stored,
    // or earlier in this request).
    const dup = replays[i]!.dup ? replays[i]! : repeats[i]!;
    const gates = checkGates(frame, { ...config, framed: decider.framed?.(state) });
    if (frame.skipped && !dup.dup) {
      // The eyes did not change since an analysed frame: nothing new for the decider (only
      // the time limit). Its fingerprint is kept against later duplicates.
      const idle = decider.idle(state, t, [], signals);
      state = idle.state;
      // A request whose frames are all skipped still says where the challenge stands.
      feedback = idle.feedback.length ? idle.feedback : decider.progress(state, t);
      seq += 1;
      stored.push({ seq, thumb, dhash, counted: true });
      steps.push({
        skipped: frame.skipped,
        duplicate: false,
        ...logTime,
      });
      continue;
    }
    if (dup.dup) {
      // No progress; the answer keeps the last real frame's feedback (or time up).
      anyDuplicate = true;
      if (dup.replay) anyReplay = true;
      const idle = decider.idle(state, t, [], dup.replay ? undefined : signals);
      state = idle.state;
      if (idle.feedback.length) feedback = idle.feedback;
      const extra = { counted: false, live: idle.live, ...logTime };
      // A skipped frame was never analysed: no face or gate of it to log (it read 'no_face').
      steps.push(
        frame.skipped
          ? { skipped: frame.skipped, ...duplicateLog(dup), ...extra }
          : frameLog(frame, gates, dup, extra),
      );
      continue;
    }
    const step = gates.ok
      ? decider.step(state, { ...signals, face: gates.face, now: t, width: frame.width })
      : decider.idle(state, t, gates.hints, signals);
    state = step.state;
    feedback = step.feedback;
    seq += 1;
    // Every stored frame is remembered against replays into other sessions, not only the
    // ones that changed the count: at 8 frames/s a blink leaves a second closed frame and
    // open frames that a replay could otherwise use as a fresh closing and reopening.
    stored.push({ seq, thumb, dhash, counted: true });
    if (step.bestSelfie && gates.ok && gates.face.embedding)
      selfie = { embedding: gates.face.embedding, image: images[i]! };
    else if (input.evidence && faceFrameRank(gates) > (faceFrame?.rank ?? -1))
      faceFrame = { rank: faceFrameRank(gates), image: images[i]! };
    steps.push(
      frameLog(frame, gates, dup, {
        counted: step.counted,
        live: step.live,
        ...logTime,
        ...step.scores,
      }),
    );
    if (step.live) break;
  }
  await store.insertFrames(tx, sessionId, stored);
  // A challenge draws what it asks next from the request's newest frame (issue 31).
  if (decider.finish) state = decider.finish(state, { now: now(), meta: input.meta ?? null });
  const refused = decider.refusal?.(state) ?? null;
  const live = decider.isLive(state);
  if (anyDuplicate && !live && !feedback.includes(hints.duplicate))
    feedback = [...feedback, hints.duplicate];
  if (!feedback.length) feedback = [hints.duplicate];
  await store.saveLivenessProgress(tx, sessionId, {
    state,
    frameSeq: seq,
    live,
    selfie: selfie && {
      embedding: selfie.embedding,
      photo: input.keepPhoto ? selfie.image : null,
    },
    anchor: !live && s.frame_seq === input.anchor.afterSeq ? input.anchor.bytes : null,
  });
  const timeUp = !refused && decider.isTimeUp(state, now());
  if (input.evidence)
    await input.evidence.liveness(tx, sessionId, {
      selfie: selfie
        ? { image: selfie.image, rank: BEST_SELFIE_RANK, embedding: selfie.embedding }
        : faceFrame && { image: faceFrame.image, rank: faceFrame.rank, embedding: null },
      reason: refused ?? (timeUp ? timeUpReason(state) : anyReplay ? 'replay' : null),
      attempt: true,
      signals: decider.signals?.(state) ?? null,
    });
  // Signals raised for the first time in this session: one insight decision each.
  const before = decider.signals?.(s.liveness_state) ?? {};
  const raised = Object.keys(decider.signals?.(state) ?? {}).filter((k) => !(k in before));
  (input.insight ?? noInsight).liveness({
    decider: decider.name,
    state,
    now: now(),
    live,
    timeUp,
    steps,
    ...(refused ? { refused } : {}),
    ...(raised.length ? { signals: raised as EngineReason[] } : {}),
  });
  return {
    feedback,
    live,
    timeUp,
    steps,
    refused,
    ...(decider.challenge ? { challenge: decider.challenge(state) } : {}),
    tChecked,
  };
}

/** Why a challenge's time ran out, as journey insight names it: no blink ever counted, or too few. */
export const timeUpReason = (state: unknown): 'eyes_never_closed' | 'time_up' =>
  (state as { blinks?: number } | null)?.blinks === 0 ? 'eyes_never_closed' : 'time_up';
