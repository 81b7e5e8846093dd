import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { KycStore } from '../onboarding/kyc-store';
import { onboardingMessages } from '../onboarding/messages';

export type { KycEvidence } from '../onboarding/kyc-store';

/** The app's KYC store (evidence, verified and live sessions), or a 503 when no engine is wired. */
export function caseKyc(ctx: Pick<AppContext, 'kyc'>): KycStore {
  if (!ctx.kyc) throw new HttpError(503, onboardingMessages.kycUnavailable);
  return ctx.kyc;
}
