import type { SnapshotFrom } from 'xstate';
import type { SessionMachine } from './session.machine';

type Snapshot = SnapshotFrom<SessionMachine>;

export type SessionStatus = 'checking' | 'authenticated' | 'anonymous';

export const selectSessionStatus = (s: Snapshot): SessionStatus =>
  s.matches('authenticated') ? 'authenticated' : s.matches('anonymous') ? 'anonymous' : 'checking';

export const selectPatient = (s: Snapshot) => s.context.patient;
export const selectLoggingOut = (s: Snapshot) => s.matches('loggingOut');
