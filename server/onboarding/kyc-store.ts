import type { IdData } from '../../contract/onboarding';
import type { Db } from '../db/client';

/** A KYC session the server itself completed: the identity it read and the selfie's face embedding. */
export type CompletedKyc = { idData: IdData; embedding: ArrayLike<number> };

/**
 * How far a KYC session got, for resuming a registration: a passed selfie and a read document
 * count only while the session is valid (its own expiry, IDENTITY_SESSION_MINUTES, and idle time,
 * IDENTITY_SESSION_IDLE_MINUTES) and unused; anything else starts the identity step again.
 */
export type KycProgress =
  { stage: 'started' } | { stage: 'selfiePassed' } | { stage: 'documentRead'; idData: IdData };

/**
 * What registration needs from the identity engine (server/identity). The register service
 * receives it as a parameter; the app wires the identity engine's implementation.
 */
export interface KycStore {
  /** The completed, unused session's stored result, or null (unknown, unfinished, rejected, expired, used). */
  getCompletedKyc(sessionId: string): Promise<CompletedKyc | null>;
  /**
   * Marks the session used inside the registration transaction, so one verification registers one
   * patient; false when it is no longer completed and unused (a concurrent registration took it).
   */
  consumeKyc(sessionId: string, tx: Db): Promise<boolean>;
  /** How far the session got (a lost page resumes after its last valid step). */
  progressOf(sessionId: string): Promise<KycProgress>;
  /** Stores the patient's face embedding inside the registration transaction. */
  enrollFace(patientId: string, embedding: ArrayLike<number>, tx: Db): Promise<void>;
}

/** The identity engine's id_data as stored (loosely typed there) to the spec's fields. */
export function toIdData(raw: Record<string, unknown>): IdData {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v == null ? '' : String(v));
  return {
    FullName: text(raw.FullName),
    DocumentNumber: text(raw.DocumentNumber),
    DateOfBirth: text(raw.DateOfBirth),
    Gender: text(raw.Gender),
    Nationality: text(raw.Nationality),
    MaritalStatus: text(raw.MaritalStatus),
  };
}
