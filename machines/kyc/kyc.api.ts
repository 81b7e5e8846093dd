import {
  identityParts,
  identityPaths,
  kycRejectResponse,
  livenessResponse,
  scanIdResponse,
  startKycResponse,
  type KycRejectResponse,
  type LivenessMeta,
  type LivenessResponse,
  type ScanIdResponse,
  type StartKycResponse,
} from '../../contract/identity';
import {
  bindKycResponse,
  documentCheckResponse,
  citiesResponse,
  departmentsResponse,
  onboardingPaths,
  type Place,
} from '../../contract/onboarding';
import { request } from '../shared/http';

/** POST /api/onboarding/start-kyc: `{ success: true, session_id }`; any refusal is an HTTP error. */
export function postStartKyc(signal?: AbortSignal): Promise<StartKycResponse> {
  return request(identityPaths.startKyc, { body: {}, schema: startKycResponse, signal });
}

/** The new KYC session belongs to the patient's registration (resumable, bound to it only). */
export function postBindKyc(registrationToken: string, sessionId: string, signal?: AbortSignal) {
  return request(onboardingPaths.bindKyc, {
    body: { registrationToken, sessionId },
    schema: bindKycResponse,
    signal,
  });
}

/**
 * Is the cédula this session just read already a patient's? (issue 29 item 10) Only for the
 * registration's own session, once it read a card.
 */
export async function postDocumentCheck(
  registrationToken: string,
  sessionId: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const answer = await request(onboardingPaths.documentCheck, {
    body: { registrationToken, sessionId },
    schema: documentCheckResponse,
    signal,
  });
  return answer.registered;
}

/**
 * POST /liveness: the session, the chosen frames as repeated `frame` parts (oldest first) and, with
 * `meta`, their tags on the challenge's clock and the camera (issue 31), as JSON.
 */
export function postLiveness(
  sessionId: string,
  frames: readonly Blob[],
  signal?: AbortSignal,
  meta?: LivenessMeta,
): Promise<LivenessResponse> {
  const form = new FormData();
  form.append('session_id', sessionId);
  if (meta) form.append('meta', JSON.stringify(meta));
  frames.forEach((frame, i) => form.append(identityParts.frame, frame, `frame-${i}.jpg`));
  return request(identityPaths.liveness, { form, schema: livenessResponse, signal });
}

/**
 * POST /scan-id: the session, the front (frontal.jpg) and the back (dorso.jpg). The phone and the
 * PIN are not sent: the PIN leaves memory only in the register call (docs/decisions.md). A side
 * absent is left out: a person asked for the other side only, and the server kept this one
 * (issue 30).
 */
export function postScanId(
  sessionId: string,
  front: Blob | null,
  back: Blob | null,
  signal?: AbortSignal,
): Promise<ScanIdResponse> {
  const form = new FormData();
  form.append('session_id', sessionId);
  if (front) form.append(identityParts.front, front, 'frontal.jpg');
  if (back) form.append(identityParts.back, back, 'dorso.jpg');
  return request(identityPaths.scanId, { form, schema: scanIdResponse, signal });
}

/** POST /kyc-reject: the review's 'Reintentar' (docs/decisions.md). */
export function postKycReject(
  sessionId: string,
  reason: string,
  signal?: AbortSignal,
): Promise<KycRejectResponse> {
  return request(identityPaths.kycReject, {
    body: { session_id: sessionId, reason },
    schema: kycRejectResponse,
    signal,
  });
}

export function getDepartments(signal?: AbortSignal): Promise<Place[]> {
  return request(onboardingPaths.departments, { schema: departmentsResponse, signal });
}

export function getCities(departmentId: string, signal?: AbortSignal): Promise<Place[]> {
  return request(onboardingPaths.cities(departmentId), { schema: citiesResponse, signal });
}
