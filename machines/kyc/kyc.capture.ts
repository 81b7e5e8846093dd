import { assign } from 'xstate';
import type { CameraInput } from '../shared/camera';
import { DOCUMENT_CAPTURE } from './kyc.actors';
import { assistFrom } from './kyc.assist';
import { livenessErrorFrom } from './kyc.errors';
import { kycSetup } from './kyc.setup';

const SELFIE_CAMERA: CameraInput = { facing: 'user', width: 640, height: 480 };
const DOCUMENT_CAMERA: CameraInput = { facing: 'environment', width: 1920, height: 1080 };

/** The selfie: blink liveness on the front camera; once passed, on to the document after 1.2 s. */
export const selfieState = kycSetup.createStateConfig({
  meta: { insight: { step: 'selfie' } },
  entry: assign({ feedback: [], error: null }),
  // A person's request to repeat it (issue 30) is said on the selfie only.
  exit: assign({ repeatNotice: false }),
  invoke: { id: 'camera', src: 'camera', input: SELFIE_CAMERA },
  initial: 'opening',
  on: {
    'camera.error': { target: '.cameraFailed', actions: 'assignCameraError' },
    'camera.released': { target: '.opening', actions: 'clearStream' },
    ...assistFrom('selfie'),
  },
  states: {
    opening: {
      on: { 'camera.ready': { target: 'idle', actions: 'assignStream' } },
    },
    idle: {
      meta: { insight: { cameraLive: true } },
      on: { 'liveness.start': 'running' },
    },
    running: {
      tags: ['busy'],
      entry: assign({ feedback: [], framing: [], progress: null }),
      // Nothing of the challenge shows once it stops (passed, failed, stopped, camera lost).
      exit: assign({ cue: null, lightColour: null, framing: [] }),
      // Issue 41, no silence: progress on the challenge (an answer's lines that changed, a cue shown,
      // a colour painted) starts `progressing` again; `stall` without any and the oval says why
      // (kyc.framing.ts).
      initial: 'progressing',
      states: {
        progressing: { after: { stall: 'stalled' } },
        stalled: {},
      },
      invoke: {
        id: 'livenessSampling',
        src: 'livenessSampling',
        input: ({ context }) => ({
          stream: context.stream!,
          sessionId: context.sessionId!,
          clockOrigin: context.clockOrigin,
          challenge: context.challengeAsked,
          // A darker exposure before a bright background helps only the light's check.
          backlight: context.challenge === 'cues,light',
        }),
      },
      after: { livenessTimeout: { target: 'failed', actions: 'assignNotDetected' } },
      on: {
        'liveness.stop': 'idle',
        // The challenge (issue 31): the sampling actor keeps the clock and says what shows when.
        'liveness.clock': { actions: assign({ clockOrigin: ({ event }) => event.origin }) },
        'cue.show': {
          target: '.progressing',
          actions: assign({ cue: ({ event }) => event.cue }),
        },
        'cue.hide': { actions: assign({ cue: null }) },
        'light.show': {
          target: '.progressing',
          actions: assign({ lightColour: ({ event }) => event.colour }),
        },
        'light.off': { actions: assign({ lightColour: null }) },
        'poll.result': [
          {
            guard: 'isLive',
            target: 'passed',
            actions: 'assignLivenessAnswer',
          },
          // The server's time is over (it counts from the first frame, across a stop and start).
          { guard: 'isTimeUp', target: 'failed', actions: 'assignNotDetected' },
          // (a child's target starts that child again, and its timer, not `running`'s actors)
          { guard: 'isProgress', target: '.progressing', actions: 'assignLivenessAnswer' },
          { actions: 'assignLivenessAnswer' },
        ],
        'poll.error': {
          target: 'failed',
          actions: {
            type: 'assignFailure',
            params: ({ event }) => livenessErrorFrom(event.error),
          },
        },
      },
    },
    passed: {
      after: {
        redirect: { target: '#kyc.document', actions: assign({ side: 'front', error: null }) },
      },
    },
    // 'Intentar nuevamente': a new session (the old one may be spent or expired), camera reopened.
    failed: {
      tags: ['error'],
      on: {
        'liveness.start': {
          target: '#kyc.starting',
          actions: assign({ sessionId: null, stream: null }),
        },
      },
    },
    cameraFailed: {
      tags: ['error'],
      on: {
        'camera.ready': { target: 'idle', actions: 'assignStream' },
        'camera.retry': { actions: 'retryCamera' },
      },
    },
  },
});

/** The document: front ('frontal') then back ('dorso'), each live camera (or a file), then preview. */
export const documentState = kycSetup.createStateConfig({
  meta: { insight: { step: 'document' } },
  initial: 'live',
  on: assistFrom('document'),
  states: {
    live: {
      // The camera runs only while the live view shows: leaving (preview, upload) stops it.
      invoke: { id: 'camera', src: 'camera', input: DOCUMENT_CAMERA },
      // A resumed registration's notice goes with its first screen (issue 29 item 13).
      exit: assign({ resumedHere: false, repeatNotice: false }),
      initial: 'opening',
      on: {
        'camera.error': { target: '.cameraFailed', actions: 'assignCameraError' },
        'camera.released': { target: '.opening', actions: 'clearStream' },
        'document.upload': { target: '#kyc.document.preparing', actions: 'clearError' },
      },
      states: {
        opening: {
          on: { 'camera.ready': { target: 'waiting', actions: 'assignStream' } },
        },
        // The stream is there but the view's video does not play yet: 'Capturar' is disabled.
        waiting: { meta: { insight: { cameraLive: true } }, on: { 'video.playing': 'playing' } },
        playing: { on: { 'document.capture': 'capturing' } },
        capturing: {
          tags: ['busy'],
          invoke: {
            id: 'frameCapture',
            src: 'frameCapture',
            input: ({ context }) => ({ stream: context.stream!, options: DOCUMENT_CAPTURE }),
            onDone: {
              target: '#kyc.document.preview',
              actions: [
                'clearError',
                assign(({ context, event }) => ({
                  ...(context.side === 'front' ? { front: event.output } : { back: event.output }),
                  photoUploaded: false,
                })),
              ],
            },
            onError: { target: 'failedCapture', actions: 'assignImageFailed' },
          },
        },
        failedCapture: {
          tags: ['error'],
          on: { 'document.capture': { target: 'capturing', actions: 'clearError' } },
        },
        cameraFailed: {
          tags: ['error'],
          on: {
            'camera.ready': { target: 'waiting', actions: 'assignStream' },
            'camera.retry': { actions: 'retryCamera' },
          },
        },
      },
    },
    preparing: {
      tags: ['busy'],
      invoke: {
        id: 'imageScaling',
        src: 'imageScaling',
        input: ({ event }) => ({
          file: event.type === 'document.upload' ? event.file : new Blob(),
        }),
        onDone: {
          target: 'preview',
          actions: assign(({ context, event }) => ({
            ...(context.side === 'front' ? { front: event.output } : { back: event.output }),
            photoUploaded: true,
          })),
        },
        onError: { target: 'live.failedCapture', actions: 'assignImageFailed' },
      },
    },
    preview: {
      // A hint before sending (too dark, the card too far): advisory, it never blocks.
      invoke: {
        id: 'photoHint',
        src: 'photoHint',
        input: ({ context }) => ({
          photo: (context.side === 'front' ? context.front : context.back) ?? new Blob(),
        }),
        onDone: { actions: assign({ photoHint: ({ event }) => event.output }) },
        // A photo the browser cannot decode for the hint is still sent: no hint, no error.
        onError: {},
      },
      exit: assign({ photoHint: null }),
      on: {
        // 'Elegir otra imagen' after an upload: another file, straight from the preview.
        'document.upload': { target: '#kyc.document.preparing', actions: 'clearError' },
        'document.retake': {
          target: 'live',
          actions: assign(({ context }) =>
            context.side === 'front' ? { front: null } : { back: null },
          ),
        },
        'document.accept': [
          {
            // The front asked for again, the back kept (here, or by the server after a person
            // asked for the front only): to verification.
            guard: ({ context }) =>
              context.side === 'front' && (context.back !== null || context.retakeOnly === 'front'),
            target: '#kyc.verifying',
          },
          {
            guard: ({ context }) => context.side === 'front',
            target: '#kyc.document',
            reenter: true,
            actions: assign({ side: 'back', error: null }),
          },
          { target: '#kyc.verifying' },
        ],
      },
    },
  },
});
