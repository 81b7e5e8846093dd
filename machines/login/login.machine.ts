import { assign, setup } from 'xstate';
import { DOCUMENT_MAX, DOCUMENT_MIN, PIN_LENGTH } from '../../contract/login.constants';
import { toFlowError } from '../shared/errors';
import { onlyDigits } from '../shared/input';
import { submitLogin } from './login.actors';
import type { LoginContext, LoginError, LoginEvent } from './login.types';
import type { InsightStateMeta } from '../insight/meta';

function loginErrorFrom(err: unknown): LoginError {
  const e = toFlowError(err);
  const withMessage = (code: LoginError['code']): LoginError =>
    e.serverMessage ? { code, serverMessage: e.serverMessage } : { code };
  switch (e.code) {
    case 'tooManyAttempts':
      return withMessage('tooManyAttempts');
    case 'server':
      return withMessage('loginFailed');
    default:
      return { code: 'network' };
  }
}

export const loginMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as LoginContext,
    events: {} as LoginEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: { submitLogin },
  guards: {
    canSubmit: ({ context }) =>
      context.documento.length >= DOCUMENT_MIN &&
      new RegExp(`^\\d{${PIN_LENGTH}}$`).test(context.pin),
  },
  actions: {
    assignDocumento: assign({
      documento: ({ event }) =>
        event.type === 'documento.change' ? onlyDigits(event.value, DOCUMENT_MAX) : '',
    }),
    assignPin: assign({
      pin: ({ event }) => (event.type === 'pin.change' ? onlyDigits(event.value, PIN_LENGTH) : ''),
    }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'login',
  meta: { insight: { flow: 'login', step: 'login' } },
  context: { documento: '', pin: '', error: null, failures: 0 },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'documento.change': { actions: 'assignDocumento' },
        'pin.change': { actions: 'assignPin' },
        'form.submit': { guard: 'canSubmit', target: 'submitting' },
      },
    },
    submitting: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'submitLogin',
        src: 'submitLogin',
        input: ({ context }) => ({ numero_documento: context.documento, pin: context.pin }),
        onDone: [
          { guard: ({ event }) => event.output.success, target: 'done' },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) =>
                event.output.message
                  ? { code: 'rejected', serverMessage: event.output.message }
                  : { code: 'rejected' },
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => loginErrorFrom(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error'],
      entry: assign({ failures: ({ context }) => context.failures + 1 }),
      on: {
        'documento.change': { actions: 'assignDocumento' },
        'pin.change': { actions: 'assignPin' },
        'form.submit': { guard: 'canSubmit', target: 'submitting' },
      },
    },
    done: { type: 'final', meta: { insight: { end: 'passed' } } },
  },
});

export type LoginMachine = typeof loginMachine;
