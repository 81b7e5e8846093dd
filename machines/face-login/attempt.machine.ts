import { assign, sendParent, setup } from 'xstate';
import {
  DEVICE_NOT_ACTIVATED_STATUS,
  FACE_LOGIN_INTERVAL_MS,
  FACE_LOGIN_MIN_INTERVAL_MS,
  type FaceLoginFrameResponse,
} from '../../contract/face-login';
import { toFlowError, type FlowError } from '../shared/errors';
import { framePolling, startSession } from './face-login.actors';
import type {
  AttemptContext,
  AttemptEvent,
  AttemptInput,
  AttemptReport,
  FaceLoginError,
} from './face-login.types';
import type { InsightStateMeta } from '../insight/meta';

const faceLoginErrorFrom = (err: unknown, during: 'start' | 'frame'): FaceLoginError =>
  faceLoginErrorOf(toFlowError(err), during);

function faceLoginErrorOf(e: FlowError, during: 'start' | 'frame'): FaceLoginError {
  const withMessage = (code: FaceLoginError['code']): FaceLoginError =>
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

/** A frame decides when the liveness challenge is over and the server gave its result. */
const decides = (frame: FaceLoginFrameResponse) =>
  frame.stage !== 'liveness' && frame.result !== null;

/**
 * One face-authentication attempt, the same in manual and kiosk mode: start a liveness session,
 * send frames at the server's pace until a frame decides, then end. It reports to the page as it
 * goes (AttemptReport); the page decides what follows (show the result, cool down, back off) and
 * ends the session on the server (POST stop), also when it stops the attempt early.
 */
export const attemptMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as AttemptContext,
    events: {} as AttemptEvent,
    input: {} as AttemptInput,
  },
  actors: { startSession, framePolling },
}).createMachine({
  id: 'faceLoginAttempt',
  context: ({ input }) => ({ ...input, sessionId: null, intervalMs: FACE_LOGIN_INTERVAL_MS }),
  initial: 'starting',
  states: {
    starting: {
      invoke: {
        id: 'startSession',
        src: 'startSession',
        input: ({ context }) => ({ prefix: context.prefix }),
        onDone: {
          target: 'polling',
          actions: [
            assign({
              sessionId: ({ event }) => event.output.session_id,
              intervalMs: ({ event }) =>
                Math.max(FACE_LOGIN_MIN_INTERVAL_MS, event.output.recommended_interval_ms),
            }),
            sendParent(({ event }): AttemptReport => ({
              type: 'attempt.started',
              session: event.output,
            })),
          ],
        },
        onError: {
          target: 'failed',
          actions: sendParent(({ event }): AttemptReport => ({
            type: 'attempt.failed',
            error: faceLoginErrorFrom(event.error, 'start'),
            during: 'start',
          })),
        },
      },
    },
    polling: {
      invoke: {
        id: 'framePolling',
        src: 'framePolling',
        input: ({ context }) => ({
          prefix: context.prefix,
          sessionId: context.sessionId!,
          video: context.video,
          mirror: context.mirror,
          intervalMs: context.intervalMs,
        }),
      },
      on: {
        'poll.result': [
          {
            guard: ({ event }) => decides(event.result),
            target: 'decided',
            actions: sendParent(({ event }): AttemptReport => ({
              type: 'attempt.decided',
              frame: event.result,
            })),
          },
          {
            actions: sendParent(({ event }): AttemptReport => ({
              type: 'attempt.frame',
              frame: event.result,
            })),
          },
        ],
        'poll.error': {
          target: 'failed',
          actions: sendParent(({ event }): AttemptReport => ({
            type: 'attempt.failed',
            error: faceLoginErrorOf(event.error, 'frame'),
            during: 'frame',
          })),
        },
      },
    },
    decided: { type: 'final' },
    failed: { type: 'final' },
  },
});
