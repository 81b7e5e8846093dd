import { assign, setup } from 'xstate';
import type { DashboardContext, DashboardEvent, EmergencyLine } from './dashboard.types';

export const NOTICE_MS = 4_000;

/**
 * What SOS offers until the service asks for more (issue 43 item 5): Paraguay's emergency lines,
 * each a link that dials in one tap. SEME (Servicio de Emergencias Médicas Extrahospitalarias) 141
 * first, then the Policía Nacional's 911.
 */
export const EMERGENCY_LINES: readonly { line: EmergencyLine; dial: string }[] = [
  { line: 'seme', dial: '141' },
  { line: 'police', dial: '911' },
];

/**
 * The dashboard's menu, the 'Próximamente' notice of its still inert buttons and SOS's emergency
 * numbers (shown until closed, no timer: a patient in trouble is not hurried).
 */
export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent },
  delays: { noticeTimeout: NOTICE_MS },
  actions: {
    assignFeature: assign({
      feature: ({ event }) => (event.type === 'feature.select' ? event.feature : null),
    }),
    clearFeature: assign({ feature: null }),
  },
}).createMachine({
  id: 'dashboard',
  context: { feature: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'menu.toggle': 'menuOpen',
        'feature.select': { target: 'notice', actions: 'assignFeature' },
        'sos.open': 'emergency',
      },
    },
    menuOpen: {
      on: {
        'menu.toggle': 'idle',
        'menu.close': 'idle',
        'feature.select': { target: 'notice', actions: 'assignFeature' },
        'sos.open': 'emergency',
      },
    },
    notice: {
      after: { noticeTimeout: { target: 'idle', actions: 'clearFeature' } },
      on: {
        'notice.dismiss': { target: 'idle', actions: 'clearFeature' },
        'feature.select': { target: 'notice', reenter: true, actions: 'assignFeature' },
        'menu.toggle': { target: 'menuOpen', actions: 'clearFeature' },
        'sos.open': { target: 'emergency', actions: 'clearFeature' },
      },
    },
    emergency: {
      on: {
        'sos.close': 'idle',
        'feature.select': { target: 'notice', actions: 'assignFeature' },
        'menu.toggle': 'menuOpen',
      },
    },
  },
});

export type DashboardMachine = typeof dashboardMachine;
