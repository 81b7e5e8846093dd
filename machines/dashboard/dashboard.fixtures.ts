import { dashboardMachine } from './dashboard.machine';

export const dashboardFixtures = {
  idle: dashboardMachine.resolveState({ value: 'idle', context: { feature: null } }),
  menuOpen: dashboardMachine.resolveState({ value: 'menuOpen', context: { feature: null } }),
  notice: dashboardMachine.resolveState({ value: 'notice', context: { feature: 'historial' } }),
  emergency: dashboardMachine.resolveState({ value: 'emergency', context: { feature: null } }),
};
