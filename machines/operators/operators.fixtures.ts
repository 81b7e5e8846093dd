import type { AnyMachineSnapshot } from 'xstate';
import { caseFixtures, fixtureCase, LOADED_AT, minutesAgo, withChild } from './case.fixtures';
import { operatorAuthMachine } from './operators.machine';
import { passkeyMachine } from './passkey.machine';
import type {
  OperatorAuthContext,
  PasskeyContext,
  OperatorProfile,
  QueueContext,
  QueuedCase,
} from './operators.types';
import { queueMachine } from './queue.machine';

// The case's data and fixtures live in case.fixtures.ts; tests and stories import them from here too.
export {
  cardMissingCase,
  caseFixtures,
  correctionFixtures,
  deskFixtures,
  correctionCase,
  duplicateCase,
  fixtureCase,
  patientClaimCase,
  selfieMissingCase,
} from './case.fixtures';

/** Fixed data for stories and tests (no real person: the names are made up). */
export const fixtureOperator: OperatorProfile = {
  usuario: 'mbenitez',
  nombre: 'Marta Benítez',
  rol: 'revisor',
};

const queued: QueuedCase[] = [
  {
    id: fixtureCase.id,
    kind: 'review',
    trigger: 'face_mismatch',
    openedAt: minutesAgo(190),
    needsSupervisor: true,
  },
  {
    id: '1b9e0d3c-5a7f-4e21-8c6b-2d4f9a0e7c15',
    kind: 'review',
    trigger: 'liveness_failed',
    openedAt: minutesAgo(42),
    needsSupervisor: false,
  },
  {
    id: 'e4c2a8f1-9b3d-4a6e-b7c0-5f1d2e8a9c34',
    kind: 'review',
    trigger: 'patient_choice',
    openedAt: minutesAgo(3),
    needsSupervisor: false,
  },
];

// --- operatorQueue ------------------------------------------------------------------------

const queueBase: QueueContext = {
  cases: queued,
  total: 3,
  loadedAt: LOADED_AT,
  code: '',
  caseId: null,
  error: null,
};
const queueAt = (
  value: Parameters<typeof queueMachine.resolveState>[0]['value'],
  context: Partial<QueueContext> = {},
) => queueMachine.resolveState({ value, context: { ...queueBase, ...context } });

/** One named snapshot per leaf state of the queue (and variants worth seeing). */
export const queueFixtures = {
  loading: queueAt('loading', { cases: [], total: 0 }),
  list: queueAt({ showing: 'list' }),
  listEmpty: queueAt({ showing: 'list' }, { cases: [], total: 0 }),
  nothingToTake: queueAt({ showing: 'nothingToTake' }, { cases: [], total: 0 }),
  claiming: queueAt('claiming'),
  failed: queueAt('failed', { cases: [], total: 0, error: { code: 'network' } }),
  codeEditing: queueAt({ code: 'editing' }, { code: 'ACDE-F' }),
  codeIncomplete: queueAt({ code: 'incomplete' }, { code: 'ACDE-F' }),
  codeLooking: queueAt({ code: 'looking' }, { code: 'ACDE-FGHJ' }),
  codeNotFound: queueAt(
    { code: 'failed' },
    {
      code: 'ACDE-FGHJ',
      error: { code: 'notFound', serverMessage: 'No hay un caso con ese código.' },
    },
  ),
  codeLimited: queueAt(
    { code: 'limited' },
    { code: 'ACDE-FGHJ', error: { code: 'tooManyAttempts', retryAfterSeconds: 120 } },
  ),
  taken: queueAt('taken', { caseId: queued[0]!.id }),
  expired: queueAt('expired'),
};

// --- operatorAuth -------------------------------------------------------------------------

const FIXTURE_ENROL_TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
const authBase: OperatorAuthContext = {
  operator: null,
  enrolToken: null,
  enrolling: null,
  options: null,
  caseId: null,
  error: null,
  notice: null,
};
const authAt = (
  value: Parameters<typeof operatorAuthMachine.resolveState>[0]['value'],
  context: Partial<OperatorAuthContext> = {},
) => operatorAuthMachine.resolveState({ value, context: { ...authBase, ...context } });
const enrolling = { enrolToken: FIXTURE_ENROL_TOKEN, enrolling: fixtureOperator };
const loggedIn = { operator: fixtureOperator };

// --- operatorPasskey (the session's child during a ceremony) ------------------------------

const ENROL_OPTIONS = { challenge: 'Y2hhbGxlbmdl', rp: { name: 'Back office' } };
const passkeyAt = (
  value: Parameters<typeof passkeyMachine.resolveState>[0]['value'],
  context: Partial<PasskeyContext> = {},
) =>
  passkeyMachine.resolveState({
    value,
    context: {
      ceremony: 'login',
      key: null,
      options: null,
      credential: null,
      operator: null,
      error: null,
      ...context,
    },
  });
const asked = { key: 'ch-1', options: { challenge: 'eHl6' } };
const enrol = { ceremony: 'enrol' as const, key: FIXTURE_ENROL_TOKEN, options: ENROL_OPTIONS };
const answered = { credential: { id: 'cred-1', type: 'public-key' } };

/** One named snapshot per leaf state of a passkey ceremony (a login's, and a link's). */
export const passkeyFixtures = {
  options: passkeyAt('options'),
  prompting: passkeyAt('prompting', asked),
  verifying: passkeyAt('verifying', { ...asked, ...answered }),
  enrolPrompting: passkeyAt('prompting', enrol),
  enrolVerifying: passkeyAt('verifying', { ...enrol, ...answered }),
  done: passkeyAt('done', { ...asked, ...answered, operator: fixtureOperator }),
  failed: passkeyAt('failed', { ...asked, error: { code: 'rejected' } }),
};

// The session during a ceremony, with its child `passkey` at one of the child's fixtures.
const withPasskey = (snapshot: ReturnType<typeof authAt>, passkey: AnyMachineSnapshot) =>
  withChild(snapshot, 'passkey', passkey);

// The back office logged in with its desk child (`queue` or `case`) at one of the child's fixtures.
const atQueue = (child: AnyMachineSnapshot) =>
  withChild(authAt({ loggedIn: 'queue' }, loggedIn), 'queue', child);
const atCase = (child: AnyMachineSnapshot) =>
  withChild(
    authAt({ loggedIn: 'case' }, { ...loggedIn, caseId: child.context.caseId as string }),
    'case',
    child,
  );

/** One named snapshot per leaf state of the session, and the desk at each child fixture. */
export const operatorFixtures = {
  checking: authAt('checking'),
  loggedOut: authAt({ loggedOut: 'idle' }),
  loggedOutExpired: authAt({ loggedOut: 'idle' }, { notice: 'sessionExpired' }),
  loggedOutAfterLogout: authAt({ loggedOut: 'idle' }, { notice: 'loggedOut' }),
  loginCancelled: authAt({ loggedOut: 'failed' }, { error: { code: 'cancelled' } }),
  loginUnsupported: authAt({ loggedOut: 'failed' }, { error: { code: 'unsupported' } }),
  /** The server refused the passkey: the ceremony's end (its `failed`) and the login again. */
  loginRejected: withPasskey(
    authAt({ loggedOut: 'failed' }, { error: { code: 'rejected' } }),
    passkeyFixtures.failed,
  ),
  loginNetwork: authAt({ loggedOut: 'failed' }, { error: { code: 'network' } }),
  authenticatingOptions: withPasskey(authAt('authenticating'), passkeyFixtures.options),
  authenticatingPrompting: withPasskey(authAt('authenticating'), passkeyFixtures.prompting),
  authenticatingVerifying: withPasskey(authAt('authenticating'), passkeyFixtures.verifying),
  enrolmentLoading: authAt({ enrolment: 'loading' }, { enrolToken: FIXTURE_ENROL_TOKEN }),
  enrolmentReady: authAt({ enrolment: 'ready' }, enrolling),
  enrolmentRegistering: withPasskey(
    authAt({ enrolment: 'registering' }, enrolling),
    passkeyFixtures.enrolPrompting,
  ),
  enrolmentVerifying: withPasskey(
    authAt({ enrolment: 'registering' }, enrolling),
    passkeyFixtures.enrolVerifying,
  ),
  enrolmentLinkInvalid: authAt(
    { enrolment: 'failed' },
    { enrolToken: FIXTURE_ENROL_TOKEN, error: { code: 'linkInvalid' } },
  ),
  enrolmentHostIsIp: authAt(
    { enrolment: 'failed' },
    { enrolToken: FIXTURE_ENROL_TOKEN, error: { code: 'hostIsIp' } },
  ),
  enrolmentCancelled: authAt(
    { enrolment: 'failed' },
    { ...enrolling, error: { code: 'cancelled' } },
  ),
  loggingOut: authAt({ loggedIn: 'loggingOut' }, loggedIn),
  /** Just logged in: the ceremony's end (its `done`) and the queue. */
  desk: withPasskey(atQueue(queueFixtures.list), passkeyFixtures.done),
  deskCase: atCase(caseFixtures.reviewing),
  /** The desk: each queue fixture, then each case fixture, inside the logged-in page. */
  queue: Object.fromEntries(
    Object.entries(queueFixtures).map(([name, child]) => [name, atQueue(child)]),
  ) as Record<keyof typeof queueFixtures, ReturnType<typeof authAt>>,
  case: Object.fromEntries(
    Object.entries(caseFixtures).map(([name, child]) => [name, atCase(child)]),
  ) as Record<keyof typeof caseFixtures, ReturnType<typeof authAt>>,
};
