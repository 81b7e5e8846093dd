import {
  caseStatusResponse,
  casesPaths,
  centresResponse,
  openCaseResponse,
  type CaseStatus,
  type CentresResponse,
  type OpenCaseRequest,
} from '../../contract/cases';
import { request } from '../shared/http';

// The assisted verification's calls (contract/cases.ts names their paths).

/** POST .../registration/case: the case opened (or the one already open). */
export async function postOpenCase(body: OpenCaseRequest, signal?: AbortSignal) {
  const answer = await request(casesPaths.openCase, { body, schema: openCaseResponse, signal });
  return answer.case;
}

/** POST .../registration/case/status: the registration's latest case, or null. */
export async function postCaseStatus(
  registrationToken: string,
  signal?: AbortSignal,
): Promise<CaseStatus | null> {
  const answer = await request(casesPaths.caseStatus, {
    body: { registrationToken },
    schema: caseStatusResponse,
    signal,
  });
  return answer.case;
}

/** GET /centros: the health centres that verify, by department. */
export function getCentres(signal?: AbortSignal): Promise<CentresResponse> {
  return request(casesPaths.centres, { schema: centresResponse, signal });
}
