import { sessionMachine } from './session.machine';

const patient = { nombre: 'MARÍA JOSÉ', apellido: 'GONZÁLEZ BENÍTEZ' };

export const sessionFixtures = {
  checking: sessionMachine.resolveState({
    value: 'checking',
    context: { patient: null, expiresAt: null },
  }),
  authenticated: sessionMachine.resolveState({
    value: 'authenticated',
    context: { patient, expiresAt: Date.parse('2026-11-21T15:15:00Z') },
  }),
  loggingOut: sessionMachine.resolveState({
    value: 'loggingOut',
    context: { patient, expiresAt: null },
  }),
  anonymous: sessionMachine.resolveState({
    value: 'anonymous',
    context: { patient: null, expiresAt: null },
  }),
};
