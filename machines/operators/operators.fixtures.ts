import type { AnyMachineSnapshot } from 'xstate';
import { caseMachine } from './case.machine';
import { operatorAuthMachine } from './operators.machine';
import type {
  CaseContext,
  CaseDetail,
  OperatorAuthContext,
  OperatorProfile,
  QueueContext,
  QueuedCase,
} from './operators.types';
import { queueMachine } from './queue.machine';

/** Fixed data for stories and tests (no real person: the names are made up). */
export const fixtureOperator: OperatorProfile = {
  usuario: 'mbenitez',
  nombre: 'Marta Benítez',
  rol: 'revisor',
};
const LOADED_AT = Date.parse('2026-11-26T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(LOADED_AT - m * 60_000).toISOString();

const queued: QueuedCase[] = [
  {
    id: '7d1f5a2e-0c44-4b8e-9a51-3f2e6c1d9b70',
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

export const fixtureCase: CaseDetail = {
  id: queued[0]!.id,
  kind: 'review',
  status: 'open',
  trigger: 'face_mismatch',
  step: 'selfie',
  openedAt: minutesAgo(190),
  fields: {
    FullName: 'MARÍA JOSÉ GONZÁLEZ BENÍTEZ',
    DocumentNumber: '1234567',
    DateOfBirth: '1990-05-14',
    Gender: 'F',
    Nationality: 'PRY',
    MaritalStatus: 'SOLTERA',
  },
  corrections: [
    {
      field: 'DateOfBirth',
      from: '1990-05-11',
      to: '1990-05-14',
      reason: 'La cédula dice 14 de mayo',
      operator: 'jrojas',
      at: minutesAgo(20),
    },
  ],
  engineReasons: ['face_mismatch', 'face_mismatch'],
  faceSimilarity: 0.46,
  faceThreshold: 0.6,
  attempts: { liveness: 1, scans: 2 },
  images: ['selfie', 'portrait', 'front', 'back'],
  approvals: [],
  needsSupervisor: false,
  claimedByMe: true,
  expiresAt: null,
  digest: '3f9a1c7e5b2d4086a1e3c5f7092b4d6e8f0a1b2c3d4e5f60718293a4b5c6d7e8',
  approvalRule: 'two',
  fieldOrigins: {
    FullName: 'read',
    DocumentNumber: 'read',
    DateOfBirth: 'typed',
    Gender: 'read',
    Nationality: 'read',
    MaritalStatus: 'read',
  },
};
/**
 * 'No puedo completar este paso' right after the selfie: no card; an operator typed the name and
 * the number. Not approved here (issue 42).
 */
export const cardMissingCase: CaseDetail = {
  ...fixtureCase,
  id: 'e4c2a8f1-9b3d-4a6e-b7c0-5f1d2e8a9c34',
  trigger: 'patient_choice',
  step: 'front',
  fields: {
    FullName: 'PÉREZ GÓMEZ JUAN CARLOS',
    DocumentNumber: '3456789',
    DateOfBirth: '',
    Gender: '',
    Nationality: '',
    MaritalStatus: '',
  },
  corrections: [
    {
      field: 'FullName',
      from: '',
      to: 'PÉREZ GÓMEZ JUAN CARLOS',
      reason: 'Lo dijo el paciente por teléfono',
      operator: 'mbenitez',
      at: minutesAgo(2),
    },
    {
      field: 'DocumentNumber',
      from: '',
      to: '3456789',
      reason: 'Lo dijo el paciente por teléfono',
      operator: 'mbenitez',
      at: minutesAgo(1),
    },
  ],
  engineReasons: [],
  faceSimilarity: null,
  faceThreshold: null,
  attempts: { liveness: 1, scans: 0 },
  images: ['selfie'],
  approvalRule: 'centre_only',
  fieldOrigins: {
    FullName: 'typed',
    DocumentNumber: 'typed',
    DateOfBirth: 'missing',
    Gender: 'missing',
    Nationality: 'missing',
    MaritalStatus: 'missing',
  },
};
/**
 * A remote review with the card read and no selfie (issue 43 item 2): no desk photo to take; not
 * approved here (ask for the selfie, or reject).
 */
export const selfieMissingCase: CaseDetail = {
  ...fixtureCase,
  id: 'b7d1e3f5-2a4c-4e6f-9b8d-1c3e5a7f9b2d',
  trigger: 'patient_choice',
  step: 'selfie',
  corrections: [],
  engineReasons: ['back_missing'],
  faceSimilarity: null,
  faceThreshold: null,
  images: ['portrait', 'front', 'back'],
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
};
/**
 * A review the patient asked for from 'Verificá tus datos' (issue 43 item 7): the field they say was
 * read wrong and what it should say, shown as their claim (the fields stay as read).
 */
export const patientClaimCase: CaseDetail = {
  ...fixtureCase,
  id: 'c4e2a6f8-3b5d-4f7a-8c9e-2d4f6a8c0e1b',
  trigger: 'patient_choice',
  step: 'front',
  corrections: [],
  engineReasons: [],
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
  patientClaim: { field: 'DateOfBirth', says: '14/04/1990' },
};
const centroCase: CaseDetail = {
  ...fixtureCase,
  id: 'a3f0c9d2-6e1b-4f7a-8d25-0b9c4e3f1a68',
  kind: 'centro',
  trigger: 'no_camera',
  engineReasons: [],
  faceSimilarity: null,
  faceThreshold: null,
  attempts: { liveness: 0, scans: 1 },
  images: ['portrait', 'front', 'back'],
  corrections: [],
  expiresAt: '2026-12-26T12:00:00.000Z',
  approvalRule: 'one',
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
};

/** Stands for the images' object URLs (a story shows the image's alternative text). */
const IMAGE = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const images = { selfie: IMAGE, portrait: IMAGE, front: IMAGE, back: IMAGE };

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

// --- operatorCase -------------------------------------------------------------------------

const caseBase: CaseContext = {
  caseId: fixtureCase.id,
  detail: fixtureCase,
  images,
  correction: null,
  rejection: { reason: null, note: '' },
  repeatStep: null,
  decision: null,
  outcome: null,
  stream: null,
  cameraError: null,
  deskPhoto: null,
  deskMatch: null,
  error: null,
};
const caseAt = (
  value: Parameters<typeof caseMachine.resolveState>[0]['value'],
  context: Partial<CaseContext> = {},
) => caseMachine.resolveState({ value, context: { ...caseBase, ...context } });
const centro = {
  caseId: centroCase.id,
  detail: centroCase,
  images: { portrait: IMAGE, front: IMAGE, back: IMAGE },
};
const correcting = {
  correction: { field: 'FullName' as const, value: 'MARÍA JOSÉ GONZÁLES BENÍTEZ', reason: '' },
};

/** One named snapshot per leaf state of the case (and variants worth seeing). */
export const caseFixtures = {
  loading: caseAt('loading', { detail: null, images: {} }),
  failed: caseAt('failed', { detail: null, images: {}, error: { code: 'forbidden' } }),
  reviewing: caseAt({ reviewing: 'idle' }),
  /** Another operator's case, or one decided: read only. */
  reviewingReadOnly: caseAt(
    { reviewing: 'idle' },
    {
      detail: {
        ...fixtureCase,
        status: 'approved',
        claimedByMe: false,
        approvals: [{ operator: 'jrojas', at: minutesAgo(5), digest: fixtureCase.digest }],
      },
    },
  ),
  /** A supervised case approved once: a supervisor decides now. */
  reviewingSupervised: caseAt(
    { reviewing: 'idle' },
    {
      detail: {
        ...fixtureCase,
        needsSupervisor: true,
        approvals: [{ operator: 'jrojas', at: minutesAgo(5), digest: fixtureCase.digest }],
      },
    },
  ),
  /** Nobody saw a card: the typed fields are marked, and 'Aprobar' waits for a health centre. */
  reviewingCardMissing: caseAt(
    { reviewing: 'idle' },
    { caseId: cardMissingCase.id, detail: cardMissingCase, images: { selfie: IMAGE } },
  ),
  reviewingSelfieMissing: caseAt(
    { reviewing: 'idle' },
    { caseId: selfieMissingCase.id, detail: selfieMissingCase, images: { front: IMAGE } },
  ),
  /** The patient said which field was read wrong: their claim above the fields. */
  reviewingPatientClaim: caseAt(
    { reviewing: 'idle' },
    { caseId: patientClaimCase.id, detail: patientClaimCase },
  ),
  /** The approval was of an older version: the case read again, and why. */
  reviewingChanged: caseAt(
    { reviewing: 'failed' },
    {
      error: {
        code: 'caseChanged',
        serverMessage:
          'El caso cambió desde que lo abriste (una corrección o una foto nueva). Revisalo de nuevo antes de aprobar.',
      },
    },
  ),
  reviewingFailed: caseAt(
    { reviewing: 'failed' },
    { error: { code: 'conflict', serverMessage: 'Otro operador ya decidió este caso.' } },
  ),
  correcting: caseAt({ reviewing: { correcting: 'editing' } }, correcting),
  correctingIncomplete: caseAt({ reviewing: { correcting: 'incomplete' } }, correcting),
  /** A document number its rule refuses, said before it is sent. */
  correctingInvalidNumber: caseAt(
    { reviewing: { correcting: 'incomplete' } },
    { correction: { field: 'DocumentNumber', value: '1.234.567', reason: 'Error de lectura' } },
  ),
  /** Sex from its list. */
  correctingChoice: caseAt(
    { reviewing: { correcting: 'editing' } },
    { correction: { field: 'Gender', value: 'F', reason: '' } },
  ),
  /** The server refused it (its rule): the form says why. */
  correctingRefused: caseAt(
    { reviewing: { correcting: 'refused' } },
    {
      correction: { field: 'DateOfBirth', value: '14/05/1990', reason: 'La cédula dice 14' },
      error: {
        code: 'server',
        serverMessage: 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.',
      },
    },
  ),
  correctingSaving: caseAt(
    { reviewing: { correcting: 'saving' } },
    { correction: { ...correcting.correction, reason: 'Así figura en la cédula' } },
  ),
  confirmingApproval: caseAt({ reviewing: 'confirmingApproval' }),
  rejecting: caseAt(
    { reviewing: 'rejecting' },
    { rejection: { reason: 'faces_differ', note: '' } },
  ),
  repeating: caseAt({ reviewing: 'repeating' }, { repeatStep: 'front' }),
  /** A centro case before the desk photo: 'Aprobar' waits for it. */
  centro: caseAt({ reviewing: 'idle' }, centro),
  centroWithPhoto: caseAt(
    { reviewing: 'idle' },
    {
      ...centro,
      images: { ...centro.images, desk: IMAGE },
      deskMatch: { faceSimilarity: 0.74, faceThreshold: 0.6 },
    },
  ),
  deskOpening: caseAt({ reviewing: { desk: 'opening' } }, centro),
  deskLive: caseAt({ reviewing: { desk: 'live' } }, centro),
  deskCapturing: caseAt({ reviewing: { desk: 'capturing' } }, centro),
  deskCameraFailed: caseAt(
    { reviewing: { desk: 'cameraFailed' } },
    { ...centro, cameraError: 'permissionDenied' },
  ),
  uploading: caseAt({ reviewing: 'uploading' }, centro),
  deciding: caseAt('deciding', { decision: { decision: 'approve', digest: fixtureCase.digest } }),
  decidedApproved: caseAt('decided', { outcome: 'approved' }),
  decidedAwaitingSupervisor: caseAt('decided', { outcome: 'awaiting_supervisor' }),
  decidedRejected: caseAt('decided', { outcome: 'rejected' }),
  decidedRepeat: caseAt('decided', { outcome: 'repeat', repeatStep: 'front' }),
  releasing: caseAt('releasing'),
  closed: caseAt('closed'),
  expired: caseAt('expired'),
};

// --- operatorAuth -------------------------------------------------------------------------

const FIXTURE_ENROL_TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
const authBase: OperatorAuthContext = {
  operator: null,
  enrolToken: null,
  enrolling: null,
  options: null,
  challengeId: null,
  credential: null,
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

/**
 * The back office logged in with its desk child restored at one of the child's fixtures, the way a
 * persisted snapshot carries its children: a story started from it shows that child's state.
 */
const withChild = (
  snapshot: ReturnType<typeof authAt>,
  id: 'queue' | 'case',
  child: AnyMachineSnapshot,
): ReturnType<typeof authAt> =>
  ({
    ...snapshot,
    children: { [id]: { snapshot: child, src: id, syncSnapshot: false } },
  }) as unknown as ReturnType<typeof authAt>;

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
  loginRejected: authAt({ loggedOut: 'failed' }, { error: { code: 'rejected' } }),
  loginNetwork: authAt({ loggedOut: 'failed' }, { error: { code: 'network' } }),
  authenticatingOptions: authAt({ authenticating: 'options' }),
  authenticatingPrompting: authAt({ authenticating: 'prompting' }),
  authenticatingVerifying: authAt({ authenticating: 'verifying' }),
  enrolmentLoading: authAt({ enrolment: 'loading' }, { enrolToken: FIXTURE_ENROL_TOKEN }),
  enrolmentReady: authAt({ enrolment: 'ready' }, enrolling),
  enrolmentRegistering: authAt({ enrolment: 'registering' }, enrolling),
  enrolmentVerifying: authAt({ enrolment: 'verifying' }, enrolling),
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
  desk: atQueue(queueFixtures.list),
  deskCase: atCase(caseFixtures.reviewing),
  /** The desk: each queue fixture, then each case fixture, inside the logged-in page. */
  queue: Object.fromEntries(
    Object.entries(queueFixtures).map(([name, child]) => [name, atQueue(child)]),
  ) as Record<keyof typeof queueFixtures, ReturnType<typeof authAt>>,
  case: Object.fromEntries(
    Object.entries(caseFixtures).map(([name, child]) => [name, atCase(child)]),
  ) as Record<keyof typeof caseFixtures, ReturnType<typeof authAt>>,
};
