import { otpMachine } from './otp.machine';
import type { OtpContext } from './otp.types';

const recipient = { celular: '0981123456' };
const base: OtpContext = {
  recipient,
  code: '',
  error: null,
  resendError: null,
  waitSeconds: 30,
  secondsLeft: 30,
  notice: null,
  autoValidate: true,
  failures: 0,
  registration: null,
};

const at = (
  entry: 'editing' | 'validating' | 'failed',
  resend: 'waiting' | 'available' | 'resending' | 'resendFailed',
  context: Partial<OtpContext>,
) =>
  otpMachine.resolveState({
    value: { active: { entry, resend } },
    context: { ...base, ...context },
  });

/**
 * One named snapshot per leaf state of both regions (`entry` and `resend`) and per error variant
 * worth seeing, for stories and tests. Each name starts with the leaf it shows.
 */
export const otpFixtures = {
  editing: at('editing', 'waiting', {}),
  editingPartialCode: at('editing', 'waiting', { code: '482', secondsLeft: 21 }),
  validating: at('validating', 'waiting', { code: '482915', secondsLeft: 17 }),
  failedWrongCode: at('failed', 'waiting', { error: { code: 'wrongCode' }, secondsLeft: 12 }),
  failedNetwork: at('failed', 'available', {
    code: '482915',
    error: { code: 'network' },
    secondsLeft: 0,
  }),
  failedTooManyAttempts: at('failed', 'available', {
    error: {
      code: 'tooManyAttempts',
      serverMessage: 'Demasiados intentos. Esperá 15 minutos e intentá de nuevo.',
    },
    secondsLeft: 0,
  }),
  waitingTenSeconds: at('editing', 'waiting', { secondsLeft: 10 }),
  waitingCodeResent: at('editing', 'waiting', { notice: 'codeResent' }),
  available: at('editing', 'available', { secondsLeft: 0 }),
  resending: at('editing', 'resending', { secondsLeft: 0 }),
  resendFailed: at('editing', 'resendFailed', {
    resendError: { code: 'resendFailed' },
    secondsLeft: 0,
  }),
  resendFailedTooManyAttempts: at('editing', 'resendFailed', {
    resendError: {
      code: 'tooManyAttempts',
      serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
    },
    secondsLeft: 0,
  }),
  verified: otpMachine.resolveState({
    value: 'verified',
    context: { ...base, code: '482915', secondsLeft: 14 },
  }),
};
