import type { IdData } from '../../contract/onboarding';
import type { Db } from '../db/client';

/** A KYC session the server itself completed: the identity it read and the selfie's face embedding. */
export type CompletedKyc = { idData: IdData; embedding: ArrayLike<number> };

/**
 * What registration needs from the identity engine (server/identity). The register service
 * receives it as a parameter; the app wires the identity engine's implementation.
 */
export interface KycStore {
  /** The completed session's stored result, or null (unknown, unfinished, rejected or expired). */
  getCompletedKyc(sessionId: string): Promise<CompletedKyc | null>;
  /** Stores the patient's face embedding inside the registration transaction. */
  enrollFace(patientId: string, embedding: ArrayLike<number>, tx: Db): Promise<void>;
}
