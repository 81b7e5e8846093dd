import type { SnapshotFrom } from 'xstate';
import { EMERGENCY_LINES, type DashboardMachine } from './dashboard.machine';

type Snapshot = SnapshotFrom<DashboardMachine>;

export const selectDashboardView = (s: Snapshot) => ({
  menuOpen: s.matches('menuOpen'),
  notice: s.matches('notice') ? s.context.feature : null,
  /** SOS's emergency lines while shown, else null */
  emergency: s.matches('emergency') ? EMERGENCY_LINES : null,
});
