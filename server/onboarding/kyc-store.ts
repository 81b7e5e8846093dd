import type { IdentityReason } from '../../contract/identity';
import type { EngineReason } from '../../contract/insight';
import type { IdData } from '../../contract/onboarding';
import type { Db } from '../db/client';

/** A KYC session the server itself completed: the identity it read and the selfie's face embedding. */
export type CompletedKyc = { idData: IdData; embedding: ArrayLike<number> };

/**
 * The session's duplicate search (issue 44) has not finished within IDENTITY_DUPLICATE_WAIT_MS:
 * the registration waits for it (the patient tries again), it never goes on unchecked.
 */
export class DuplicateCheckWaiting extends Error {
  constructor() {
    super('face duplicate check still running');
    this.name = 'DuplicateCheckWaiting';
  }
}

/**
 * How far a KYC session got, for resuming a registration: a passed selfie and a read document
 * count only while the session is valid (its own expiry, IDENTITY_SESSION_MINUTES, and idle time,
 * IDENTITY_SESSION_IDLE_MINUTES) and unused; anything else starts the identity step again.
 */
export type KycProgress =
  { stage: 'started' } | { stage: 'selfiePassed' } | { stage: 'documentRead'; idData: IdData };

/**
 * What a KYC session captured for a person's review (issue 30), opened. Images are JPEG, one per
 * kind (a face ~256 KB at most, a side of the card 1 MB).
 */
export type KycEvidence = {
  /** the deciding frame (the selfie of a passed liveness, else the best face frame seen) */
  selfie: Buffer | null;
  /** the last front scanned */
  front: Buffer | null;
  /** the last back scanned */
  back: Buffer | null;
  /** the card's portrait as the engine cropped it from the straightened front */
  portrait: Buffer | null;
  /** the fields the last scan read (even when it refused: then as the MRZ gives them), null when none */
  idData: IdData | null;
  /**
   * The engine's refusals in this session, oldest first (the last 20; a repeat of the last one is
   * not added): the scans' codes (IdentityReason) and liveness' ('time_up', 'eyes_never_closed',
   * 'replay', 'frame_cap': EngineReason, journey insight's names).
   */
  reasons: Array<IdentityReason | EngineReason>;
  faceSimilarity: number | null;
  faceThreshold: number | null;
  /** liveness: requests decided (a poll of up to 8 frames each); scans: document scans run */
  attempts: { liveness: number; scans: number };
  selfieEmbedding: number[] | null;
  portraitEmbedding: number[] | null;
  /**
   * The liveness challenge's signals (issue 31), counts per signal: 'virtual_camera',
   * 'clock_backwards', 'clock_ahead', 'tag_mismatch'. Never verdicts; {} when none.
   */
  signals: Record<string, number>;
};

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
  /**
   * Duplicates at registration (issue 44 item 3), inside the registration transaction before the
   * patient is created: the enrolled patient whose face this is (exact search, at or above the
   * duplicate threshold), leaving out `exclude` (patients a supervisor decided this registration is
   * not); null when none. Two registrations of one face at once: the second finds the first.
   */
  duplicateOf(
    sessionId: string,
    embedding: ArrayLike<number>,
    exclude: readonly string[],
    tx: Db,
  ): Promise<{ patientId: string; similarity: number; threshold: number } | null>;
  /**
   * Before the registration transaction: the session's duplicate search has finished (waited for,
   * or run now), so duplicateOf reads only what was enrolled since it. Throws DuplicateCheckWaiting
   * past the wait (duplicateOf may throw it too). Absent: duplicateOf searches on its own.
   */
  settleDuplicates?(
    sessionId: string,
    embedding: ArrayLike<number>,
    exclude: readonly string[],
  ): Promise<void>;
  /** Whether `embedding` is this patient's enrolled face (at or above the duplicate threshold). */
  isEnrolledFace(patientId: string, embedding: ArrayLike<number>): Promise<boolean>;
  /** What the session captured, opened (null: unknown, purged). */
  evidenceOf(sessionId: string): Promise<KycEvidence | null>;
  /**
   * A case copied the session's evidence (sealed there), inside the case's transaction (issue 42,
   * L4): the session keeps no face description and no fields in plaintext, and ends.
   */
  evidenceCopied(sessionId: string, tx: Db): Promise<void>;
  /**
   * A new KYC session already past the selfie ('live'), for a repeat of one side of the card: the
   * face is `embedding`, the side not repeated is kept (`keep`) and used by scan-id when the
   * browser sends only the other side.
   */
  createLiveSession(
    input: {
      embedding: ArrayLike<number>;
      keep: { front?: Buffer; back?: Buffer };
      expiresAt: Date;
    },
    tx?: Db,
  ): Promise<string>;
  /**
   * A new completed session (decider 'operator'): an approved case's identity and face, kept
   * sealed, so register (getCompletedKyc/consumeKyc/enrollFace) works unchanged.
   */
  createVerifiedSession(
    input: { idData: IdData; embedding: ArrayLike<number>; expiresAt: Date },
    tx?: Db,
  ): Promise<string>;
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
