import * as z from 'zod/mini';
import { request } from '../shared/http';

/**
 * POST /api/onboarding/start-kyc answers `{ success: true, session_id }` (decisions.md). Typed here
 * because contract/identity.ts does not exist yet; move it there when the identity contract lands.
 */
export const startKycResponse = z.object({
  success: z.boolean(),
  session_id: z.optional(z.string().check(z.minLength(1))),
  message: z.optional(z.string()),
});
export type StartKycResponse = z.infer<typeof startKycResponse>;

export const kycPaths = { startKyc: '/api/onboarding/start-kyc' } as const;

export function postStartKyc(signal?: AbortSignal): Promise<StartKycResponse> {
  return request(kycPaths.startKyc, { body: {}, schema: startKycResponse, signal });
}
