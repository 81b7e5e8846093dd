import { assign, setup, stateIn } from 'xstate';
import { FACE_LOGIN_MIN_INTERVAL_MS } from '../../contract/face-login';
import { DUPLICATE_FRAME_MARK } from '../../contract/identity';
import { toFlowError } from '../shared/errors';
import { attemptMachine } from './attempt.machine';
import {
  activateDevice,
  camera,
  cameraPermission,
  cameraWatchdog,
  stopSession,
} from './face-login.actors';
import type { InsightStateMeta } from '../insight/meta';
import type {
  ActivationErrorCode,
  FaceLoginContext,
  FaceLoginEvent,
  FaceLoginInput,
} from './face-login.types';

/**
 * Face authentication's types, actors, guards, delays and actions (face-login.machine.ts has its
 * states).
 */

/** Spec 9: cooldowns of the kiosk loop after a result. */
export const SUCCESS_COOLDOWN_MS = 1500;
export const FAILURE_COOLDOWN_MS = 700;
/** Kiosk retries after an error: 1 s, 2 s, 4 s ... up to 30 s (or the server's Retry-After). */
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

export const activationErrorFrom = (err: unknown): ActivationErrorCode =>
  toFlowError(err).code === 'network' ? 'network' : 'invalidLink';

/** What an attempt leaves behind, cleared before the next one (nothing of a patient stays). */
export const cleared = {
  sessionId: null,
  profile: null,
  feedback: [] as string[],
  hint: null,
  result: null,
  error: null,
};

export const faceLoginSetup = setup({
  types: {
    context: {} as FaceLoginContext,
    events: {} as FaceLoginEvent,
    input: {} as FaceLoginInput,
    tags: {} as 'busy' | 'error',
    meta: {} as InsightStateMeta<FaceLoginContext>,
  },
  actors: {
    camera,
    cameraPermission,
    cameraWatchdog,
    stopSession,
    activateDevice,
    attempt: attemptMachine,
  },
  guards: {
    hasActivationToken: ({ context }) => Boolean(context.activationToken),
    isKioskBoot: ({ context }) => context.bootMode === 'kiosk',
    hasVideo: ({ context }) => context.video !== null,
    /** Nobody blinked in time (nobody there, or a photo): a kiosk waits for a tap. */
    isTimeUp: ({ event }) => event.type === 'attempt.decided' && !!event.frame.result?.time_up,
    /** The server refused this device as the attempt began: a kiosk stops and explains. */
    isDeviceRefused: ({ event }) =>
      event.type === 'attempt.failed' &&
      event.during === 'start' &&
      event.error.code === 'deviceNotActivated',
    isKiosk: stateIn({ auth: 'kiosk' }),
  },
  delays: {
    cooldown: ({ context }) =>
      context.result?.success ? SUCCESS_COOLDOWN_MS : FAILURE_COOLDOWN_MS,
    backoff: ({ context }) =>
      context.error?.retryAfterSeconds !== undefined
        ? Math.min(BACKOFF_MAX_MS * 10, context.error.retryAfterSeconds * 1000)
        : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, context.failures - 1)),
  },
  actions: {
    assignStream: assign({
      stream: ({ event }) => (event.type === 'camera.ready' ? event.stream : null),
      cameraError: null,
    }),
    assignVideo: assign({
      video: ({ event }) => (event.type === 'video.ready' ? event.video : null),
    }),
    clearCamera: assign({ stream: null, video: null }),
    assignCameraError: assign({
      cameraError: ({ event }) => (event.type === 'camera.error' ? event.code : null),
      stream: null,
      video: null,
    }),
    countRestart: assign({ cameraRestarts: ({ context }) => context.cameraRestarts + 1 }),
    toggleMirror: assign({ mirror: ({ context }) => !context.mirror }),
    clearAttempt: assign(cleared),
    assignSession: assign({
      sessionId: ({ context, event }) =>
        event.type === 'attempt.started' ? event.session.session_id : context.sessionId,
      profile: ({ context, event }) =>
        event.type === 'attempt.started' ? event.session.profile : context.profile,
      intervalMs: ({ context, event }) =>
        event.type === 'attempt.started'
          ? Math.max(FACE_LOGIN_MIN_INTERVAL_MS, event.session.recommended_interval_ms)
          : context.intervalMs,
      failures: 0,
    }),
    assignFeedback: assign({
      feedback: ({ context, event }) =>
        event.type === 'attempt.frame' || event.type === 'attempt.decided'
          ? event.frame.feedback
          : context.feedback,
      hint: ({ context, event }) =>
        event.type === 'attempt.frame' || event.type === 'attempt.decided'
          ? (event.frame.feedback.find((f) => !f.toLowerCase().includes(DUPLICATE_FRAME_MARK)) ??
            context.hint)
          : context.hint,
      intervalMs: ({ context, event }) =>
        event.type === 'attempt.frame' || event.type === 'attempt.decided'
          ? Math.max(FACE_LOGIN_MIN_INTERVAL_MS, event.frame.recommended_interval_ms)
          : context.intervalMs,
    }),
    assignResult: assign({
      result: ({ event }) => (event.type === 'attempt.decided' ? event.frame.result : null),
      failures: 0,
    }),
    assignError: assign({
      error: ({ event }) => (event.type === 'attempt.failed' ? event.error : null),
    }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    clearActivationToken: assign({ activationToken: null }),
  },
});
