import os from 'node:os';
import { z } from 'zod';
import { bool, int, num, parseEnv } from '../env';
import {
  LIVENESS_CHALLENGES,
  LIVENESS_MAX_FRAME_BYTES,
  LIVENESS_MAX_FRAMES,
  type LivenessChallengeMode,
} from '../../contract/identity';
import { selfieFramePolicy } from '../../contract/frame-policy';
import { loadDuplicateSearchConfig, type DuplicateSearchConfig } from './config-duplicates';
import { loadFaceIndexConfig, type FaceIndexConfig } from './config-face-index';
import type { BackendSetting } from './worker/models';

/**
 * Settings of the identity engine, read from the environment with safe defaults.
 * Similarity thresholds (cosine of Human's 1024-d descriptions) lie between the impostor and the
 * genuine pairs of the fixtures (bench/identity-accuracy.ts; figures in docs/measurements.md), the
 * strictest for 1:N identification, where a false accept logs someone in as another patient.
 * Operators should re-calibrate on their own images with `npm run identity -- compare A B`.
 */
/**
 * When the face follows the sequence (the defaults of IDENTITY_LIGHT_CORRELATION,
 * IDENTITY_LIGHT_BEYOND_BACKGROUND and IDENTITY_LIGHT_FACE_CHANGE; judgeLight says how each is
 * measured): the face's chromaticity changes with the screen's colours (correlation), enough to
 * tell from noise (`change`: a real face outdoors 0.0099 at least in the tuning, a face on a screen
 * outdoors 0.0059 at most), and its change beyond a part of the background is most of its change
 * (`beyond`: a wall a metre away is barely lit by the screen, a face on a screen changes everywhere
 * alike; liveness-light.ts BEYOND_FIT is how closely the face-minus-part change must
 * follow the screen's colours for that part to count. docs/measurements.md has the figures.
 */
/**
 * Duplicates at registration (issue 44 item 3, IDENTITY_DUPLICATE_FACE_THRESHOLD): a new
 * registration's verified selfie at or above this exact cosine with an enrolled face of another
 * document opens a 'posible duplicado' case for a supervisor (never a refusal). Measured by
 * bench/face-duplicate-threshold.ts (docs/measurements.md, 'Duplicates at registration'): two
 * selfie-like captures of each of 23 fixture faces against every other's; the rates at 0.70 are
 * written there with the load. The 1:N login threshold's value: a false match costs a supervisor's
 * look, a false non-match a second identity.
 */
export const DUPLICATE_FACE_THRESHOLD = 0.7;

/**
 * `alone` (IDENTITY_LIGHT_ALONE_CORRELATION): the correlation a round of five colours needs to pass
 * on its own; below it (down to `correlation`) a round counts only with the other: both rounds
 * followed pass (liveness-light-verdict.ts passesAlone; 0.05 less for a face lit clearly:
 * STRONG_CHANGE). Another sequence of the palette correlates
 * with the one asked 0.75 or more 1.44% of the time, 0.9 or more 0.14%, and both rounds of a session
 * 0.75 or more 0.023% (bench/light-chance.ts: what a recording of another session shows at best).
 */
export const LIGHT_THRESHOLDS = {
  correlation: 0.75,
  alone: 0.9,
  beyond: 0.6,
  change: 0.007,
  shape: 0.78,
};
export type LightThresholds = typeof LIGHT_THRESHOLDS;

/** Calibrated by bench/liveness-sampling.ts (see the figures in server/identity/README.md). */
const UNCHANGED_BELOW = 16;

/**
 * The default cap on liveness frames per session: more than a genuine patient can send. The browser
 * (contract/frame-policy.ts) starts a request at most every `pollEveryMs` (one in flight) with
 * at most `maxFramesPerRequest` frames, and stops at the server's `time_up`, `timeLimitMs` after the
 * session's first frame: 8 x ceil(120 s / 0.7 s) = 1376 frames. Twice that as margin (a request in
 * flight at the limit, a slow clock, a stop and restart): 2752 by default.
 */
export function defaultFramesPerSession(timeLimitMs: number): number {
  const p = selfieFramePolicy;
  return 2 * p.maxFramesPerRequest * Math.ceil(timeLimitMs / p.pollEveryMs);
}

const schema = z.object({
  IDENTITY_POOL_SIZE: int(0, 0, 64),
  IDENTITY_BACKEND: z.enum(['auto', 'onnx', 'wasm'] satisfies BackendSetting[]).default('auto'),
  IDENTITY_TASK_TIMEOUT_MS: int(30_000, 1_000),
  IDENTITY_OCR_WORKERS: int(1, 1, 8),
  IDENTITY_MAX_UPLOAD_BYTES: int(8 * 1024 * 1024, 1024),
  IDENTITY_MAX_FRAMES: int(LIVENESS_MAX_FRAMES, 1, LIVENESS_MAX_FRAMES),
  IDENTITY_MAX_FRAME_BYTES: int(LIVENESS_MAX_FRAME_BYTES, 1024, LIVENESS_MAX_FRAME_BYTES),
  IDENTITY_MAX_PIXELS: int(40_000_000, 10_000),
  IDENTITY_MIN_IMAGE_SIDE: int(64, 16),
  IDENTITY_MIN_FACE_PX: int(90, 10),
  IDENTITY_MIN_FACE_RATIO: num(0.16, 0, 1),
  IDENTITY_MIN_LUMINANCE: num(45, 0, 255),
  IDENTITY_MAX_CENTER_OFFSET: num(0.28, 0, 1),
  IDENTITY_MATCH_THRESHOLD: num(0.7, 0, 1),
  IDENTITY_DOCUMENT_MATCH_THRESHOLD: num(0.66, 0, 1),
  IDENTITY_CONTINUITY_THRESHOLD: num(0.65, 0, 1),
  IDENTITY_DUPLICATE_FACE_THRESHOLD: num(DUPLICATE_FACE_THRESHOLD, 0, 1),
  IDENTITY_BLINKS_REQUIRED: int(3, 1, 10),
  IDENTITY_CLOSED_RATIO: num(0.7, 0.1, 0.95),
  IDENTITY_REOPEN_RATIO: num(0.85, 0.1, 1),
  IDENTITY_BASELINE_FRAMES: int(2, 1, 10),
  IDENTITY_LIVENESS_SECONDS: int(120, 5),
  IDENTITY_LIVENESS_CHALLENGE: z.enum(LIVENESS_CHALLENGES).default(LIVENESS_CHALLENGES[0]),
  IDENTITY_LIGHT_CORRELATION: num(LIGHT_THRESHOLDS.correlation, -1, 1),
  IDENTITY_LIGHT_BEYOND_BACKGROUND: num(LIGHT_THRESHOLDS.beyond, 0, 2),
  IDENTITY_LIGHT_FACE_CHANGE: num(LIGHT_THRESHOLDS.change, 0, 1),
  IDENTITY_LIGHT_SHAPE: num(LIGHT_THRESHOLDS.shape, 0, 2),
  IDENTITY_LIGHT_ALONE_CORRELATION: num(LIGHT_THRESHOLDS.alone, -1, 1),
  IDENTITY_SESSION_MINUTES: int(30, 1),
  IDENTITY_DUPLICATE_DISTANCE: num(0.7, 0, 255),
  IDENTITY_MOTION_LIMIT: num(0.12, 0, 1),
  IDENTITY_UNCHANGED_BELOW: num(UNCHANGED_BELOW, 0, 255),
  IDENTITY_REPLAY_WINDOW_HOURS: int(72, 0),
  IDENTITY_SESSION_IDLE_MINUTES: int(10, 1),
  IDENTITY_SCAN_ATTEMPTS_PER_SESSION: int(5, 1, 100),
  IDENTITY_MAX_FRAMES_PER_SESSION: int(0, 0, 1_000_000),
  IDENTITY_START_PER_ADDRESS_MINUTE: int(10, 1),
  IDENTITY_START_PER_ADDRESS_HOUR: int(60, 1),
  IDENTITY_SCAN_PER_ADDRESS_HOUR: int(30, 1),
  IDENTITY_FACE_QUEUE: int(0, 0, 10_000),
  IDENTITY_FACE_PER_ADDRESS: int(4, 1, 1000),
  IDENTITY_FACE_RUNNING_PER_ADDRESS: int(0, 0, 64),
  IDENTITY_FACE_FRAMES_PER_ADDRESS_MINUTE: int(960, 1),
  IDENTITY_DOCUMENT_CONCURRENCY: int(1, 1, 16),
  IDENTITY_DOCUMENT_QUEUE: int(6, 0, 1000),
  IDENTITY_DOCUMENT_PER_ADDRESS: int(1, 1, 1000),
  IDENTITY_SCAN_BUDGET_MS: int(20_000, 1_000, 600_000),
  IDENTITY_CARD_TIMEOUT_MS: int(5_000, 500, 60_000),
  IDENTITY_STORE_PHOTOS: bool.default(false),
  IDENTITY_WARM_OCR: bool.default(true),
});

export type IdentityConfig = {
  /** Worker threads for face analysis (one model load each). */
  poolSize: number;
  /**
   * What runs the face models: `auto` onnxruntime-node (native CPU), or tfjs-wasm when it cannot
   * load (logged once); `onnx` onnxruntime-node or the workers fail to start; `wasm` tfjs-wasm only.
   */
  backend: BackendSetting;
  taskTimeoutMs: number;
  ocrWorkers: number;
  /**
   * Time budget of one document read (both sides' OCR cascades): when it runs out the read ends as
   * unreadable. With one scan per address in the document queue (IDENTITY_DOCUMENT_PER_ADDRESS) and
   * one at a time, one address's scans delay another's by at most one budget.
   */
  scanBudgetMs: number;
  /** Finding and straightening one photographed side (the card worker); past it the photo is read as it is. */
  cardTimeoutMs: number;
  /** Upload limits: bytes per image, decoded pixels, smallest side accepted. */
  maxUploadBytes: number;
  maxPixels: number;
  minImageSide: number;
  /** Gates: smallest face (pixels of the box width and fraction of the frame width), light, centring. */
  minFacePx: number;
  minFaceRatio: number;
  minLuminance: number;
  maxCenterOffset: number;
  /** Cosine similarity thresholds: 1:N identification, selfie vs document, same face within a session. */
  matchThreshold: number;
  documentMatchThreshold: number;
  continuityThreshold: number;
  /**
   * Duplicates at registration (issue 44 item 3; server/identity/duplicates-face.ts): a verified
   * selfie at or above this cosine with an enrolled face of another document opens a 'posible
   * duplicado' case. See DUPLICATE_FACE_THRESHOLD for its measured rates.
   */
  duplicateFaceThreshold: number;
  liveness: {
    /** Frames one liveness request may carry (repeated `frame` parts), and the byte limit of each. */
    maxFrames: number;
    maxFrameBytes: number;
    blinksRequired: number;
    /** Eyes count as closed below closedRatio x the face's open baseline, open again above reopenRatio x. */
    closedRatio: number;
    reopenRatio: number;
    baselineFrames: number;
    timeLimitMs: number;
    /**
     * The KYC selfie's challenge (issue 31, liveness-challenge.ts): 'cues,light' blinks on cue and
     * the screen's colour sequence on the face, 'cues' blinks on cue only, 'none' three blinks at
     * any time. The kiosk (face-login) keeps its own profile, without a challenge.
     */
    challenge: LivenessChallengeMode;
    /**
     * When the face follows the colour sequence (liveness-challenge.ts judgeLight): the correlation
     * of its colour change with the screen's, its change beyond a background part's, and its own
     * change at least.
     */
    light: typeof LIGHT_THRESHOLDS;
    /** Mean absolute difference (grey levels, 0-255) of two frame fingerprints under which a frame is a duplicate. */
    duplicateDistance: number;
    /**
     * Eye-region change (mean absolute grey difference, brightness removed, best of +-2 px shifts)
     * under which a frame of a request repeats the last analysed one and is not analysed; 0 analyses
     * every frame.
     */
    unchangedBelow: number;
    /** Largest movement of the face centre between frames (fraction of the face width) before 'hold still'. */
    motionLimit: number;
    /** How long counted frames of finished sessions are remembered to catch replays into new sessions. */
    replayWindowMs: number;
  };
  sessionTtlMs: number;
  /** A session in liveness or waiting for its documents expires after this long unused. */
  sessionIdleMs: number;
  /**
   * Bounds on costly work (issue 11 item 9): document attempts per KYC session; start-kyc and scan-id
   * per client address (sliding windows); the face and document work queues (concurrency, waiting
   * room, share of one client address). See queue.ts.
   */
  bounds: {
    scanAttemptsPerSession: number;
    /**
     * Liveness frames one session may send in all (counted atomically before any analysis; past it
     * 429 'frames_exhausted'). Default: defaultFramesPerSession(timeLimitMs).
     */
    framesPerSession: number;
    startPerAddressMinute: number;
    startPerAddressHour: number;
    scanPerAddressHour: number;
    face: {
      concurrency: number;
      maxWaiting: number;
      maxPerKey: number;
      /** One address's share of the workers: below the pool's size (issue 21, item 5). */
      maxRunningPerKey: number;
      /** Face frames one address may have analysed per minute. */
      budgetPerKey: number;
    };
    document: { concurrency: number; maxWaiting: number; maxPerKey: number };
  };
  storePhotos: boolean;
  warmOcr: boolean;
  /** The 1:N face index (issue 44; config-face-index.ts). Absent: the linear scan. */
  faceIndex?: FaceIndexConfig;
  /** The exact duplicate search's flat file (config-duplicates.ts). Absent: the database read. */
  duplicates?: DuplicateSearchConfig;
};

export function loadIdentityConfig(env: Record<string, string | undefined>): IdentityConfig {
  const c = parseEnv(schema, env);
  const cores =
    typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const poolSize = c.IDENTITY_POOL_SIZE || Math.max(1, cores);
  return {
    poolSize,
    backend: c.IDENTITY_BACKEND,
    taskTimeoutMs: c.IDENTITY_TASK_TIMEOUT_MS,
    ocrWorkers: c.IDENTITY_OCR_WORKERS,
    scanBudgetMs: c.IDENTITY_SCAN_BUDGET_MS,
    cardTimeoutMs: c.IDENTITY_CARD_TIMEOUT_MS,
    maxUploadBytes: c.IDENTITY_MAX_UPLOAD_BYTES,
    maxPixels: c.IDENTITY_MAX_PIXELS,
    minImageSide: c.IDENTITY_MIN_IMAGE_SIDE,
    minFacePx: c.IDENTITY_MIN_FACE_PX,
    minFaceRatio: c.IDENTITY_MIN_FACE_RATIO,
    minLuminance: c.IDENTITY_MIN_LUMINANCE,
    maxCenterOffset: c.IDENTITY_MAX_CENTER_OFFSET,
    matchThreshold: c.IDENTITY_MATCH_THRESHOLD,
    documentMatchThreshold: c.IDENTITY_DOCUMENT_MATCH_THRESHOLD,
    continuityThreshold: c.IDENTITY_CONTINUITY_THRESHOLD,
    duplicateFaceThreshold: c.IDENTITY_DUPLICATE_FACE_THRESHOLD,
    liveness: {
      maxFrames: c.IDENTITY_MAX_FRAMES,
      maxFrameBytes: Math.min(c.IDENTITY_MAX_FRAME_BYTES, c.IDENTITY_MAX_UPLOAD_BYTES),
      blinksRequired: c.IDENTITY_BLINKS_REQUIRED,
      closedRatio: c.IDENTITY_CLOSED_RATIO,
      reopenRatio: c.IDENTITY_REOPEN_RATIO,
      baselineFrames: c.IDENTITY_BASELINE_FRAMES,
      timeLimitMs: c.IDENTITY_LIVENESS_SECONDS * 1000,
      challenge: c.IDENTITY_LIVENESS_CHALLENGE,
      light: {
        correlation: c.IDENTITY_LIGHT_CORRELATION,
        beyond: c.IDENTITY_LIGHT_BEYOND_BACKGROUND,
        change: c.IDENTITY_LIGHT_FACE_CHANGE,
        shape: c.IDENTITY_LIGHT_SHAPE,
        alone: c.IDENTITY_LIGHT_ALONE_CORRELATION,
      },
      duplicateDistance: c.IDENTITY_DUPLICATE_DISTANCE,
      motionLimit: c.IDENTITY_MOTION_LIMIT,
      unchangedBelow: c.IDENTITY_UNCHANGED_BELOW,
      replayWindowMs: c.IDENTITY_REPLAY_WINDOW_HOURS * 3_600_000,
    },
    sessionTtlMs: c.IDENTITY_SESSION_MINUTES * 60_000,
    sessionIdleMs: c.IDENTITY_SESSION_IDLE_MINUTES * 60_000,
    bounds: {
      scanAttemptsPerSession: c.IDENTITY_SCAN_ATTEMPTS_PER_SESSION,
      framesPerSession:
        c.IDENTITY_MAX_FRAMES_PER_SESSION ||
        defaultFramesPerSession(c.IDENTITY_LIVENESS_SECONDS * 1000),
      startPerAddressMinute: c.IDENTITY_START_PER_ADDRESS_MINUTE,
      startPerAddressHour: c.IDENTITY_START_PER_ADDRESS_HOUR,
      scanPerAddressHour: c.IDENTITY_SCAN_PER_ADDRESS_HOUR,
      // Two face tasks per worker keep the pool busy; the pool's own queue holds the rest.
      // One address runs on at most poolSize - 1 workers (1 on a one-worker pool), so another
      // address's request always finds a worker free instead of queueing behind a flood; and it
      // may have at most IDENTITY_FACE_FRAMES_PER_ADDRESS_MINUTE frames analysed a minute (960:
      // two patients' selfies at 8 frames a second).
      face: {
        concurrency: poolSize * 2,
        maxWaiting: c.IDENTITY_FACE_QUEUE || poolSize * 8,
        maxPerKey: c.IDENTITY_FACE_PER_ADDRESS,
        maxRunningPerKey:
          Math.min(
            c.IDENTITY_FACE_RUNNING_PER_ADDRESS || poolSize - 1,
            Math.max(1, poolSize - 1),
          ) || 1,
        budgetPerKey: c.IDENTITY_FACE_FRAMES_PER_ADDRESS_MINUTE,
      },
      document: {
        concurrency: c.IDENTITY_DOCUMENT_CONCURRENCY,
        maxWaiting: c.IDENTITY_DOCUMENT_QUEUE,
        maxPerKey: c.IDENTITY_DOCUMENT_PER_ADDRESS,
      },
    },
    storePhotos: c.IDENTITY_STORE_PHOTOS,
    warmOcr: c.IDENTITY_WARM_OCR,
    faceIndex: loadFaceIndexConfig(env),
    duplicates: loadDuplicateSearchConfig(env),
  };
}

// The face index's settings live in their own file; imported from here too, as they always were.
export { loadFaceIndexConfig, type FaceIndexConfig } from './config-face-index';
