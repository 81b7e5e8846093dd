import type { AnyMachineSnapshot } from 'xstate';
import {
  cardMissingCase,
  centroCase,
  correctionCase,
  duplicateCase,
  fixtureCase,
  LOADED_AT,
  minutesAgo,
  patientClaimCase,
  selfieMissingCase,
} from './case.details.fixtures';
import { caseMachine } from './case.machine';
import { emptyCase } from './case.setup';
import { correctionMachine } from './correction.machine';
import { deskMachine, initialDeskContext } from './desk.machine';
import type { CaseContext, Correction, CorrectionContext, DeskContext } from './operators.types';

/**
 * The case an operator works, for stories and tests (no real person: the names are made up): its
 * data (case.details.fixtures.ts), a snapshot per leaf state of the case and of its children (the correction form, the desk
 * camera), and the case with each child restored at its fixtures.
 */
export {
  cardMissingCase,
  centroCase,
  correctionCase,
  duplicateCase,
  fixtureCase,
  LOADED_AT,
  minutesAgo,
  patientClaimCase,
  selfieMissingCase,
};

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
  /** A patient's correction from Mis datos (issue 45 item 5): approve or reject, no repeat. */
  reviewingCorrection: caseAt(
    { reviewing: 'idle' },
    { caseId: correctionCase.id, detail: correctionCase, images: { front: IMAGE } },
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
