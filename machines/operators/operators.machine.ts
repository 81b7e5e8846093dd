import { assign, setup } from 'xstate';
import { caseMachine } from './case.machine';
import { endSession, enrolOptions, fetchSession } from './operators.actors';
import { errorOf, isUnauthorized, operatorErrorFrom } from './operators.errors';
import type {
  DeskOutput,
  OperatorAuthContext,
  OperatorAuthEvent,
  OperatorAuthInput,
  PasskeyOutput,
} from './operators.types';
import { passkeyMachine } from './passkey.machine';
import { queueMachine } from './queue.machine';

/** The passkey child's end: the operator, or why not. */
const passkeyOf = ({ event }: { event: unknown }) => (event as { output: PasskeyOutput }).output;

/**
 * The back office's session (`/operador`): operators log in with a passkey only. It asks the server
 * whether an operator session is live; without one, 'Ingresar con tu llave de acceso' runs a
 * WebAuthn assertion (the child `passkey`: options from the server, the browser's prompt, the
 * server's verification).
 * An enrolment link (`/operador/alta#<token>`) registers the operator's passkey first ('Crear llave
 * de acceso') and logs them in. Logged in, it runs the desk: the queue (child `queue`) until a case
 * is taken, then that case (child `case`), then the queue again. A 401 anywhere ends the desk: the
 * login again, with a notice.
 */
export const operatorAuthMachine = setup({
  types: {
    context: {} as OperatorAuthContext,
    events: {} as OperatorAuthEvent,
    input: {} as OperatorAuthInput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      queue: 'queue';
      case: 'case';
      fetchSession: 'fetchSession';
      passkey: 'passkey';
      enrolOptions: 'enrolOptions';
      endSession: 'endSession';
    },
  },
  actors: {
    fetchSession,
    passkey: passkeyMachine,
    enrolOptions,
    endSession,
    queue: queueMachine,
    case: caseMachine,
  },
  guards: {
    hasEnrolToken: ({ context }) => context.enrolToken !== null,
    isUnauthorized: (args) => isUnauthorized(errorOf(args)),
    /** a spent or expired link cannot be tried again; anything else can */
    // A spent link, or a page on an IP address: trying again on this page cannot help.
    canRetryEnrolment: ({ context }) =>
      context.error?.code !== 'linkInvalid' && context.error?.code !== 'hostIsIp',
    /** the queue or the case found the session over */
    isDeskExpired: ({ event }) => (event as { output?: DeskOutput }).output?.expired === true,
    hasCaseToOpen: ({ event }) => Boolean((event as { output?: DeskOutput }).output?.caseId),
    /** the passkey ceremony logged the operator in */
    isLoggedIn: (args) => passkeyOf(args).operator !== null,
  },
  actions: {
    /** the enrolment link refused (spent, expired) or unanswered */
    assignEnrolError: assign({
      error: (args) => operatorErrorFrom(errorOf(args), 'enrol'),
      options: null,
    }),
    /** the ceremony's end: the operator logged in, or why not; its options are not kept */
    assignPasskeyEnd: assign((args) => ({
      operator: passkeyOf(args).operator,
      error: passkeyOf(args).error,
      options: null,
    })),
    assignExpired: assign({ operator: null, caseId: null, notice: 'sessionExpired' }),
  },
}).createMachine({
  id: 'operatorAuth',
  context: ({ input }) => ({
    operator: null,
    enrolToken: input.enrolToken ?? null,
    enrolling: null,
    options: null,
    caseId: null,
    error: null,
    notice: null,
  }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      always: { guard: 'hasEnrolToken', target: 'enrolment' },
      invoke: {
        id: 'fetchSession',
        src: 'fetchSession',
        onDone: {
          target: 'loggedIn',
          actions: assign({ operator: ({ event }) => event.output.operator }),
        },
        onError: [
          { guard: 'isUnauthorized', target: 'loggedOut' },
          {
            target: 'loggedOut.failed',
            actions: assign({ error: (args) => operatorErrorFrom(errorOf(args)) }),
          },
        ],
      },
    },
    loggedOut: {
      initial: 'idle',
      on: { 'login.start': { target: 'authenticating', actions: assign({ error: null }) } },
      states: {
        idle: {},
        failed: { tags: ['error'] },
      },
    },
    /** The passkey ceremony of a login (child `passkey`). */
    authenticating: {
      tags: ['busy'],
      exit: assign({ notice: null }),
      invoke: {
        id: 'passkey',
        src: 'passkey',
        input: { ceremony: 'login' },
        onDone: [
          { guard: 'isLoggedIn', target: 'loggedIn', actions: 'assignPasskeyEnd' },
          { target: 'loggedOut.failed', actions: 'assignPasskeyEnd' },
        ],
      },
    },
    /** The one-time enrolment link: who it is for, then the passkey created and registered. */
    enrolment: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'enrolOptions',
            src: 'enrolOptions',
            input: ({ context }) => ({ token: context.enrolToken! }),
            onDone: {
              target: 'ready',
              actions: assign({
                enrolling: ({ event }) => event.output.operator,
                options: ({ event }) => event.output.options,
                error: null,
              }),
            },
            onError: { target: 'failed', actions: 'assignEnrolError' },
          },
        },
        ready: { on: { 'enrol.start': 'registering' } },
        /** the passkey created and registered (child `passkey`) */
        registering: {
          tags: ['busy'],
          invoke: {
            id: 'passkey',
            src: 'passkey',
            input: ({ context }) => ({
              ceremony: 'enrol' as const,
              token: context.enrolToken!,
              options: context.options!,
            }),
            onDone: [
              {
                guard: 'isLoggedIn',
                target: '#operatorAuth.loggedIn',
                actions: ['assignPasskeyEnd', assign({ enrolToken: null, enrolling: null })],
              },
              { target: 'failed', actions: 'assignPasskeyEnd' },
            ],
          },
        },
        failed: {
          tags: ['error'],
          on: {
            // A new ceremony: new options (a challenge is used once).
            'enrol.retry': { guard: 'canRetryEnrolment', target: 'loading' },
            'login.start': {
              target: '#operatorAuth.authenticating',
              actions: assign({ enrolToken: null, enrolling: null, error: null }),
            },
          },
        },
      },
    },
    loggedIn: {
      initial: 'queue',
      entry: assign({ notice: null, error: null }),
      on: { 'session.logout': '.loggingOut' },
      states: {
        queue: {
          invoke: {
            id: 'queue',
            src: 'queue',
            onDone: [
              {
                guard: 'isDeskExpired',
                target: '#operatorAuth.loggedOut',
                actions: 'assignExpired',
              },
              {
                guard: 'hasCaseToOpen',
                target: 'case',
                actions: assign({ caseId: ({ event }) => event.output.caseId }),
              },
              { target: 'queue', reenter: true },
            ],
          },
        },
        case: {
          invoke: {
            id: 'case',
            src: 'case',
            input: ({ context }) => ({ caseId: context.caseId! }),
            onDone: [
              {
                guard: 'isDeskExpired',
                target: '#operatorAuth.loggedOut',
                actions: 'assignExpired',
              },
              { target: 'queue', actions: assign({ caseId: null }) },
            ],
          },
        },
        loggingOut: {
          tags: ['busy'],
          invoke: {
            id: 'endSession',
            src: 'endSession',
            // Whatever the server answers, this page forgets the operator.
            onDone: {
              target: '#operatorAuth.loggedOut',
              actions: assign({ operator: null, caseId: null, notice: 'loggedOut' }),
            },
            onError: {
              target: '#operatorAuth.loggedOut',
              actions: assign({ operator: null, caseId: null, notice: 'loggedOut' }),
            },
          },
        },
      },
    },
  },
});

export type OperatorAuthMachine = typeof operatorAuthMachine;
