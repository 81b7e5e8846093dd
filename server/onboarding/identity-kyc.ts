import type { Db } from '../db/client';
import { enrollFace, getCompletedKyc, sessionStage } from '../identity/store';
import { toIdData, type KycStore } from './kyc-store';

/** Registration's view of the identity engine's KYC sessions (server/identity/store.ts). */
export function identityKycStore(db: Db): KycStore {
  return {
    async getCompletedKyc(sessionId) {
      const kyc = await getCompletedKyc(db, sessionId);
      return kyc && { idData: toIdData(kyc.idData), embedding: kyc.embedding };
    },
    async consumeKyc(sessionId, tx) {
      return (await getCompletedKyc(tx, sessionId, { consume: true })) !== null;
    },
    async progressOf(sessionId) {
      const stage = await sessionStage(db, sessionId);
      if (stage?.status === 'completed')
        return { stage: 'documentRead', idData: toIdData(stage.idData) };
      return stage?.status === 'live' ? { stage: 'selfiePassed' } : { stage: 'started' };
    },
    enrollFace: (patientId, embedding, tx) => enrollFace(tx, patientId, embedding),
  };
}
