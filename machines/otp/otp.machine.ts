import { assign, not, setup, stateIn } from 'xstate';
import { toFlowError, type FlowError } from '../shared/errors';
import { countdownMachine } from '../shared/countdown';
import { onlyDigits } from '../shared/input';
import { resendCode, validateCode } from './otp.actors';
import {
  OTP_LENGTH,
  OTP_RESEND_WAIT_SECONDS,
  type OtpContext,
  type OtpError,
  type OtpEvent,
  type OtpInput,
  type OtpOutput,
} from './otp.types';
import type { InsightStateMeta } from '../insight/meta';

/** A 429 keeps the server's message (it names the wait) and its Retry-After. */
function tooManyAttempts(e: FlowError): OtpError {
  const out: OtpError = { code: 'tooManyAttempts' };
  if (e.serverMessage) out.serverMessage = e.serverMessage;
  if (e.retryAfterSeconds !== undefined) out.retryAfterSeconds = e.retryAfterSeconds;
  return out;
}

/**
 * Validation failure: the server refusing the code (any 4xx but 429) is a wrong or expired code;
 * 429 keeps the server's wait; no answer, a 5xx or an unreadable answer is a network failure
 * (the code is kept so 'Continuar' can try again).
 */
function otpErrorFrom(err: unknown): OtpError {
  const e = toFlowError(err);
  if (e.code === 'tooManyAttempts') return tooManyAttempts(e);
  if (e.code === 'server' && e.status !== undefined && e.status >= 400 && e.status < 500)
    return { code: 'wrongCode' };
  return { code: 'network' };
}

/** Resend failure: 429 keeps the server's message (its wait), anything else is the spec's resend error. */
function resendErrorFrom(err: unknown): OtpError {
  const e = toFlowError(err);
  return e.code === 'tooManyAttempts' ? tooManyAttempts(e) : { code: 'resendFailed' };
}

/**
 * Typing in `editing` and `failed`: digits only; the 6th digit validates (unless the parent turned
 * `autoValidate` off); the submit button validates a complete code.
 */
const typingEvents = {
  'code.change': [
    { guard: 'completesCode', target: 'validating', actions: 'assignCode' },
    { actions: 'assignCode' },
  ],
  'code.submit': { guard: 'isCodeComplete', target: 'validating' },
} as const;

const isValidating = stateIn({ active: { entry: 'validating' } });

/**
 * One SMS code step, reused by onboarding and PIN recovery. Two regions run side by side:
 * `entry` (typing, validating, failure) and `resend` (30 s countdown, resend, resend failure).
 * Reaching 6 digits validates at once. The endpoints are the parent's: provide `validateCode` and
 * `resendCode`. Output on success: the recipient.
 */
export const otpMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as OtpContext,
    events: {} as OtpEvent,
    input: {} as OtpInput,
    output: {} as OtpOutput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      validateCode: 'validateCode';
      resendCode: 'resendCode';
      countdown: 'countdown';
    },
  },
  actors: { validateCode, resendCode, countdown: countdownMachine },
  guards: {
    isCodeComplete: ({ context }) => context.code.length === OTP_LENGTH,
    completesCode: ({ context, event }) =>
      context.autoValidate &&
      event.type === 'code.change' &&
      onlyDigits(event.value, OTP_LENGTH).length === OTP_LENGTH,
    isNotValidating: not(isValidating),
  },
  actions: {
    assignCode: assign({
      code: ({ event }) =>
        event.type === 'code.change' ? onlyDigits(event.value, OTP_LENGTH) : '',
    }),
    clearCode: assign({ code: '' }),
    clearError: assign({ error: null }),
    clearNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'otp',
  meta: { insight: { step: 'verification' } },
  context: ({ input }) => ({
    recipient: input.recipient,
    code: '',
    error: null,
    resendError: null,
    waitSeconds: input.resendAfterSeconds ?? OTP_RESEND_WAIT_SECONDS,
    secondsLeft: input.resendAfterSeconds ?? OTP_RESEND_WAIT_SECONDS,
    notice: null,
    autoValidate: input.autoValidate ?? true,
    failures: 0,
    registration: null,
  }),
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      states: {
        entry: {
          initial: 'editing',
          states: {
            editing: {
              on: typingEvents,
            },
            validating: {
              tags: ['busy'],
              entry: ['clearError', 'clearNotice'],
              invoke: {
                id: 'validateCode',
                src: 'validateCode',
                input: ({ context }) => ({ recipient: context.recipient, code: context.code }),
                onDone: [
                  {
                    guard: ({ event }) => event.output.success,
                    target: '#otp.verified',
                    actions: assign({
                      registration: ({ event }) => event.output.registration ?? null,
                    }),
                  },
                  {
                    target: 'failed',
                    actions: ['clearCode', assign({ error: { code: 'wrongCode' } })],
                  },
                ],
                onError: {
                  target: 'failed',
                  actions: assign(({ event, context }) => {
                    const error = otpErrorFrom(event.error);
                    return { error, code: error.code === 'network' ? context.code : '' };
                  }),
                },
              },
            },
            failed: {
              tags: ['error'],
              entry: assign({ failures: ({ context }) => context.failures + 1 }),
              on: typingEvents,
            },
          },
        },
        resend: {
          initial: 'waiting',
          states: {
            waiting: {
              entry: assign({ secondsLeft: ({ context }) => context.waitSeconds }),
              invoke: {
                id: 'countdown',
                src: 'countdown',
                input: ({ context }) => ({ seconds: context.waitSeconds }),
                onSnapshot: {
                  actions: assign({
                    secondsLeft: ({ event }) => event.snapshot.context.secondsLeft,
                  }),
                },
                onDone: 'available',
              },
            },
            available: {
              entry: assign({ secondsLeft: 0 }),
              on: { 'code.resend': { guard: 'isNotValidating', target: 'resending' } },
            },
            resending: {
              meta: { insight: { retry: true } },
              tags: ['busy'],
              entry: [assign({ resendError: null }), 'clearNotice'],
              invoke: {
                id: 'resendCode',
                src: 'resendCode',
                input: ({ context }) => ({ recipient: context.recipient }),
                onDone: [
                  {
                    guard: ({ event }) => event.output.success,
                    // A new code: the typed one and its error belong to the old one.
                    target: ['#otp.active.resend.waiting', '#otp.active.entry.editing'],
                    actions: [
                      'clearCode',
                      'clearError',
                      assign({
                        notice: 'codeResent',
                        waitSeconds: ({ event }) =>
                          event.output.resendAfterSeconds ?? OTP_RESEND_WAIT_SECONDS,
                      }),
                    ],
                  },
                  {
                    target: 'resendFailed',
                    actions: assign({ resendError: { code: 'resendFailed' } }),
                  },
                ],
                onError: {
                  target: 'resendFailed',
                  actions: assign({ resendError: ({ event }) => resendErrorFrom(event.error) }),
                },
              },
            },
            resendFailed: {
              tags: ['error'],
              on: { 'code.resend': { guard: 'isNotValidating', target: 'resending' } },
            },
          },
        },
      },
    },
    verified: { type: 'final' },
  },
  output: ({ context }) => ({ recipient: context.recipient, registration: context.registration }),
});

export type OtpMachine = typeof otpMachine;
