import { identityPaths, startKycResponse, type StartKycResponse } from '../../contract/identity';
import { request } from '../shared/http';

/** POST /api/onboarding/start-kyc: `{ success: true, session_id }`; any refusal is an HTTP error. */
export function postStartKyc(signal?: AbortSignal): Promise<StartKycResponse> {
  return request(identityPaths.startKyc, { body: {}, schema: startKycResponse, signal });
}
