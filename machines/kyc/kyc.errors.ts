import {
  isIdentityReason,
  type IdentityReason,
  type ScanIdResponse,
} from '../../contract/identity';
import type { CaseStep, CaseTrigger } from '../../contract/cases';
import { isCameraMissing } from '../shared/camera';
import { toFlowError, type FlowError } from '../shared/errors';
import type { KycContext, KycError, KycErrorCode, RefusalCounts } from './kyc.types';
import type { AssistBack } from './kyc.assist.types';

/**
 * The identity step's failures as codes (issues 27 and 28): the server's `reason` beside its
 * sentence decides what the patient sees and repeats, never the sentence's words. A code this
 * browser does not know is a generic refusal with the server's sentence.
 */

const withMessage = (
  code: KycErrorCode,
  serverMessage: string | undefined,
  reason?: IdentityReason,
): KycError => ({
  code,
  ...(serverMessage ? { serverMessage } : {}),
  ...(reason ? { reason } : {}),
});

const reasonOf = (value: unknown): IdentityReason | undefined =>
  isIdentityReason(value) ? value : undefined;

/** The session is spent, expired or unknown: only a new one can go on. */
const SESSION_OVER: readonly IdentityReason[] = [
  'session_invalid',
  'session_expired',
  'session_closed',
  'attempts_exhausted',
  'frames_exhausted',
];

/** The document refusals whose text and next step follow from the code. */
const DOCUMENT_REFUSALS: Partial<Record<IdentityReason, KycErrorCode>> = {
  face_mismatch: 'faceMismatch',
  no_face_on_document: 'noFaceOnDocument',
  not_a_document: 'frontRejected',
  front_unreadable: 'frontRejected',
  document_mismatch: 'documentMismatch',
  mrz_unreadable: 'backRejected',
  back_missing: 'backRejected',
};

/** Codes whose text is the spec's or ours, whatever the server's sentence says. */
const OWN_TEXT: readonly KycErrorCode[] = ['sessionExpired', 'faceMismatch', 'noFaceOnDocument'];

/** A document refusal (scan-id's `success: false` or an error answer) by its code. */
function documentRefusal(reason: IdentityReason | undefined, message: string | undefined) {
  if (reason && SESSION_OVER.includes(reason))
    return withMessage('sessionExpired', undefined, reason);
  const code = (reason && DOCUMENT_REFUSALS[reason]) || null;
  if (!code) return null;
  return withMessage(code, OWN_TEXT.includes(code) ? undefined : message, reason);
}

/** POST /start-kyc failures. */
export function kycErrorFrom(err: unknown): KycError {
  const e = toFlowError(err);
  const reason = reasonOf(e.reason);
  if (e.code === 'network') return { code: 'network' };
  return withMessage(
    e.code === 'tooManyAttempts' ? 'tooManyAttempts' : 'startKycFailed',
    e.serverMessage,
    reason,
  );
}

/**
 * The challenge's refusals (issue 31): the blinks not made on cue (`cues_missed`), the screen's
 * colours not seen on the face (`light_mismatch`), another face once something was asked
 * (`face_changed`, issue 41), the light that could not be judged at all (`light_unjudged`, issue 41:
 * bright sun, a face far from the phone; a person is offered at once). The session is over; the server's sentence says why.
 */
const CHALLENGE_REFUSALS: readonly string[] = [
  'cues_missed',
  'light_mismatch',
  'face_changed',
  'light_unjudged',
];

/**
 * A failed liveness request: the session over, the challenge refused, too many attempts, or the
 * spec's generic selfie problem.
 */
export function livenessErrorFrom(error: FlowError): KycError {
  const reason = reasonOf(error.reason);
  if (reason && SESSION_OVER.includes(reason))
    return withMessage('sessionExpired', undefined, reason);
  if (error.reason && CHALLENGE_REFUSALS.includes(error.reason))
    return withMessage('challengeFailed', error.serverMessage, reason);
  if (error.code === 'tooManyAttempts')
    return withMessage('tooManyAttempts', error.serverMessage, reason);
  return withMessage('livenessFailed', undefined, reason);
}

/** scan-id answered `success: false` (or not complete): which failure (spec 8, Document). */
function scanIdRefusal(answer: ScanIdResponse): KycError {
  const reason = reasonOf(answer.reason);
  return (
    documentRefusal(reason, answer.error) ?? withMessage('documentRejected', answer.error, reason)
  );
}

/** scan-id did not answer 2xx JSON. */
function scanIdErrorFrom(err: unknown): KycError {
  const e = toFlowError(err);
  const reason = reasonOf(e.reason);
  const refusal = documentRefusal(reason, e.serverMessage);
  if (refusal) return refusal;
  // Not a refusal: the scan already running answers first; the same photos go again after it.
  if (reason === 'scan_in_progress') return withMessage('scanInProgress', e.serverMessage, reason);
  if (e.code === 'tooManyAttempts') return withMessage('tooManyAttempts', e.serverMessage, reason);
  if (e.code === 'server' && e.serverMessage)
    return withMessage('documentRejected', e.serverMessage, reason);
  return { code: 'documentNetwork' };
}

/** What verifying's answer (done or error event) says went wrong. */
export function documentErrorOf(event: object): KycError {
  if ('output' in event) return scanIdRefusal(event.output as ScanIdResponse);
  return scanIdErrorFrom('error' in event ? event.error : undefined);
}

/** Failures worth sending the same photos again (nothing the patient did is wrong). */
export const isTransient = (e: KycError): boolean =>
  e.code === 'documentNetwork' || e.code === 'tooManyAttempts' || e.code === 'scanInProgress';

/** Which photos a document refusal asks for again (null: none, the attempt starts over). */
export type Retake = 'front' | 'back' | 'both';
const RETAKES: Partial<Record<KycErrorCode, Retake>> = {
  noFaceOnDocument: 'front',
  frontRejected: 'front',
  documentMismatch: 'both',
  backRejected: 'back',
};
export const retakeOf = (e: KycError): Retake | null => RETAKES[e.code] ?? null;

/** The selfie not passed (its time over, or its challenge refused): counted as 'liveness'. */
const LIVENESS_REFUSED: readonly KycErrorCode[] = ['livenessNotDetected', 'challengeFailed'];

/** One more refusal for its code (kept across attempts: a person is offered after the same twice). */
export function countRefusal(counts: RefusalCounts, e: KycError): RefusalCounts {
  const key = LIVENESS_REFUSED.includes(e.code) ? 'liveness' : e.reason;
  return key ? { ...counts, [key]: (counts[key] ?? 0) + 1 } : counts;
}

/** The case trigger a refusal stands for (issue 30; never shown to the patient). */
const TRIGGERS: Partial<Record<KycErrorCode, CaseTrigger>> = {
  livenessNotDetected: 'liveness_failed',
  challengeFailed: 'liveness_failed',
  frontRejected: 'document_unreadable',
  backRejected: 'document_unreadable',
  noFaceOnDocument: 'no_face_on_document',
  faceMismatch: 'face_mismatch',
  documentMismatch: 'document_mismatch',
};
/** The refusal counts (by reason) that add up to each trigger. */
const COUNTED_AS: Partial<Record<keyof RefusalCounts, CaseTrigger>> = {
  liveness: 'liveness_failed',
  not_a_document: 'document_unreadable',
  front_unreadable: 'document_unreadable',
  mrz_unreadable: 'document_unreadable',
  back_missing: 'document_unreadable',
  no_face_on_document: 'no_face_on_document',
  face_mismatch: 'face_mismatch',
  document_mismatch: 'document_mismatch',
};
/** The same refusal this many times: a person is offered with it (issue 28 item 3). */
export const REFUSALS_BEFORE_ASSIST = 2;

type RefusalState = Pick<KycContext, 'error' | 'refusals' | 'cameraError' | 'canHandoff'>;

/** The trigger of the refusal this screen shows, however many times it happened (null: none). */
export const triggerOf = (c: RefusalState): CaseTrigger | null =>
  isCameraMissing(c.cameraError) && !c.canHandoff
    ? 'no_camera'
    : ((c.error && TRIGGERS[c.error.code]) ?? null);

/**
 * The refusal on screen, repeated (or no camera on a device that cannot hand off: nothing to
 * repeat): the screen offers a person directly. Null when the step may just be tried again.
 */
export function repeatedRefusal(c: RefusalState): CaseTrigger | null {
  const trigger = triggerOf(c);
  if (trigger === 'no_camera' || trigger === null) return trigger;
  // The light could not be judged where the patient is: trying again there does not help.
  if (c.error?.reason === 'light_unjudged') return trigger;
  const times = Object.entries(c.refusals).reduce(
    (sum, [reason, n]) => (COUNTED_AS[reason as keyof RefusalCounts] === trigger ? sum + n : sum),
    0,
  );
  return times >= REFUSALS_BEFORE_ASSIST ? trigger : null;
}

/** The step a case names, from the screen the patient left (a refused card names its front). */
export function caseStepOf(back: AssistBack, c: Pick<KycContext, 'side' | 'error'>): CaseStep {
  if (back === 'document') return c.side;
  if (back === 'rejected' && c.error?.code === 'documentRejected') return 'front';
  return 'selfie';
}
