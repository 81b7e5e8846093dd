import type { SnapshotFrom } from 'xstate';
import type { LoginMachine } from './login.machine';

type Snapshot = SnapshotFrom<LoginMachine>;

export const selectLoginView = (s: Snapshot) => ({
  documento: s.context.documento,
  pin: s.context.pin,
  busy: s.hasTag('busy'),
  canSubmit: s.can({ type: 'form.submit' }),
  error: s.hasTag('error') ? s.context.error : null,
  done: s.matches('done'),
});
export type LoginView = ReturnType<typeof selectLoginView>;

export const selectLoginDone = (s: Snapshot) => s.matches('done');
