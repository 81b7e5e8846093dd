import type { SnapshotFrom } from 'xstate';
import { loginFixtures } from '../login/login.fixtures';
import { sessionMachine } from './session.machine';

const patient = { nombre: 'MARÍA JOSÉ', apellido: 'GONZÁLEZ BENÍTEZ' };

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/**
 * A guest snapshot with its invoked login child: restoring a snapshot re-creates its children from
 * their persisted form (`{ snapshot, src }`), and resolveState alone has none, so /login would have
 * no form to show.
 */
function withLogin(
  snapshot: SessionSnapshot,
  login: SnapshotFrom<typeof loginFixtures.editingEmpty.machine> = loginFixtures.editingEmpty,
): SessionSnapshot {
  return {
    ...snapshot,
    children: { login: { snapshot: login, src: 'login' } },
  } as unknown as SessionSnapshot;
}

export const sessionFixtures = {
  checking: withLogin(
    sessionMachine.resolveState({
      value: { guest: 'checking' },
      context: { patient: null, expiresAt: null },
    }),
  ),
  authenticated: sessionMachine.resolveState({
    value: 'authenticated',
    context: { patient, expiresAt: Date.parse('2026-11-21T15:15:00Z') },
  }),
  loggingOut: sessionMachine.resolveState({
    value: 'loggingOut',
    context: { patient, expiresAt: null },
  }),
  anonymous: withLogin(
    sessionMachine.resolveState({
      value: { guest: 'anonymous' },
      context: { patient: null, expiresAt: null },
    }),
  ),
};
