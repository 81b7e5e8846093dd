import type { SnapshotFrom } from 'xstate';
import { DOCUMENT_MIN, PIN_LENGTH } from '../../contract/login.constants';
import type { LoginMachine } from './login.machine';
import type { LoginMissing } from './login.types';

type Snapshot = SnapshotFrom<LoginMachine>;

/** Why 'Validar' is disabled while nothing is in flight, or null when it may be pressed. */
function selectLoginMissing(s: Snapshot): LoginMissing | null {
  if (s.hasTag('busy') || s.can({ type: 'form.submit' })) return null;
  const documento = s.context.documento.length < DOCUMENT_MIN;
  const pin = s.context.pin.length !== PIN_LENGTH;
  return documento && pin ? 'documentoAndPin' : documento ? 'documento' : pin ? 'pin' : null;
}

export const selectLoginView = (s: Snapshot) => ({
  documento: s.context.documento,
  pin: s.context.pin,
  busy: s.hasTag('busy'),
  canSubmit: s.can({ type: 'form.submit' }),
  missing: selectLoginMissing(s),
  /** failed submits: the focus goes back to the PIN field after each */
  failures: s.context.failures,
  error: s.hasTag('error') ? s.context.error : null,
  done: s.matches('done'),
});
