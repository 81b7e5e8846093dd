import { assign, setup, stateIn } from 'xstate';
import {
  DEVICE_NOT_ACTIVATED_STATUS,
  FACE_AUTH_INTERVAL_MS,
  FACE_AUTH_MIN_INTERVAL_MS,
  FACE_AUTH_PREFIX,
  type FaceAuthFrameResponse,
  type FaceAuthStartResponse,
} from '../../contract/face-auth';
import { toFlowError, type FlowError } from '../shared/errors';
import {
  activateDevice,
  camera,
  cameraPermission,
  cameraWatchdog,
  framePolling,
  KIOSK_CAMERA,
  startSession,
  stopSession,
} from './faceAuth.actors';
import type {
  ActivationErrorCode,
  FaceAuthContext,
  FaceAuthError,
  FaceAuthEvent,
  FaceAuthInput,
} from './faceAuth.types';

/** Spec 9: cooldowns of the kiosk loop after a result. */
export const SUCCESS_COOLDOWN_MS = 1500;
export const FAILURE_COOLDOWN_MS = 700;
/** Kiosk retries after an error: 1 s, 2 s, 4 s ... up to 30 s (or the server's Retry-After). */
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

const faceAuthErrorFrom = (err: unknown, during: 'start' | 'frame'): FaceAuthError =>
  faceAuthErrorOf(toFlowError(err), during);

function faceAuthErrorOf(e: FlowError, during: 'start' | 'frame'): FaceAuthError {
  const withMessage = (code: FaceAuthError['code']): FaceAuthError =>
    e.serverMessage ? { code, serverMessage: e.serverMessage } : { code };
  if (e.code === 'network') return { code: 'network' };
  if (e.code === 'tooManyAttempts')
    return {
      ...withMessage('tooManyAttempts'),
      ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
    };
  if (e.status === DEVICE_NOT_ACTIVATED_STATUS) return withMessage('deviceNotActivated');
  return withMessage(during === 'start' ? 'startFailed' : 'frameFailed');
}

const activationErrorFrom = (err: unknown): ActivationErrorCode =>
  toFlowError(err).code === 'network' ? 'network' : 'invalidLink';

const decided = (r: FaceAuthFrameResponse) => r.stage !== 'liveness' && r.result !== null;

/** What an attempt leaves behind, cleared before the next one (nothing of a patient stays). */
const cleared = {
  sessionId: null,
  profile: null,
  feedback: [] as string[],
  result: null,
  error: null,
};

/** The attempt POST stop ends (its errors are ignored, spec 7). */
const attempt = ({ context }: { context: FaceAuthContext }) => ({
  prefix: context.prefix,
  sessionId: context.sessionId,
});
const pollingInput = ({ context }: { context: FaceAuthContext }) => ({
  prefix: context.prefix,
  sessionId: context.sessionId!,
  video: context.video!,
  mirror: context.mirror,
  intervalMs: context.intervalMs,
});
type Started = { event: { output: FaceAuthStartResponse } };
const startedSession = {
  sessionId: ({ event }: Started) => event.output.session_id,
  profile: ({ event }: Started) => event.output.profile,
  intervalMs: ({ event }: Started) =>
    Math.max(FACE_AUTH_MIN_INTERVAL_MS, event.output.recommended_interval_ms),
};

export const faceAuthMachine = setup({
  types: {
    context: {} as FaceAuthContext,
    events: {} as FaceAuthEvent,
    input: {} as FaceAuthInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    camera,
    cameraPermission,
    cameraWatchdog,
    startSession,
    stopSession,
    framePolling,
    activateDevice,
  },
  guards: {
    hasActivationToken: ({ context }) => Boolean(context.activationToken),
    isKioskBoot: ({ context }) => context.bootMode === 'kiosk',
    hasVideo: ({ context }) => context.video !== null,
    isDecided: ({ event }) =>
      event.type === 'poll.result' && decided(event.result as FaceAuthFrameResponse),
    isSuccess: ({ context }) => context.result?.success === true,
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
    assignFeedback: assign({
      feedback: ({ event }) =>
        event.type === 'poll.result' ? (event.result as FaceAuthFrameResponse).feedback : [],
      intervalMs: ({ context, event }) =>
        event.type === 'poll.result'
          ? Math.max(
              FACE_AUTH_MIN_INTERVAL_MS,
              (event.result as FaceAuthFrameResponse).recommended_interval_ms,
            )
          : context.intervalMs,
    }),
    assignResult: assign({
      result: ({ event }) =>
        event.type === 'poll.result' ? (event.result as FaceAuthFrameResponse).result : null,
      failures: 0,
    }),
    assignFrameError: assign({
      error: ({ event }) =>
        event.type === 'poll.error' ? faceAuthErrorOf(event.error, 'frame') : null,
      failures: ({ context }) => context.failures + 1,
    }),
    clearActivationToken: assign({ activationToken: null }),
  },
}).createMachine({
  id: 'faceAuth',
  type: 'parallel',
  context: ({ input }) => ({
    bootMode: input.mode ?? 'manual',
    prefix: input.prefix ?? FACE_AUTH_PREFIX,
    mirror: true,
    stream: null,
    video: null,
    cameraError: null,
    cameraRestarts: 0,
    ...cleared,
    intervalMs: FACE_AUTH_INTERVAL_MS,
    failures: 0,
    activationToken: input.activationToken ?? null,
    activationError: null,
    activatedDevice: null,
  }),
  on: { 'mirror.toggle': { actions: 'toggleMirror' } },
  states: {
    /**
     * The camera: off until 'Habilitar cámara', except on a kiosk whose browser already allows the
     * camera (after a reload or a power cut it starts without a tap); a watchdog reopens it when it
     * ends or freezes.
     */
    camera: {
      initial: 'off',
      states: {
        off: {
          initial: 'checking',
          on: { 'camera.enable': 'on' },
          states: {
            checking: {
              invoke: {
                id: 'cameraPermission',
                src: 'cameraPermission',
                onDone: [
                  {
                    guard: ({ event }) => event.output === 'granted',
                    target: 'allowed',
                  },
                  { target: 'idle' },
                ],
                onError: 'idle',
              },
            },
            /** Allowed already: a kiosk opens it now (manual mode still waits for the tap). */
            allowed: { always: { guard: 'isKiosk', target: '#faceAuth.camera.on' } },
            idle: {},
          },
        },
        on: {
          invoke: { id: 'camera', src: 'camera', input: KIOSK_CAMERA },
          initial: 'opening',
          exit: 'clearCamera',
          on: {
            'camera.error': { target: 'failed', actions: 'assignCameraError' },
            'camera.stalled': { target: 'on', reenter: true, actions: 'countRestart' },
          },
          states: {
            opening: {
              tags: ['busy'],
              on: { 'camera.ready': { target: 'live', actions: 'assignStream' } },
            },
            live: {
              invoke: {
                id: 'cameraWatchdog',
                src: 'cameraWatchdog',
                input: ({ context }) => ({ stream: context.stream! }),
              },
              on: {
                'video.ready': { actions: 'assignVideo' },
                // The tab was hidden: the camera actor let it go and reopens it when visible.
                'camera.released': { target: 'opening', actions: 'clearCamera' },
              },
            },
          },
        },
        failed: {
          tags: ['error'],
          on: { 'camera.retry': 'on', 'camera.enable': 'on' },
        },
      },
    },

    /** The device's activation link, when the page was opened with one. */
    device: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'hasActivationToken', target: 'activating' } },
        activating: {
          tags: ['busy'],
          invoke: {
            id: 'activateDevice',
            src: 'activateDevice',
            input: ({ context }) => ({ token: context.activationToken! }),
            onDone: {
              target: 'activated',
              actions: [
                'clearActivationToken',
                assign({ activatedDevice: ({ event }) => event.output.device }),
              ],
            },
            onError: {
              target: 'activationFailed',
              actions: [
                'clearActivationToken',
                assign({ activationError: ({ event }) => activationErrorFrom(event.error) }),
              ],
            },
          },
        },
        activated: {},
        activationFailed: { tags: ['error'] },
      },
    },

    /** Authentication, in one of two modes. */
    auth: {
      initial: 'manual',
      on: {
        'mode.manual': { target: '.manual', actions: 'clearAttempt' },
        'mode.kiosk': { target: '.kiosk', actions: 'clearAttempt' },
      },
      states: {
        manual: {
          // `/face-login?modo=kiosco` boots into kiosk mode (once: then the mode is the state).
          always: {
            guard: 'isKioskBoot',
            target: 'kiosk',
            actions: assign({ bootMode: 'manual' as const }),
          },
          initial: 'idle',
          states: {
            idle: { on: { 'auth.start': { guard: 'hasVideo', target: 'starting' } } },
            starting: {
              tags: ['busy'],
              entry: 'clearAttempt',
              invoke: {
                id: 'startSession',
                src: 'startSession',
                input: ({ context }) => ({ prefix: context.prefix }),
                onDone: {
                  target: 'polling',
                  actions: assign({
                    ...startedSession,
                  }),
                },
                onError: {
                  target: 'failed',
                  actions: assign({
                    error: ({ event }) => faceAuthErrorFrom(event.error, 'start'),
                  }),
                },
              },
              on: { 'auth.stop': 'idle' },
            },
            polling: {
              tags: ['busy'],
              invoke: {
                id: 'framePolling',
                src: 'framePolling',
                input: pollingInput,
              },
              on: {
                'poll.result': [
                  {
                    guard: 'isDecided',
                    target: 'decided',
                    actions: ['assignFeedback', 'assignResult'],
                  },
                  { actions: 'assignFeedback' },
                ],
                'poll.error': { target: 'failed', actions: 'assignFrameError' },
                'auth.stop': 'stopped',
                'camera.stalled': 'stopped',
                'camera.released': 'stopped',
                'camera.error': 'stopped',
              },
            },
            /** The result stays on screen until the next start; the server forgets it now. */
            decided: {
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              on: { 'auth.start': { guard: 'hasVideo', target: 'starting' } },
            },
            stopped: {
              entry: assign({ feedback: [] }),
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              on: { 'auth.start': { guard: 'hasVideo', target: 'starting' } },
            },
            failed: {
              tags: ['error'],
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              on: { 'auth.start': { guard: 'hasVideo', target: 'starting' } },
            },
          },
        },
        kiosk: {
          initial: 'waiting',
          // The camera went away (ended, froze, tab hidden): the attempt ends; the loop waits for it.
          on: {
            'camera.stalled': '.waiting',
            'camera.released': '.waiting',
            'camera.error': '.waiting',
          },
          states: {
            /** Until the camera plays: then the loop runs by itself. */
            waiting: {
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              exit: 'clearAttempt',
              always: { guard: 'hasVideo', target: 'starting' },
              on: { 'video.ready': 'starting' },
            },
            starting: {
              tags: ['busy'],
              entry: 'clearAttempt',
              invoke: {
                id: 'startSession',
                src: 'startSession',
                input: ({ context }) => ({ prefix: context.prefix }),
                onDone: {
                  target: 'polling',
                  actions: assign({
                    ...startedSession,
                    failures: 0,
                  }),
                },
                onError: [
                  {
                    target: 'blocked',
                    guard: ({ event }) =>
                      faceAuthErrorFrom(event.error, 'start').code === 'deviceNotActivated',
                    actions: assign({
                      error: ({ event }) => faceAuthErrorFrom(event.error, 'start'),
                    }),
                  },
                  {
                    target: 'retrying',
                    actions: assign({
                      error: ({ event }) => faceAuthErrorFrom(event.error, 'start'),
                      failures: ({ context }) => context.failures + 1,
                    }),
                  },
                ],
              },
            },
            polling: {
              tags: ['busy'],
              invoke: {
                id: 'framePolling',
                src: 'framePolling',
                input: pollingInput,
              },
              on: {
                'poll.result': [
                  {
                    guard: 'isDecided',
                    target: 'cooldown',
                    actions: ['assignFeedback', 'assignResult'],
                  },
                  { actions: 'assignFeedback' },
                ],
                'poll.error': { target: 'retrying', actions: 'assignFrameError' },
              },
            },
            /** The result shows for the cooldown while the session ends; then it is cleared. */
            cooldown: {
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              after: { cooldown: { target: 'starting' } },
              exit: 'clearAttempt',
            },
            /** Network or server errors: back off, then a new session. */
            retrying: {
              tags: ['error'],
              invoke: { id: 'stopSession', src: 'stopSession', input: attempt },
              after: { backoff: { target: 'starting' } },
            },
            /** Not an activated device: the page explains; nothing retries by itself. */
            blocked: {
              tags: ['error'],
              on: { 'auth.start': 'starting' },
            },
          },
        },
      },
    },
  },
});

export type FaceAuthMachine = typeof faceAuthMachine;
