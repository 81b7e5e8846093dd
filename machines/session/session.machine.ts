import { assign, setup } from 'xstate';
import { clearBrowserStorage, endSession, fetchSession } from './session.actors';
import type { SessionContext, SessionEvent } from './session.types';

/**
 * The app-level session: owns the route guard's answer (checking / authenticated / anonymous)
 * and logout. The cookie is HttpOnly, so the server is asked; the answer is re-checked when the
 * server says the session would expire.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: { fetchSession, endSession },
  actions: {
    clearBrowserStorage: () => clearBrowserStorage(),
    clearPatient: assign({ patient: null, expiresAt: null }),
  },
  delays: {
    untilExpiry: ({ context }) =>
      Math.max(1_000, (context.expiresAt ?? Date.now()) - Date.now() + 1_000),
  },
}).createMachine({
  id: 'session',
  context: { patient: null, expiresAt: null },
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'fetchSession',
        src: 'fetchSession',
        onDone: [
          {
            guard: ({ event }) => event.output.authenticated,
            target: 'authenticated',
            actions: assign(({ event }) =>
              event.output.authenticated
                ? { patient: event.output.patient, expiresAt: Date.parse(event.output.expiresAt) }
                : {},
            ),
          },
          { target: 'anonymous', actions: 'clearPatient' },
        ],
        // An unreachable server cannot vouch for a session: treat as anonymous (login will say why).
        onError: { target: 'anonymous', actions: 'clearPatient' },
      },
    },
    authenticated: {
      after: { untilExpiry: 'checking' },
      on: {
        'session.logout': 'loggingOut',
        'session.refresh': 'checking',
      },
    },
    loggingOut: {
      tags: ['busy'],
      entry: 'clearBrowserStorage',
      invoke: {
        id: 'endSession',
        src: 'endSession',
        onDone: { target: 'anonymous', actions: 'clearPatient' },
        // The local side is cleared whatever the server answers.
        onError: { target: 'anonymous', actions: 'clearPatient' },
      },
    },
    anonymous: {
      on: {
        'session.loggedIn': 'checking',
        'session.refresh': 'checking',
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
