import * as z from 'zod/mini';
import {
  caseDetailResponse,
  claimResponse,
  codeLookupResponse,
  decisionResponse,
  deskPhotoResponse,
  enrolOptionsResponse,
  loginOptionsResponse,
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
import type { Correction } from './operador.types';

/** The back office's calls (contract/operators.ts); the only place its URLs live. */
const API = '/api/operador';
const ok = z.object({ success: z.literal(true) });
const caseUrl = (id: string) => `${API}/casos/${encodeURIComponent(id)}`;

export const getSession = (signal?: AbortSignal): Promise<SessionResponse> =>
  request(`${API}/sesion`, { schema: sessionResponse, signal });

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(`${API}/salir`, { body: {}, schema: ok, signal });
}

export const postEnrolOptions = (
  token: string,
  signal?: AbortSignal,
): Promise<EnrolOptionsResponse> =>
  request(`${API}/alta/opciones`, { body: { token }, schema: enrolOptionsResponse, signal });

export const postEnrolVerify = (
  token: string,
  response: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<SessionResponse> =>
  request(`${API}/alta/verificar`, { body: { token, response }, schema: sessionResponse, signal });

export const postLoginOptions = (signal?: AbortSignal): Promise<LoginOptionsResponse> =>
  request(`${API}/ingreso/opciones`, { body: {}, schema: loginOptionsResponse, signal });

export const postLoginVerify = (
  challengeId: string,
  response: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<SessionResponse> =>
  request(`${API}/ingreso/verificar`, {
    body: { challengeId, response },
    schema: sessionResponse,
    signal,
  });

export const getQueue = (signal?: AbortSignal): Promise<QueueResponse> =>
  request(`${API}/casos`, { schema: queueResponse, signal });

export const postClaim = (signal?: AbortSignal): Promise<ClaimResponse> =>
  request(`${API}/casos/tomar`, { body: {}, schema: claimResponse, signal });

export async function postCodeLookup(code: string, signal?: AbortSignal): Promise<string> {
  const res = await request(`${API}/codigos`, {
    body: { code },
    schema: codeLookupResponse,
    signal,
  });
  return res.caseId;
}

export async function getCase(id: string, signal?: AbortSignal): Promise<CaseDetail> {
  const res = await request(caseUrl(id), { schema: caseDetailResponse, signal });
  return res.case;
}

export const getCaseImage = (id: string, image: EvidenceImage, signal?: AbortSignal) =>
  requestImage(`${caseUrl(id)}/imagen/${image}`, signal);

export async function postCorrection(
  id: string,
  correction: Correction,
  signal?: AbortSignal,
): Promise<void> {
  await request(`${caseUrl(id)}/campos`, { body: correction, schema: ok, signal });
}

export const postDecision = (
  id: string,
  decision: DecisionRequest,
  signal?: AbortSignal,
): Promise<DecisionResponse> =>
  request(`${caseUrl(id)}/decision`, { body: decision, schema: decisionResponse, signal });

export async function postRelease(id: string, signal?: AbortSignal): Promise<void> {
  await request(`${caseUrl(id)}/soltar`, { body: {}, schema: ok, signal });
}

export const postDeskPhoto = (
  id: string,
  photo: Blob,
  signal?: AbortSignal,
): Promise<DeskPhotoResponse> =>
  request(`${caseUrl(id)}/foto`, { blob: photo, schema: deskPhotoResponse, signal });
