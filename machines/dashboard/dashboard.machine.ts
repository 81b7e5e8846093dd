import { assign, setup } from 'xstate';
import type { DashboardContext, DashboardEvent } from './dashboard.types';

export const NOTICE_MS = 4_000;

/** The dashboard's menu and the 'Próximamente' notice of its still inert buttons. */
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
      },
    },
    menuOpen: {
      on: {
        'menu.toggle': 'idle',
        'menu.close': 'idle',
        'feature.select': { target: 'notice', actions: 'assignFeature' },
      },
    },
    notice: {
      after: { noticeTimeout: { target: 'idle', actions: 'clearFeature' } },
      on: {
        'notice.dismiss': { target: 'idle', actions: 'clearFeature' },
        'feature.select': { target: 'notice', reenter: true, actions: 'assignFeature' },
        'menu.toggle': { target: 'menuOpen', actions: 'clearFeature' },
      },
    },
  },
});

export type DashboardMachine = typeof dashboardMachine;
