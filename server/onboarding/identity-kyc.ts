import type { Db } from '../db/client';
import {
  createLiveSession,
  createVerifiedSession,
  handOverEvidence,
  openVerified,
  readEvidence,
  type SessionEvidence,
} from '../identity/evidence';
import { DUPLICATE_FACE_THRESHOLD } from '../identity/config';
import type { DuplicateSearchConfig } from '../identity/config-duplicates';
import {
  duplicateAtRegistration,
  DuplicateCheckPending,
  enrolledSimilarity,
  settleDuplicateCheck,
} from '../identity/duplicates-face';
import { createFlatSearch, type FlatSearch } from '../identity/face-flat-search';
import { silentLog } from '../identity/log';
import { enrollFace, getCompletedKyc, sessionStage } from '../identity/store';
import type { Sealer } from '../security/sealed';
import { DuplicateCheckWaiting, toIdData, type KycEvidence, type KycStore } from './kyc-store';

/** The identity engine's DuplicateCheckPending as registration's own error. */
async function orWaiting<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw err instanceof DuplicateCheckPending ? new DuplicateCheckWaiting() : err;
  }
}

/**
 * Registration's (and the cases') view of the identity engine's KYC sessions (server/identity):
 * `sealer` opens and seals their evidence (the app's, over CASES_KEY); `duplicateFaceThreshold` is
 * IDENTITY_DUPLICATE_FACE_THRESHOLD (issue 44 item 3); `duplicates` the flat file's settings
 * (IDENTITY_DUPLICATE_*): with them, registration waits for the session's search before its
 * transaction, or runs one through the file (a flat search of its own, its worker started at its
 * first search only), and the transaction never reads every enrolment.
 */
export function identityKycStore(
  db: Db,
  sealer: Sealer,
  faces: { duplicateFaceThreshold: number; duplicates?: DuplicateSearchConfig } = {
    duplicateFaceThreshold: DUPLICATE_FACE_THRESHOLD,
  },
): KycStore {
  const flat = faces.duplicates?.mode === 'flat' ? faces.duplicates : null;
  let search: FlatSearch | null = null;
  /** In `tx` when given, else in a transaction of its own. */
  const within = <T>(tx: Db | undefined, fn: (db: Db) => Promise<T>) =>
    tx ? fn(tx) : db.transaction(fn);
  return {
    async getCompletedKyc(sessionId) {
      const kyc = await getCompletedKyc(db, sessionId);
      if (!kyc) return null;
      // A session an approval made keeps its identity and face sealed (issue 42, L4).
      const verified = openVerified(sealer, sessionId, kyc.sealed);
      return verified
        ? { idData: toIdData(verified.id_data), embedding: verified.embedding }
        : { idData: toIdData(kyc.idData), embedding: kyc.embedding };
    },
    async consumeKyc(sessionId, tx) {
      return (await getCompletedKyc(tx, sessionId, { consume: true })) !== null;
    },
    async progressOf(sessionId) {
      const stage = await sessionStage(db, sessionId);
      if (stage?.status === 'completed') {
        const verified = openVerified(sealer, sessionId, stage.sealed);
        return { stage: 'documentRead', idData: toIdData(verified?.id_data ?? stage.idData) };
      }
      return stage?.status === 'live' ? { stage: 'selfiePassed' } : { stage: 'started' };
    },
    enrollFace: (patientId, embedding, tx) => enrollFace(tx, patientId, embedding),
    duplicateOf: (sessionId, embedding, exclude, tx) =>
      orWaiting(
        duplicateAtRegistration(tx, sessionId, embedding, faces.duplicateFaceThreshold, exclude, {
          requireCheck: !!flat,
        }),
      ),
    settleDuplicates: faces.duplicates
      ? (sessionId, embedding, exclude) =>
          orWaiting(
            settleDuplicateCheck(db, sessionId, embedding, faces.duplicateFaceThreshold, {
              search: flat && (search ??= createFlatSearch({ config: flat, log: silentLog })),
              waitMs: faces.duplicates!.waitMs,
              exclude,
            }),
          )
      : undefined,
    async isEnrolledFace(patientId, embedding) {
      const similarity = await enrolledSimilarity(db, patientId, embedding);
      return similarity !== null && similarity >= faces.duplicateFaceThreshold;
    },
    async evidenceOf(sessionId) {
      const e = await readEvidence(db, sealer, sessionId);
      return e && toKycEvidence(e);
    },
    createLiveSession: (input, tx) => within(tx, (t) => createLiveSession(t, sealer, input)),
    createVerifiedSession: (input, tx) =>
      within(tx, (t) => createVerifiedSession(t, sealer, input)),
    evidenceCopied: (sessionId, tx) => handOverEvidence(tx, sessionId),
  };
}

/** The engine's evidence as the cases read it: the fields in the spec's shape. */
function toKycEvidence(e: SessionEvidence): KycEvidence {
  return {
    ...e,
    idData: e.idData && toIdData(e.idData),
    reasons: e.reasons as KycEvidence['reasons'],
  };
}
