import type { LoginContext } from './login.types';
import { loginMachine } from './login.machine';

const filled: LoginContext = { documento: '1234567', pin: '482915', error: null, failures: 0 };

/** One named snapshot per leaf state (and per error variant worth seeing), for stories and tests. */
export const loginFixtures = {
  editingEmpty: loginMachine.resolveState({
    value: 'editing',
    context: { documento: '', pin: '', error: null, failures: 0 },
  }),
  /** A document typed, the PIN not yet: 'Validar' disabled, and why beside it. */
  editingPinMissing: loginMachine.resolveState({
    value: 'editing',
    context: { ...filled, pin: '4829' },
  }),
  editingFilled: loginMachine.resolveState({ value: 'editing', context: filled }),
  submitting: loginMachine.resolveState({ value: 'submitting', context: filled }),
  failedServerMessage: loginMachine.resolveState({
    value: 'failed',
    context: {
      ...filled,
      failures: 1,
      error: { code: 'loginFailed', serverMessage: 'Número de documento o PIN incorrectos.' },
    },
  }),
  failedLogin: loginMachine.resolveState({
    value: 'failed',
    context: { ...filled, failures: 1, error: { code: 'loginFailed' } },
  }),
  failedRejected: loginMachine.resolveState({
    value: 'failed',
    context: { ...filled, failures: 1, error: { code: 'rejected' } },
  }),
  failedNetwork: loginMachine.resolveState({
    value: 'failed',
    context: { ...filled, failures: 1, error: { code: 'network' } },
  }),
  failedTooManyAttempts: loginMachine.resolveState({
    value: 'failed',
    context: {
      ...filled,
      failures: 1,
      error: {
        code: 'tooManyAttempts',
        serverMessage:
          'Demasiados intentos con este número de documento. Por seguridad, esperá 15 minutos ' +
          'e intentá de nuevo, o tocá «¿Olvidaste tu PIN?» para crear uno nuevo.',
      },
    },
  }),
  done: loginMachine.resolveState({ value: 'done', context: filled }),
};
