import type { IdData, SupplementaryData } from '../../contract/onboarding';

/**
 * The document verification's answer as the review step sees it (decisions.md, scan-id). The
 * server never trusts it at register time: it keeps its own copy of the session's result.
 */
export type KycResult = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  id_data?: IdData;
};

/** Why the identity step stopped; each code has its Spanish text in src/copy/es.onboarding.ts. */
export type KycErrorCode = 'startKycFailed' | 'network' | 'tooManyAttempts' | 'unexpectedStep';

export type KycError = { code: KycErrorCode; serverMessage?: string };

export type KycContext = {
  sessionId: string | null;
  error: KycError | null;
};

/** A session the wizard already holds is reused; otherwise one is created on entry (spec 4, KYC). */
export type KycInput = { sessionId?: string | null | undefined } | undefined;

/** What the wizard's final register call needs from the identity step. */
export type KycOutput = {
  sessionId: string;
  kycResult: KycResult;
  supplementaryData: SupplementaryData;
};

export type KycEvent = { type: 'kyc.retry' };

export type { SupplementaryData };
