import { assign } from 'xstate';
import { FACE_LOGIN_INTERVAL_MS, FACE_LOGIN_PREFIX } from '../../contract/face-login';
import { KIOSK_CAMERA } from './face-login.actors';
import { activationErrorFrom, cleared, faceLoginSetup } from './face-login.setup';
import type { FaceLoginContext } from './face-login.types';

/** The session POST stop ends (its errors are ignored, spec 7). */
const session = ({ context }: { context: FaceLoginContext }) => ({
  prefix: context.prefix,
  sessionId: context.sessionId,
});

/**
 * One attempt, as both modes run it: the `attempt` child starts a session and sends frames; its
 * reports move this state from `starting` to `polling` and keep the page's copy of the session and
 * the latest feedback (what the page shows). Each mode adds where a decision or a failure leads.
 */
const attempt = {
  meta: { insight: { attempt: { step: 'recognition', at: 'attempt' } } },
  tags: ['busy'],
  entry: 'clearAttempt',
  invoke: {
    id: 'attempt',
    src: 'attempt',
    input: ({ context }: { context: FaceLoginContext }) => ({
      prefix: context.prefix,
      video: context.video!,
      mirror: context.mirror,
    }),
  },
  initial: 'starting',
  on: {
    'attempt.started': { target: '.polling', actions: 'assignSession' },
    'attempt.frame': { actions: 'assignFeedback' },
  },
} as const;

/** A recognition's decision (passed when the face was recognised) and its failure, for insight. */
const decision = {
  step: 'recognition',
  at: 'decided',
  passed: (context: FaceLoginContext) => context.result?.success === true,
} as const;
const attemptFailed = { step: 'recognition', at: 'failed' } as const;

export const faceLoginMachine = faceLoginSetup.createMachine({
  id: 'faceLogin',
  meta: { insight: { flow: 'faceLogin' } },
  type: 'parallel',
  context: ({ input }) => ({
    bootMode: input.mode ?? 'manual',
    prefix: input.prefix ?? FACE_LOGIN_PREFIX,
    mirror: true,
    stream: null,
    video: null,
    cameraError: null,
    cameraRestarts: 0,
    ...cleared,
    intervalMs: FACE_LOGIN_INTERVAL_MS,
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
            allowed: { always: { guard: 'isKiosk', target: '#faceLogin.camera.on' } },
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
              meta: { insight: { outcome: { step: 'camera' } } },
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
          meta: { insight: { outcome: { step: 'camera', error: 'cameraError' } } },
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
        activated: { meta: { insight: { outcome: { step: 'activation' } } } },
        activationFailed: {
          meta: { insight: { outcome: { step: 'activation', error: 'activationError' } } },
          tags: ['error'],
        },
      },
    },

    /**
     * Authentication, in one of two modes. Both run the same attempt (the `attempt` child: a
     * session, its frames, its decision); they differ in what follows it.
     */
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
            idle: { on: { 'auth.start': { guard: 'hasVideo', target: 'attempt' } } },
            attempt: {
              ...attempt,
              on: {
                ...attempt.on,
                'attempt.decided': {
                  target: 'decided',
                  actions: ['assignFeedback', 'assignResult'],
                },
                'attempt.failed': { target: 'failed', actions: 'assignError' },
              },
              states: {
                starting: { on: { 'auth.stop': '#faceLogin.auth.manual.idle' } },
                polling: {
                  on: {
                    'auth.stop': '#faceLogin.auth.manual.stopped',
                    'camera.stalled': '#faceLogin.auth.manual.stopped',
                    'camera.released': '#faceLogin.auth.manual.stopped',
                    'camera.error': '#faceLogin.auth.manual.stopped',
                  },
                },
              },
            },
            /** The result stays on screen until the next start; the server forgets it now. */
            decided: {
              meta: { insight: { attempt: decision } },
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              on: { 'auth.start': { guard: 'hasVideo', target: 'attempt' } },
            },
            stopped: {
              entry: assign({ feedback: [] }),
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              on: { 'auth.start': { guard: 'hasVideo', target: 'attempt' } },
            },
            failed: {
              meta: { insight: { attempt: attemptFailed } },
              tags: ['error'],
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              on: { 'auth.start': { guard: 'hasVideo', target: 'attempt' } },
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
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              exit: 'clearAttempt',
              always: { guard: 'hasVideo', target: 'attempt' },
              on: { 'video.ready': 'attempt' },
            },
            attempt: {
              ...attempt,
              on: {
                ...attempt.on,
                'attempt.decided': [
                  {
                    guard: 'isTimeUp',
                    target: 'timedOut',
                    actions: ['assignFeedback', 'assignResult'],
                  },
                  { target: 'cooldown', actions: ['assignFeedback', 'assignResult'] },
                ],
                'attempt.failed': [
                  { guard: 'isDeviceRefused', target: 'blocked', actions: 'assignError' },
                  { target: 'retrying', actions: ['assignError', 'countFailure'] },
                ],
              },
              states: { starting: {}, polling: {} },
            },
            /** The result shows for the cooldown while the session ends; then it is cleared. */
            cooldown: {
              meta: { insight: { attempt: decision } },
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              after: { cooldown: { target: 'attempt' } },
              exit: 'clearAttempt',
            },
            /**
             * Nobody blinked before the liveness time ran out: the session ends, and 'Volvé a
             * iniciar la validación' waits for a tap (a photo in front of the camera does not loop
             * for ever; a patient who came late starts again).
             */
            timedOut: {
              meta: { insight: { attempt: decision } },
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              on: { 'auth.start': { guard: 'hasVideo', target: 'attempt' } },
              exit: 'clearAttempt',
            },
            /** Network or server errors: back off, then a new session. */
            retrying: {
              meta: { insight: { attempt: attemptFailed } },
              tags: ['error'],
              invoke: { id: 'stopSession', src: 'stopSession', input: session },
              after: { backoff: { target: 'attempt' } },
            },
            /** Not an activated device: the page explains; nothing retries by itself. */
            blocked: {
              meta: { insight: { attempt: attemptFailed } },
              tags: ['error'],
              on: { 'auth.start': 'attempt' },
            },
          },
        },
      },
    },
  },
});

export type FaceLoginMachine = typeof faceLoginMachine;
