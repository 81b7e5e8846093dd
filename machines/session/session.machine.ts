import { assign, setup } from 'xstate';
import { loginMachine } from '../login/login.machine';
import { clearBrowserStorage, endSession, fetchSession } from './session.actors';
import type { SessionContext, SessionEvent } from './session.types';
import type { InsightStateMeta } from '../insight/meta';

/**
 * The app-level session: owns the route guard's answer (checking / authenticated / anonymous),
 * the login and logout. The cookie is HttpOnly, so the server is asked; the answer is re-checked
 * when the server says the session would expire.
 *
 * While no patient is known (`guest`: the first check, no session, or after a logout) the session
 * invokes the login machine as its child `login`: /login shows that child's form at once, also while
 * the first check is under way (the form is prerendered). When the login is done, the session asks
 * the server again; a live session moves the guard on to /dashboard.
 */
export const sessionMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as SessionContext,
    events: {} as SessionEvent,
    tags: {} as 'busy' | 'error',
    children: {} as { login: 'login'; fetchSession: 'fetchSession'; endSession: 'endSession' },
  },
  actors: { fetchSession, endSession, login: loginMachine },
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
  initial: 'guest',
  states: {
    guest: {
      initial: 'checking',
      // The login form: from the first check until a patient is known. Its final state means the
      // server accepted the document and PIN: ask the server for the session it set.
      invoke: { id: 'login', src: 'login', onDone: '.checking' },
      states: {
        checking: {
          tags: ['busy'],
          invoke: {
            id: 'fetchSession',
            src: 'fetchSession',
            onDone: [
              {
                guard: ({ event }) => event.output.authenticated,
                target: '#session.authenticated',
                actions: assign(({ event }) =>
                  event.output.authenticated
                    ? {
                        patient: event.output.patient,
                        expiresAt: Date.parse(event.output.expiresAt),
                      }
                    : {},
                ),
              },
              { target: 'anonymous', actions: 'clearPatient' },
            ],
            // An unreachable server cannot vouch for a session: anonymous (login will say why).
            onError: { target: 'anonymous', actions: 'clearPatient' },
          },
        },
        anonymous: {
          on: { 'session.refresh': 'checking' },
        },
      },
    },
    authenticated: {
      after: { untilExpiry: 'guest' },
      on: {
        'session.logout': 'loggingOut',
        'session.refresh': 'guest',
      },
    },
    loggingOut: {
      tags: ['busy'],
      entry: 'clearBrowserStorage',
      invoke: {
        id: 'endSession',
        src: 'endSession',
        onDone: { target: 'guest.anonymous', actions: 'clearPatient' },
        // The local side is cleared whatever the server answers.
        onError: { target: 'guest.anonymous', actions: 'clearPatient' },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
