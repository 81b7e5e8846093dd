import type { Db } from '../db/client';
import { toIdData, type KycStore } from '../onboarding/kyc-store';
import * as store from './store';

/** The identity engine's side of registration: completed sessions and face enrollment, in the database. */
export function createKycStore(db: Db): KycStore {
  return {
    async getCompletedKyc(sessionId) {
      const kyc = await store.getCompletedKyc(db, sessionId);
      return kyc ? { idData: toIdData(kyc.idData), embedding: kyc.embedding } : null;
    },
    async consumeKyc(sessionId, tx) {
      return (await store.getCompletedKyc(tx, sessionId, { consume: true })) !== null;
    },
    async enrollFace(patientId, embedding, tx) {
      await store.enrollFace(tx, patientId, embedding);
    },
  };
}
