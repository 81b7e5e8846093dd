import { fromPromise } from 'xstate';
import type {
  CaseKind,
  CaseStatus,
  CaseStep,
  CaseTrigger,
  CentresResponse,
  PatientClaim,
} from '../../contract/cases';
import type { ScanIdResponse } from '../../contract/identity';
import { toFlowError } from '../shared/errors';
import { postScanId } from './kyc.api';
import { getCentres, postCaseStatus, postOpenCase } from './kyc.assist.api';
import type { AssistError, AssistErrorCode } from './kyc.assist.types';

/** Opens the registration's case (or answers the one already open). */
export const openCase = fromPromise<
  CaseStatus,
  {
    registrationToken: string;
    kind: CaseKind;
    trigger: CaseTrigger;
    step: CaseStep;
    claim?: PatientClaim;
  }
>(({ input, signal }) => postOpenCase(input, signal));

/**
 * The front the patient took but never sent (they asked for a person on the back, issue 43 item 1):
 * sent alone to the session before the case opens, so the server keeps it (a scan refused
 * 'back_missing' keeps the front, its portrait and the face's score) and the case carries it.
 */
export const keepFront = fromPromise<ScanIdResponse, { sessionId: string; front: Blob }>(
  ({ input, signal }) => postScanId(input.sessionId, input.front, null, signal),
);

/** The registration's latest case (null: none). */
export const readCaseStatus = fromPromise<CaseStatus | null, { registrationToken: string }>(
  ({ input, signal }) => postCaseStatus(input.registrationToken, signal),
);

export const loadCentres = fromPromise<CentresResponse>(({ signal }) => getCentres(signal));

/** The case refusals the browser branches on (contract/cases.ts CASE_REFUSALS), as codes. */
const REFUSALS: Record<string, AssistErrorCode> = {
  case_taken: 'caseTaken',
  case_decided: 'caseDecided',
  registration_complete: 'registrationComplete',
};

/** A failed case call as its code: offline, a refusal by its reason, else the server's words. */
export function assistErrorFrom(err: unknown): AssistError {
  const e = toFlowError(err);
  const refusal = e.reason ? REFUSALS[e.reason] : undefined;
  if (refusal) return { code: refusal };
  if (e.code === 'network') return { code: 'network' };
  return e.serverMessage ? { code: 'failed', serverMessage: e.serverMessage } : { code: 'failed' };
}

/** The failure's code, for the guards. */
export const isAssistError = (err: unknown, code: AssistErrorCode) =>
  assistErrorFrom(err).code === code;
