import { kycMachine } from './kyc.machine';

/** One named snapshot per leaf state (and error variant), for stories and tests. */
export const kycFixtures = {
  starting: kycMachine.resolveState({
    value: 'starting',
    context: { sessionId: null, error: null },
  }),
  failedStartKyc: kycMachine.resolveState({
    value: 'failed',
    context: { sessionId: null, error: { code: 'startKycFailed' } },
  }),
  failedServerMessage: kycMachine.resolveState({
    value: 'failed',
    context: {
      sessionId: null,
      error: {
        code: 'startKycFailed',
        serverMessage: 'El servicio de verificación no está disponible.',
      },
    },
  }),
  failedNetwork: kycMachine.resolveState({
    value: 'failed',
    context: { sessionId: null, error: { code: 'network' } },
  }),
  failedTooManyAttempts: kycMachine.resolveState({
    value: 'failed',
    context: {
      sessionId: null,
      error: {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
      },
    },
  }),
  unexpectedStep: kycMachine.resolveState({
    value: 'unexpectedStep',
    context: {
      sessionId: '5f0c2a4e-9b1d-4c8e-a7f3-2d6b8e1c9a40',
      error: { code: 'unexpectedStep' },
    },
  }),
};
