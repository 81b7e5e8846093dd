import type { AnyMachineSnapshot } from 'xstate';
import { caseMachine } from './case.machine';
import { emptyCase } from './case.setup';
import { correctionMachine } from './correction.machine';
import { deskMachine, initialDeskContext } from './desk.machine';
import type {
  CaseContext,
  CaseDetail,
  Correction,
  CorrectionContext,
  DeskContext,
} from './operators.types';

/**
 * The case an operator works, for stories and tests (no real person: the names are made up): its
 * data, a snapshot per leaf state of the case and of its children (the correction form, the desk
 * camera), and the case with each child restored at its fixtures.
 */
export const LOADED_AT = Date.parse('2026-11-26T12:00:00.000Z');
export const minutesAgo = (m: number) => new Date(LOADED_AT - m * 60_000).toISOString();

/**
 * A snapshot with a child restored at one of the child's fixtures, the way a persisted snapshot
 * carries its children: a story started from it shows that child's state.
 */
export const withChild = <T extends AnyMachineSnapshot>(
  snapshot: T,
  id: string,
  child: AnyMachineSnapshot,
  syncSnapshot = false,
): T =>
  ({
    ...snapshot,
    children: { ...snapshot.children, [id]: { snapshot: child, src: id, syncSnapshot } },
  }) as T;

export const fixtureCase: CaseDetail = {
  id: '7d1f5a2e-0c44-4b8e-9a51-3f2e6c1d9b70',
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
/**
 * 'Posible duplicado' (issue 44 item 3): the registration's selfie is the face of a patient already
 * registered with another cédula (made-up people); a supervisor approves (distinct people) or
 * rejects it, never a step repeated.
 */
export const duplicateCase: CaseDetail = {
  ...fixtureCase,
  id: 'b8d4f2a6-1c3e-4a5b-9d7f-6e8a0c2b4d19',
  kind: 'duplicate',
  trigger: 'possible_duplicate',
  fields: {
    FullName: 'ROJAS PÁEZ ANA LUCÍA',
    DocumentNumber: '5123478',
    DateOfBirth: '1992-08-03',
    Gender: 'F',
    Nationality: 'PRY',
    MaritalStatus: 'SOLTERA',
  },
  corrections: [],
  engineReasons: [],
  faceSimilarity: 0.84,
  faceThreshold: 0.66,
  approvalRule: 'one',
  fieldOrigins: { ...fixtureCase.fieldOrigins, DateOfBirth: 'read' },
  duplicate: {
    documento: '4567890',
    nombre: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
    registeredAt: '2026-03-14T15:20:00.000Z',
    similarity: 0.91,
    threshold: 0.7,
  },
};
export const centroCase: CaseDetail = {
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

// --- operatorCase -------------------------------------------------------------------------

const caseBase: CaseContext = { ...emptyCase(fixtureCase.id), detail: fixtureCase, images };
const caseAt = (
  value: Parameters<typeof caseMachine.resolveState>[0]['value'],
  context: Partial<CaseContext> = {},
) => caseMachine.resolveState({ value, context: { ...caseBase, ...context } });
const centro = {
  caseId: centroCase.id,
  detail: centroCase,
  images: { portrait: IMAGE, front: IMAGE, back: IMAGE },
};
const correcting: Correction = {
  field: 'FullName',
  value: 'MARÍA JOSÉ GONZÁLES BENÍTEZ',
  reason: '',
};

// --- operatorCorrection and operatorDesk (the case's children) ----------------------------

const correctionAt = (
  value: Parameters<typeof correctionMachine.resolveState>[0]['value'],
  context: Partial<CorrectionContext> = {},
) =>
  correctionMachine.resolveState({
    value,
    context: {
      correction: correcting,
      current: fixtureCase.fields.FullName,
      error: null,
      ...context,
    },
  });
const refusedDate: Partial<CorrectionContext> = {
  correction: { field: 'DateOfBirth', value: '14/05/1990', reason: 'La cédula dice 14' },
  current: fixtureCase.fields.DateOfBirth,
  error: {
    code: 'server',
    serverMessage: 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.',
  },
};

/** One named snapshot per leaf state of the correction form (and variants worth seeing). */
export const correctionFixtures = {
  editing: correctionAt('editing'),
  incomplete: correctionAt('incomplete'),
  /** A document number its rule refuses, said before it is sent. */
  invalidNumber: correctionAt('incomplete', {
    correction: { field: 'DocumentNumber', value: '1.234.567', reason: 'Error de lectura' },
    current: fixtureCase.fields.DocumentNumber,
  }),
  /** Sex from its list. */
  choice: correctionAt('editing', {
    correction: { field: 'Gender', value: 'F', reason: '' },
    current: fixtureCase.fields.Gender,
  }),
  /** The server refused it (its rule): the form says why. */
  refused: correctionAt('refused', refusedDate),
  done: correctionAt('done', { correction: { ...correcting, reason: 'Así figura en la cédula' } }),
};

const deskAt = (
  value: Parameters<typeof deskMachine.resolveState>[0]['value'],
  context: Partial<DeskContext> = {},
) => deskMachine.resolveState({ value, context: { ...initialDeskContext(), ...context } });

/** One named snapshot per leaf state of the desk camera. */
export const deskFixtures = {
  opening: deskAt('opening'),
  live: deskAt('live'),
  capturing: deskAt('capturing'),
  cameraFailed: deskAt('cameraFailed', { cameraError: 'permissionDenied' }),
  done: deskAt('done', { photo: new Blob([], { type: 'image/jpeg' }) }),
};

/** The case with its correction form open at one of the form's fixtures. */
const correctingAt = (form: AnyMachineSnapshot) =>
  withChild(
    caseAt(
      { reviewing: { correcting: 'form' } },
      { correction: form.context.correction as Correction, error: form.context.error },
    ),
    'correction',
    form,
    true,
  );
/** A centro case at the desk camera, its child at one of the camera's fixtures. */
const deskCaseAt = (desk: AnyMachineSnapshot) =>
  withChild(caseAt({ reviewing: 'desk' }, centro), 'desk', desk, true);

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
  /** A posible duplicado (issue 44 item 3): the registered patient beside this registration. */
  reviewingDuplicate: caseAt(
    { reviewing: 'idle' },
    { caseId: duplicateCase.id, detail: duplicateCase },
  ),
  /** Rejecting a posible duplicado: its own reason ('the same person'). */
  rejectingDuplicate: caseAt(
    { reviewing: 'rejecting' },
    {
      caseId: duplicateCase.id,
      detail: duplicateCase,
      rejection: { reason: 'duplicate_person', note: '' },
    },
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
  correcting: correctingAt(correctionFixtures.editing),
  correctingIncomplete: correctingAt(correctionFixtures.incomplete),
  correctingInvalidNumber: correctingAt(correctionFixtures.invalidNumber),
  correctingChoice: correctingAt(correctionFixtures.choice),
  correctingRefused: correctingAt(correctionFixtures.refused),
  /** Sent: the form's end (its `done`, carried for the story-coverage test) and the case saving. */
  correctingSaving: withChild(
    caseAt(
      { reviewing: { correcting: 'saving' } },
      { correction: correctionFixtures.done.context.correction },
    ),
    'correction',
    correctionFixtures.done,
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
  deskOpening: deskCaseAt(deskFixtures.opening),
  deskLive: deskCaseAt(deskFixtures.live),
  deskCapturing: deskCaseAt(deskFixtures.capturing),
  deskCameraFailed: deskCaseAt(deskFixtures.cameraFailed),
  /** The photo taken: the camera's end (its `done`, carried for the coverage test), then sent. */
  uploading: withChild(caseAt({ reviewing: 'uploading' }, centro), 'desk', deskFixtures.done),
  deciding: caseAt('deciding', { decision: { decision: 'approve', digest: fixtureCase.digest } }),
  decidedApproved: caseAt('decided', { outcome: 'approved' }),
  decidedAwaitingSupervisor: caseAt('decided', { outcome: 'awaiting_supervisor' }),
  decidedRejected: caseAt('decided', { outcome: 'rejected' }),
  decidedRepeat: caseAt('decided', { outcome: 'repeat', repeatStep: 'front' }),
  releasing: caseAt('releasing'),
  closed: caseAt('closed'),
  expired: caseAt('expired'),
};
