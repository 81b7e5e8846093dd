import type { CaseStep, RejectReason } from '../../contract/cases';
import type {
  ApprovalRule,
  CaseDetail,
  CorrectableField,
  DecisionRequest,
  EvidenceImage,
  FieldOrigin,
  OperatorProfile,
  QueuedCase,
} from '../../contract/operators';
import { CORRECTABLE_FIELDS } from '../../contract/operators';
import type { CameraErrorCode, CameraEvent } from '../shared/camera';

/**
 * The back office at /operador (issue 30): the operator's session (`operatorAuth`), the queue of
 * cases (`operatorQueue`, its child while logged in) and the case an operator works
 * (`operatorCase`, its child after a claim or a code). The views take these types from here (src/
 * never imports contract/).
 */
export type {
  ApprovalRule,
  CaseDetail,
  CorrectableField,
  DecisionRequest,
  EvidenceImage,
  FieldOrigin,
  OperatorProfile,
  QueuedCase,
};
export type {
  CaseKind,
  CaseStep,
  CaseTrigger,
  OperatorCaseKind,
  RejectReason,
} from '../../contract/cases';
export type { IdentityReason } from '../../contract/identity';
export { CASE_STEPS, REJECT_REASONS } from '../../contract/cases';
export { CORRECTABLE_FIELDS };
export { MARITAL_STATUSES, NATIONALITIES, SEXES } from '../../contract/case-fields';

/**
 * Why something failed, by code (src/copy/es.operators.ts has the words):
 * - linkInvalid: the enrolment link expired or was used already
 * - hostIsIp: the page was opened on an IP address, where browsers refuse passkeys (503 with
 *   reason OPERATOR_HOST_IS_IP): open it on localhost or the site's name
 * - cancelled: the operator closed the passkey prompt (NotAllowedError)
 * - unsupported: this browser has no passkeys (no PublicKeyCredential)
 * - passkeyFailed: the authenticator refused for another reason
 * - rejected: the server refused the passkey (unknown credential, failed verification)
 * - network: no answer; tooManyAttempts: 429 (with the wait); server: any other refusal
 * - notFound: no case with that code; forbidden: the role may not do it (403)
 * - conflict: someone else holds or decided the case (409)
 * - caseChanged: the case changed since the page showed it (a correction, a desk photo): read again
 */
export type OperatorErrorCode =
  | 'linkInvalid'
  | 'hostIsIp'
  | 'cancelled'
  | 'unsupported'
  | 'passkeyFailed'
  | 'rejected'
  | 'network'
  | 'tooManyAttempts'
  | 'notFound'
  | 'forbidden'
  | 'conflict'
  | 'caseChanged'
  | 'server';
export type OperatorError = {
  code: OperatorErrorCode;
  serverMessage?: string;
  retryAfterSeconds?: number;
};

/** Why the operator sees the login again. */
export type OperatorNotice = 'sessionExpired' | 'loggedOut';

// --- operatorAuth -------------------------------------------------------------------------

export type OperatorAuthInput = {
  /** the enrolment link's one-time token (`/operador/alta#<token>`), read once from the address */
  enrolToken?: string | null;
};
export type OperatorAuthContext = {
  operator: OperatorProfile | null;
  enrolToken: string | null;
  /** who the enrolment link is for (shown before 'Crear llave de acceso') */
  enrolling: OperatorProfile | null;
  /** the enrolment link's WebAuthn options (the server's JSON, for the passkey child) */
  options: Record<string, unknown> | null;
  /** the case being worked (after a claim or a code) */
  caseId: string | null;
  error: OperatorError | null;
  notice: OperatorNotice | null;
};
export type OperatorAuthEvent =
  | { type: 'login.start' }
  | { type: 'enrol.start' }
  | { type: 'enrol.retry' }
  | { type: 'session.logout' };

/** A passkey ceremony (`operatorPasskey`, the session's child `passkey`): a login, or a link's. */
export type PasskeyInput =
  { ceremony: 'login' } | { ceremony: 'enrol'; token: string; options: Record<string, unknown> };
export type PasskeyContext = {
  ceremony: PasskeyInput['ceremony'];
  /** the login's challenge id (from its options), or the enrolment link's token */
  key: string | null;
  /** the WebAuthn options (the server's JSON, handed to the browser) */
  options: Record<string, unknown> | null;
  /** the authenticator's answer, on its way to the server */
  credential: Record<string, unknown> | null;
  operator: OperatorProfile | null;
  error: OperatorError | null;
};
/** The operator logged in, or why not. */
export type PasskeyOutput =
  { operator: OperatorProfile; error: null } | { operator: null; error: OperatorError };

/** What the queue and the case end with: the case to open, or the session found expired (401). */
export type DeskOutput = { caseId: string | null; expired: boolean };

// --- operatorQueue ------------------------------------------------------------------------

export type QueueContext = {
  cases: QueuedCase[];
  total: number;
  /** when the list was read (ms since the epoch): the cases' ages count from it */
  loadedAt: number;
  /** the health-centre code as typed, formatted XXXX-XXXX */
  code: string;
  caseId: string | null;
  error: OperatorError | null;
};
export type QueueEvent =
  | { type: 'queue.refresh' }
  | { type: 'queue.claim' }
  | { type: 'code.open' }
  | { type: 'code.change'; value: string }
  | { type: 'code.submit' }
  | { type: 'code.cancel' };

// --- operatorCase -------------------------------------------------------------------------

export type CaseInput = { caseId: string };
/** The images of the case as object URLs (revoked when the case closes). */
export type CaseImages = Partial<Record<EvidenceImage, string>>;
export type LoadedCase = { detail: CaseDetail; images: CaseImages };
export type Correction = { field: CorrectableField; value: string; reason: string };
export type Rejection = { reason: RejectReason | null; note: string };
export type DeskMatch = { faceSimilarity: number | null; faceThreshold: number | null };
export type DecisionOutcome = 'approved' | 'awaiting_supervisor' | 'rejected' | 'repeat';

export type CaseContext = {
  caseId: string;
  detail: CaseDetail | null;
  images: CaseImages;
  correction: Correction | null;
  rejection: Rejection;
  repeatStep: CaseStep | null;
  /** the decision being sent */
  decision: DecisionRequest | null;
  outcome: DecisionOutcome | null;
  /** the desk camera's photo (its child's output), on its way to the server */
  deskPhoto: Blob | null;
  /** the desk photo's face match, once uploaded (a signal, never a verdict) */
  deskMatch: DeskMatch | null;
  error: OperatorError | null;
};
export type CaseEvent =
  | { type: 'case.retry' }
  | { type: 'case.close' }
  | { type: 'field.edit'; field: CorrectableField }
  | { type: 'correction.change'; value?: string; reason?: string }
  | { type: 'correction.submit' }
  | { type: 'action.cancel' }
  | { type: 'approve.start' }
  | { type: 'approve.confirm' }
  | { type: 'reject.start' }
  | { type: 'reject.change'; reason?: Rejection['reason']; note?: string }
  | { type: 'reject.confirm' }
  | { type: 'repeat.start' }
  | { type: 'repeat.choose'; step: CaseStep }
  | { type: 'repeat.confirm' }
  | { type: 'case.release' }
  | { type: 'desk.start' }
  | { type: 'desk.capture' }
  | { type: 'camera.retry' };

/** The correction form (`operatorCorrection`, the case's child while 'Corregir' is open). */
export type CorrectionInput = {
  correction: Correction;
  /** the field's current value: a correction must differ from it */
  current: string;
  /** the server refused the last one (400): the form opens saying why */
  refusal: OperatorError | null;
};
export type CorrectionContext = {
  correction: Correction;
  current: string;
  error: OperatorError | null;
};
export type CorrectionEvent =
  { type: 'correction.change'; value?: string; reason?: string } | { type: 'correction.submit' };

/** The desk camera (`operatorDesk`, the case's child while its photo is taken). */
export type DeskContext = {
  stream: MediaStream | null;
  cameraError: CameraErrorCode | null;
  /** the photo taken: the child's output */
  photo: Blob | null;
  /** the capture failed (back to the live camera) */
  error: OperatorError | null;
};
export type DeskEvent = { type: 'desk.capture' } | { type: 'camera.retry' } | CameraEvent;
