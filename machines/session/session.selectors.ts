import type { SnapshotFrom } from 'xstate';
import type { SessionMachine } from './session.machine';

type Snapshot = SnapshotFrom<SessionMachine>;

type SessionStatus = 'checking' | 'authenticated' | 'anonymous';

/** While logging out the patient stays on the page (the menu says 'Cerrando sesión...'). */
export const selectSessionStatus = (s: Snapshot): SessionStatus =>
  s.matches('authenticated') || s.matches('loggingOut')
    ? 'authenticated'
    : s.matches({ guest: 'anonymous' })
      ? 'anonymous'
      : 'checking';

export const selectPatient = (s: Snapshot) => s.context.patient;
export const selectLoggingOut = (s: Snapshot) => s.matches('loggingOut');

/** The login machine the session invokes while no patient is known (undefined once one is). */
export const selectLoginActor = (s: Snapshot) => s.children.login;
