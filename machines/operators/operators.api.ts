import * as z from 'zod/mini';
import {
  caseDetailResponse,
  claimResponse,
  codeLookupResponse,
  decisionResponse,
  deskPhotoResponse,
  enrolOptionsResponse,
  loginOptionsResponse,
  operatorPaths,
  queueResponse,
  sessionResponse,
  type CaseDetail,
  type ClaimResponse,
  type DecisionRequest,
  type DecisionResponse,
  type DeskPhotoResponse,
  type EnrolOptionsResponse,
  type EvidenceImage,
  type LoginOptionsResponse,
  type QueueResponse,
  type SessionResponse,
} from '../../contract/operators';
import { request, requestImage } from '../shared/http';
import type { Correction } from './operators.types';

/** The back office's calls (contract/operators.ts names their paths). */
const ok = z.object({ success: z.literal(true) });

export const getSession = (signal?: AbortSignal): Promise<SessionResponse> =>
  request(operatorPaths.session, { schema: sessionResponse, signal });

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(operatorPaths.logout, { body: {}, schema: ok, signal });
}

export const postEnrolOptions = (
  token: string,
  signal?: AbortSignal,
): Promise<EnrolOptionsResponse> =>
  request(operatorPaths.enrolOptions, { body: { token }, schema: enrolOptionsResponse, signal });

export const postEnrolVerify = (
  token: string,
  response: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<SessionResponse> =>
  request(operatorPaths.enrolVerify, {
    body: { token, response },
    schema: sessionResponse,
    signal,
  });

export const postLoginOptions = (signal?: AbortSignal): Promise<LoginOptionsResponse> =>
  request(operatorPaths.loginOptions, { body: {}, schema: loginOptionsResponse, signal });

export const postLoginVerify = (
  challengeId: string,
  response: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<SessionResponse> =>
  request(operatorPaths.loginVerify, {
    body: { challengeId, response },
    schema: sessionResponse,
    signal,
  });

export const getQueue = (signal?: AbortSignal): Promise<QueueResponse> =>
  request(operatorPaths.queue, { schema: queueResponse, signal });

export const postClaim = (signal?: AbortSignal): Promise<ClaimResponse> =>
  request(operatorPaths.claim, { body: {}, schema: claimResponse, signal });

export async function postCodeLookup(code: string, signal?: AbortSignal): Promise<string> {
  const res = await request(operatorPaths.codeLookup, {
    body: { code },
    schema: codeLookupResponse,
    signal,
  });
  return res.caseId;
}

export async function getCase(id: string, signal?: AbortSignal): Promise<CaseDetail> {
  const res = await request(operatorPaths.case(id), { schema: caseDetailResponse, signal });
  return res.case;
}

export const getCaseImage = (id: string, image: EvidenceImage, signal?: AbortSignal) =>
  requestImage(operatorPaths.caseImage(id, image), signal);

export async function postCorrection(
  id: string,
  correction: Correction,
  signal?: AbortSignal,
): Promise<void> {
  await request(operatorPaths.correction(id), { body: correction, schema: ok, signal });
}

export const postDecision = (
  id: string,
  decision: DecisionRequest,
  signal?: AbortSignal,
): Promise<DecisionResponse> =>
  request(operatorPaths.decision(id), { body: decision, schema: decisionResponse, signal });

export async function postRelease(id: string, signal?: AbortSignal): Promise<void> {
  await request(operatorPaths.release(id), { body: {}, schema: ok, signal });
}

export const postDeskPhoto = (
  id: string,
  photo: Blob,
  signal?: AbortSignal,
): Promise<DeskPhotoResponse> =>
  request(operatorPaths.deskPhoto(id), { blob: photo, schema: deskPhotoResponse, signal });
