import type { SnapshotFrom } from 'xstate';
import type { DashboardMachine } from './dashboard.machine';

type Snapshot = SnapshotFrom<DashboardMachine>;

export const selectDashboardView = (s: Snapshot) => ({
  menuOpen: s.matches('menuOpen'),
  notice: s.matches('notice') ? s.context.feature : null,
});
