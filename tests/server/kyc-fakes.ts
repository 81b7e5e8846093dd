import type { KycStore } from '../../server/onboarding/kyc-store';

/**
 * The assisted-verification part of a KycStore (issue 30) for in-test KYC stores whose tests do not
 * use it: no evidence, and no session made.
 */
export class NoAssistedKyc implements Pick<
  KycStore,
  | 'evidenceOf'
  | 'evidenceCopied'
  | 'createLiveSession'
  | 'createVerifiedSession'
  | 'duplicateOf'
  | 'isEnrolledFace'
> {
  /** No enrolled face is ever this one (issue 44 item 3: tests/server/cases-duplicate.test.ts). */
  async duplicateOf() {
    return null;
  }
  async isEnrolledFace() {
    return false;
  }
  async evidenceOf() {
    return null;
  }
  async evidenceCopied(): Promise<void> {}
  async createLiveSession(): Promise<string> {
    throw new Error('not used in this test');
  }
  async createVerifiedSession(): Promise<string> {
    throw new Error('not used in this test');
  }
}
