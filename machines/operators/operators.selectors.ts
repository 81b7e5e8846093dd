import type { SnapshotFrom } from 'xstate';
import type { CaseMachine } from './case.machine';
import { NOTE_MAX } from './case.machine';
import {
  CORRECTION_LIMITS,
  correctionInput,
  correctionProblem,
  FIELD_CHOICES,
  type CorrectionProblem,
} from './correction';
import type { OperatorAuthMachine } from './operators.machine';
import type { QueueMachine } from './queue.machine';
import {
  CORRECTABLE_FIELDS,
  REJECT_REASONS,
  type CorrectableField,
  type OperatorError,
} from './operators.types';

export { CORRECTION_LIMITS, NOTE_MAX };
export type { CorrectionProblem };

type AuthSnapshot = SnapshotFrom<OperatorAuthMachine>;
type QueueSnapshot = SnapshotFrom<QueueMachine>;
type CaseSnapshot = SnapshotFrom<CaseMachine>;

// --- operatorAuth -------------------------------------------------------------------------

export type OperatorScreen = 'checking' | 'login' | 'enrolment' | 'desk';

/** Which screen the back office shows. */
export function selectOperatorScreen(s: AuthSnapshot): OperatorScreen {
  if (s.matches('checking')) return 'checking';
  if (s.matches('enrolment')) return 'enrolment';
  if (s.matches('loggedIn')) return 'desk';
  return 'login';
}

/** The login screen: its notice (session over, logged out), its error, whether the prompt runs. */
export const selectLogin = (s: AuthSnapshot) => ({
  busy: s.matches('authenticating'),
  error: s.matches({ loggedOut: 'failed' }) ? s.context.error : null,
  notice: s.context.notice,
});

export type EnrolmentStatus = 'loading' | 'ready' | 'registering' | 'failed';
export function selectEnrolment(s: AuthSnapshot) {
  const status: EnrolmentStatus = s.matches({ enrolment: 'loading' })
    ? 'loading'
    : s.matches({ enrolment: 'ready' })
      ? 'ready'
      : s.matches({ enrolment: 'failed' })
        ? 'failed'
        : 'registering';
  return {
    status,
    operator: s.context.enrolling,
    error: status === 'failed' ? s.context.error : null,
    canRetry: s.can({ type: 'enrol.retry' }),
  };
}

/** The operator logged in, and whether the logout is under way. */
export const selectOperator = (s: AuthSnapshot) => ({
  operator: s.context.operator,
  loggingOut: s.matches({ loggedIn: 'loggingOut' }),
});

export const selectQueueActor = (s: AuthSnapshot) =>
  s.matches({ loggedIn: 'queue' }) ? s.children.queue : undefined;
export const selectCaseActor = (s: AuthSnapshot) =>
  s.matches({ loggedIn: 'case' }) ? s.children.case : undefined;

// --- operatorQueue ------------------------------------------------------------------------

export type QueueStatus =
  'loading' | 'showing' | 'claiming' | 'failed' | 'code' | 'opening' | 'expired';

export function selectQueue(s: QueueSnapshot) {
  const status: QueueStatus = s.matches('taken')
    ? 'opening'
    : s.matches('expired')
      ? 'expired'
      : s.matches('code')
        ? 'code'
        : s.matches('showing')
          ? 'showing'
          : s.matches('claiming')
            ? 'claiming'
            : s.matches('failed')
              ? 'failed'
              : 'loading';
  const { loadedAt } = s.context;
  return {
    status,
    /** each case with its age in minutes at the time the list was read */
    cases: s.context.cases.map((c) => ({
      ...c,
      ageMinutes: Math.max(0, Math.floor((loadedAt - Date.parse(c.openedAt)) / 60_000)),
    })),
    total: s.context.total,
    nothingToTake: s.matches({ showing: 'nothingToTake' }),
    error: status === 'failed' ? s.context.error : null,
  };
}

export type CodeStatus = 'editing' | 'incomplete' | 'looking' | 'failed' | 'limited';
export function selectCodeEntry(s: QueueSnapshot) {
  const status: CodeStatus = s.matches({ code: 'incomplete' })
    ? 'incomplete'
    : s.matches({ code: 'looking' })
      ? 'looking'
      : s.matches({ code: 'failed' })
        ? 'failed'
        : s.matches({ code: 'limited' })
          ? 'limited'
          : 'editing';
  return {
    status,
    code: s.context.code,
    error: status === 'failed' || status === 'limited' ? s.context.error : null,
    canSubmit: status === 'editing' || status === 'incomplete' || status === 'failed',
  };
}

// --- operatorCase -------------------------------------------------------------------------

export type CaseStatusView =
  'loading' | 'failed' | 'reviewing' | 'deciding' | 'decided' | 'releasing' | 'closed';
export type CasePanel =
  'none' | 'correcting' | 'confirmingApproval' | 'rejecting' | 'repeating' | 'desk' | 'uploading';
export type DeskCameraStatus = 'opening' | 'live' | 'capturing' | 'failed';

const percent = (x: number | null | undefined) =>
  x === null || x === undefined ? null : Math.round(x * 100);

export function selectCase(s: CaseSnapshot) {
  const status: CaseStatusView = s.matches('loading')
    ? 'loading'
    : s.matches('failed')
      ? 'failed'
      : s.matches('deciding')
        ? 'deciding'
        : s.matches('decided')
          ? 'decided'
          : s.matches('releasing')
            ? 'releasing'
            : s.matches('closed') || s.matches('expired')
              ? 'closed'
              : 'reviewing';
  const panels = [
    'correcting',
    'confirmingApproval',
    'rejecting',
    'repeating',
    'desk',
    'uploading',
  ] as const;
  const panel: CasePanel = panels.find((p) => s.matches({ reviewing: p })) ?? 'none';
  const d = s.context.detail;
  const canDecide = d?.claimedByMe === true && d.status === 'open';
  let error: OperatorError | null = null;
  // The correction form says its own refusals (incomplete, or refused by the server).
  if (s.hasTag('error') && !s.matches({ reviewing: 'correcting' })) error = s.context.error;
  const typed: CorrectableField[] = d
    ? CORRECTABLE_FIELDS.filter((f) => d.fieldOrigins[f] === 'typed')
    : [];
  return {
    status,
    panel,
    detail: d,
    images: s.context.images,
    error,
    canDecide,
    canApprove: s.can({ type: 'approve.start' }),
    /** 'Pedir que repita': never on a 'posible duplicado' (issue 44 item 3) */
    canRepeat: s.can({ type: 'repeat.start' }),
    /** a centro case shows why 'Aprobar' waits: the desk photo first */
    needsDeskPhoto: canDecide && d?.kind === 'centro' && s.context.deskMatch === null,
    /** a remote case where nobody saw a card: not approved here (ask for the front, or reject) */
    needsCard: canDecide && d?.approvalRule === 'centre_only',
    /**
     * a remote case (with a card) and no selfie: not approved here, and no desk photo to take (ask
     * for the selfie, or reject; issue 43 item 2)
     */
    needsSelfie:
      canDecide &&
      d?.kind === 'review' &&
      d.approvalRule !== 'centre_only' &&
      !d.images.includes('selfie'),
    /** this case's approval needs a second one, by another supervisor */
    needsSecondApproval: d?.approvalRule === 'two',
    /** the fields an operator typed (the engine did not read them), in the form's order */
    typedFields: typed,
    /** the case's version as the operator reads it: its digest's first 8 characters, XXXX-XXXX */
    version: d ? `${d.digest.slice(0, 4)}-${d.digest.slice(4, 8)}`.toUpperCase() : null,
    /**
     * a 'posible duplicado' (issue 44 item 3): the enrolled patient it may be, and the faces'
     * similarity and the threshold in percent; null on other kinds
     */
    duplicate:
      d?.kind === 'duplicate' && d.duplicate
        ? {
            documento: d.duplicate.documento,
            nombre: d.duplicate.nombre,
            registeredAt: d.duplicate.registeredAt,
            similarityPercent: percent(d.duplicate.similarity) ?? 0,
            thresholdPercent: percent(d.duplicate.threshold) ?? 0,
          }
        : null,
    similarityPercent: percent(d?.faceSimilarity),
    thresholdPercent: percent(d?.faceThreshold),
    outcome: s.context.outcome,
  };
}

/** The case's children, when they run: the correction form and the desk camera. */
const correctionOf = (s: CaseSnapshot) =>
  s.matches({ reviewing: { correcting: 'form' } })
    ? s.children.correction?.getSnapshot()
    : undefined;
const deskOf = (s: CaseSnapshot) =>
  s.matches({ reviewing: 'desk' }) ? s.children.desk?.getSnapshot() : undefined;

export function selectCorrection(s: CaseSnapshot) {
  const form = correctionOf(s);
  // The form's own while it is open; the case's while it is sent.
  const c = form ? form.context.correction : s.context.correction;
  const incomplete = form?.matches('incomplete') === true;
  const refused = form?.matches('refused') === true;
  return {
    correction: c,
    /** how the form asks for the value, and the list to pick from */
    input: c ? correctionInput(c.field) : null,
    choices: c ? (FIELD_CHOICES[c.field] ?? null) : null,
    /** submitted too soon: what is wrong (the value, the same value, the reason) */
    problem:
      incomplete && c
        ? (correctionProblem(c, s.context.detail?.fields[c.field] ?? '') ?? null)
        : null,
    /** the server refused it: its sentence */
    refusal: refused ? (form?.context.error ?? null) : null,
    incomplete,
    saving: s.matches({ reviewing: { correcting: 'saving' } }),
  };
}

/** Why a patient's correction is refused: the cédula does not say it, or cannot be read. */
const CORRECTION_REJECT_REASONS: readonly string[] = [
  'document_invalid',
  'photos_unusable',
  'other',
];

export const selectRejection = (s: CaseSnapshot) => ({
  rejection: s.context.rejection,
  canConfirm: s.can({ type: 'reject.confirm' }),
  /**
   * the reasons this case may be rejected for: 'duplicate_person' on a posible duplicado only; a
   * patient's correction (issue 45 item 5) for what its cédula shows or not
   */
  reasons: REJECT_REASONS.filter((r) =>
    s.context.detail?.kind === 'correction'
      ? CORRECTION_REJECT_REASONS.includes(r)
      : (r === 'duplicate_person') === (s.context.detail?.kind === 'duplicate') || r === 'other',
  ),
});

export const selectRepeat = (s: CaseSnapshot) => ({
  step: s.context.repeatStep,
  canConfirm: s.can({ type: 'repeat.confirm' }),
});

export function selectDesk(s: CaseSnapshot) {
  const desk = deskOf(s);
  const camera: DeskCameraStatus = desk?.matches('live')
    ? 'live'
    : desk?.matches('capturing')
      ? 'capturing'
      : desk?.matches('cameraFailed')
        ? 'failed'
        : 'opening';
  const m = s.context.deskMatch;
  return {
    camera,
    stream: desk?.context.stream ?? null,
    cameraError: desk?.context.cameraError ?? null,
    canCapture: desk?.can({ type: 'desk.capture' }) === true,
    match: m && {
      similarityPercent: percent(m.faceSimilarity),
      thresholdPercent: percent(m.faceThreshold),
      /** at or above the engine's threshold (a signal for the operator, never a verdict) */
      above:
        m.faceSimilarity !== null &&
        m.faceThreshold !== null &&
        m.faceSimilarity >= m.faceThreshold,
    },
  };
}
