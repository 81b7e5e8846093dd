import { assign, setup } from 'xstate';
import { DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from '../../contract/login';
import { PIN_FROM_OWN_DATA, pinProblem } from '../../contract/pin';
import { toFlowError } from '../shared/errors';
import { onlyDigits } from '../shared/input';
import { localPhoneInput, phoneFromInput } from '../shared/phone';
import { otpMachine } from '../otp/otp.machine';
import {
  resendRecoveryCode,
  saveNewPin,
  sendRecoveryCode,
  validateRecoveryCode,
} from './recovery.actors';
import type {
  RecoveryContext,
  RecoveryError,
  RecoveryErrorCode,
  RecoveryEvent,
  RecoveryFieldErrors,
} from './recovery.types';
import type { InsightStateMeta } from '../insight/meta';

/** A failed call: 429 keeps the server's wait, any other answer its message, else the fallback. */
function recoveryErrorFrom(err: unknown, fallback: RecoveryErrorCode): RecoveryError {
  const e = toFlowError(err);
  const code = e.code === 'tooManyAttempts' ? 'tooManyAttempts' : fallback;
  return e.serverMessage && (e.code === 'tooManyAttempts' || e.code === 'server')
    ? { code, serverMessage: e.serverMessage }
    : { code };
}

/** set-new-pin refused the PIN as made from the patient's own data: a message under the field. */
function saveErrorFrom(err: unknown): RecoveryError {
  return toFlowError(err).reason === PIN_FROM_OWN_DATA
    ? { code: 'pinFromOwnData' }
    : recoveryErrorFrom(err, 'saveFailed');
}

const isDocumentoValid = (documento: string) => documento.length >= DOCUMENT_MIN;
const isCelularValid = (celular: string) => phoneFromInput(celular) !== null;
const noFieldErrors: RecoveryFieldErrors = { documento: null, celular: null };

/** A `success: false` answer: its message, else the fallback. */
const refused = (code: RecoveryErrorCode, message: string | undefined): RecoveryError =>
  message ? { code, serverMessage: message } : { code };

export const initialRecoveryContext: RecoveryContext = {
  documento: '',
  celular: '',
  resendAfterSeconds: null,
  pin: '',
  fieldErrors: noFieldErrors,
  error: null,
  failures: 0,
};

/** Step 0's fields, in every state where they are editable; an edit clears the last error. */
const requestEditing = {
  'documento.change': { target: 'editing', actions: 'assignDocumento' },
  'celular.change': { target: 'editing', actions: 'assignCelular' },
  'form.submit': [
    { guard: 'isRequestValid', target: 'sending' },
    // reenter: every refused submit counts (the focus goes back to the field to fix)
    { target: 'invalid', reenter: true, actions: 'assignRequestInvalid' },
  ],
} as const;

/** Step 2's field; after an error the typed PIN stays, an edit starts over from `editing`. */
const pinEditing = {
  'pin.change': { target: 'editing', actions: 'assignPin' },
  'form.submit': [
    { guard: 'isPinAcceptable', target: 'saving' },
    { target: 'invalid', reenter: true, actions: 'assignPinInvalid' },
  ],
} as const;

/**
 * PIN recovery, steps 0 to 3 as the spec numbers them: `request` (0: document and registered
 * mobile, send-pin-otp), `verification` (1: the shared OTP child, validate-pin-otp; resend is
 * send-pin-otp again; its back arrow returns to step 0 with what was typed), `newPin` (2:
 * set-new-pin, which the server allows only with the grant cookie step 1 earned) and `done` (3).
 * Steps 0 and 2 leave to /login by a link. Nothing typed is lost on an error.
 */
export const recoveryMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as RecoveryContext,
    events: {} as RecoveryEvent,
    tags: {} as 'busy' | 'error',
    children: {} as {
      sendRecoveryCode: 'sendRecoveryCode';
      otp: 'otp';
      saveNewPin: 'saveNewPin';
    },
  },
  actors: {
    sendRecoveryCode,
    saveNewPin,
    otp: otpMachine.provide({
      actors: { validateCode: validateRecoveryCode, resendCode: resendRecoveryCode },
    }),
  },
  guards: {
    isRequestValid: ({ context }) =>
      isDocumentoValid(context.documento) && isCelularValid(context.celular),
    // The document number is known here; the birth date only to the server, which checks it too.
    isPinAcceptable: ({ context }) =>
      pinProblem(context.pin, { documento: context.documento }) === null,
  },
  actions: {
    // A field's message stays until that field is fixed; the send's banner goes with any edit.
    assignDocumento: assign(({ context, event }) => {
      const documento =
        event.type === 'documento.change'
          ? onlyDigits(event.value, DOCUMENT_MAX)
          : context.documento;
      const fixed = isDocumentoValid(documento);
      return {
        documento,
        fieldErrors: fixed ? { ...context.fieldErrors, documento: null } : context.fieldErrors,
        error: null,
      };
    }),
    assignCelular: assign(({ context, event }) => {
      const celular =
        event.type === 'celular.change' ? localPhoneInput(event.value) : context.celular;
      const fixed = isCelularValid(celular);
      return {
        celular,
        fieldErrors: fixed ? { ...context.fieldErrors, celular: null } : context.fieldErrors,
        error: null,
      };
    }),
    assignRequestInvalid: assign(({ context }) => ({
      fieldErrors: {
        documento: isDocumentoValid(context.documento) ? null : 'documentoInvalid',
        celular: isCelularValid(context.celular) ? null : 'celularInvalid',
      } satisfies RecoveryFieldErrors,
      error: null,
    })),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    assignPin: assign(({ context, event }) => ({
      pin: event.type === 'pin.change' ? onlyDigits(event.value, PIN_LENGTH) : context.pin,
      error: null,
    })),
    assignPinInvalid: assign({
      error: ({ context }) => ({
        code:
          pinProblem(context.pin, { documento: context.documento }) === 'ownData'
            ? 'pinFromOwnData'
            : 'pinInvalid',
      }),
    }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'recovery',
  meta: { insight: { flow: 'recovery' } },
  context: initialRecoveryContext,
  initial: 'request',
  states: {
    request: {
      meta: { insight: { step: 'request' } },
      initial: 'editing',
      states: {
        editing: { on: requestEditing },
        invalid: { tags: ['error'], entry: 'countFailure', on: requestEditing },
        sending: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'sendRecoveryCode',
            src: 'sendRecoveryCode',
            input: ({ context }) => ({
              numero_documento: context.documento,
              // Submitted only when valid (isRequestValid): the local 09XXXXXXXX the server takes.
              celular: phoneFromInput(context.celular) ?? context.celular,
            }),
            onDone: [
              {
                guard: ({ event }) => event.output.success,
                target: '#recovery.verification',
                actions: assign({
                  resendAfterSeconds: ({ event }) => event.output.resendAfterSeconds ?? null,
                }),
              },
              {
                target: 'failed',
                actions: assign({
                  error: ({ event }) => refused('sendFailed', event.output.message),
                }),
              },
            ],
            onError: {
              target: 'failed',
              actions: assign({
                error: ({ event }) => recoveryErrorFrom(event.error, 'sendFailed'),
              }),
            },
          },
        },
        failed: { tags: ['error'], entry: 'countFailure', on: requestEditing },
      },
    },
    verification: {
      meta: { insight: { step: 'verification' } },
      on: { 'flow.back': '#recovery.request.editing' },
      invoke: {
        id: 'otp',
        src: 'otp',
        input: ({ context }) => ({
          recipient: {
            celular: phoneFromInput(context.celular) ?? context.celular,
            numeroDocumento: context.documento,
          },
          resendAfterSeconds: context.resendAfterSeconds ?? undefined,
          // The 6th digit validates, as in registration (issue 29 item 15).
        }),
        onDone: 'newPin',
        onError: 'unexpected',
      },
    },
    newPin: {
      meta: { insight: { step: 'newPin' } },
      initial: 'editing',
      states: {
        editing: { on: pinEditing },
        invalid: { tags: ['error'], entry: 'countFailure', on: pinEditing },
        saving: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'saveNewPin',
            src: 'saveNewPin',
            input: ({ context }) => ({ numero_documento: context.documento, pin: context.pin }),
            onDone: [
              { guard: ({ event }) => event.output.success, target: '#recovery.done' },
              {
                target: 'failed',
                actions: assign({
                  error: ({ event }) => refused('saveFailed', event.output.message),
                }),
              },
            ],
            onError: {
              target: 'failed',
              actions: assign({ error: ({ event }) => saveErrorFrom(event.error) }),
            },
          },
        },
        failed: { tags: ['error'], entry: 'countFailure', on: pinEditing },
      },
    },
    // The code step failed as a machine (a bug, not a patient's mistake).
    unexpected: {
      meta: { insight: { fails: 'unexpected' } },
      tags: ['error'],
      entry: assign({ error: { code: 'unexpected' } }),
      on: { 'flow.back': '#recovery.request.editing' },
    },
    done: {
      type: 'final',
      meta: { insight: { end: 'passed' } },
      // The PIN is not needed any more once the server has it.
      entry: assign({ pin: '' }),
    },
  },
});

export type RecoveryMachine = typeof recoveryMachine;
