import { PIN_LENGTH } from '../shared/input';
import type { SnapshotFrom } from 'xstate';
import type { DeletionMachine } from './deletion.machine';

type Snapshot = SnapshotFrom<DeletionMachine>;

/** The screen of 'Eliminar mi cuenta' (a busy state shows the screen it was sent from). */
type DeletionScreen =
  'loading' | 'intro' | 'pin' | 'code' | 'pending' | 'cancelled' | 'failed' | 'sessionEnded';

const SCREEN: Record<string, DeletionScreen> = {
  loading: 'loading',
  intro: 'intro',
  pin: 'pin',
  sendingCode: 'pin',
  code: 'code',
  resending: 'code',
  confirming: 'code',
  pending: 'pending',
  cancelling: 'pending',
  cancelled: 'cancelled',
  failed: 'failed',
  sessionEnded: 'sessionEnded',
};

export const selectDeletionView = (s: Snapshot) => ({
  screen: SCREEN[String(s.value)] ?? 'loading',
  busy: s.hasTag('busy'),
  pin: s.context.pin,
  code: s.context.code,
  pending: s.context.pending,
  waitHours: s.context.waitHours,
  error: s.context.error,
  failures: s.context.failures,
  /** the PIN, then the code, complete and nothing under way: its button works */
  canSendPin: s.can({ type: 'pin.submit' }),
  canConfirm: s.can({ type: 'code.submit' }),
  codeLength: PIN_LENGTH,
});
export type DeletionView = ReturnType<typeof selectDeletionView>;
