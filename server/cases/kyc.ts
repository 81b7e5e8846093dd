import type { IdData } from '../../contract/onboarding';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import type { KycStore } from '../onboarding/kyc-store';
import { onboardingMessages } from '../onboarding/messages';

/**
 * What the evidence branch adds to KycStore (issue 30, interface A), as cases uses it. Declared
 * here, structurally identical, so that cases builds before evidence merges; once KycStore has
 * these methods `caseKyc` is just a typed view of ctx.kyc.
 */
export type KycEvidence = {
  selfie: Buffer | null;
  front: Buffer | null;
  back: Buffer | null;
  portrait: Buffer | null;
  idData: IdData | null;
  reasons: string[];
  faceSimilarity: number | null;
  faceThreshold: number | null;
  attempts: { liveness: number; scans: number };
  selfieEmbedding: number[] | null;
  portraitEmbedding: number[] | null;
};

export type CaseKycStore = KycStore & {
  evidenceOf(sessionId: string): Promise<KycEvidence | null>;
  createLiveSession(
    input: {
      embedding: ArrayLike<number>;
      keep: { front?: Buffer; back?: Buffer };
      expiresAt: Date;
    },
    tx?: Db,
  ): Promise<string>;
  createVerifiedSession(
    input: { idData: IdData; embedding: ArrayLike<number>; expiresAt: Date },
    tx?: Db,
  ): Promise<string>;
};

/** The app's KYC store with the case methods, or a 503 when the engine does not offer them. */
export function caseKyc(ctx: Pick<AppContext, 'kyc'>): CaseKycStore {
  const kyc = ctx.kyc as Partial<CaseKycStore> | null;
  if (
    !kyc ||
    typeof kyc.evidenceOf !== 'function' ||
    typeof kyc.createLiveSession !== 'function' ||
    typeof kyc.createVerifiedSession !== 'function'
  )
    throw new HttpError(503, onboardingMessages.kycUnavailable);
  return kyc as CaseKycStore;
}
