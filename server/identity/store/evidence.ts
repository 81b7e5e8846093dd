import type { Db } from '../../db/client';

/**
 * `kyc_evidence` (issue 30): every read and write of the table is here. One row per KYC session,
 * deleted with it (ON DELETE CASCADE). Images and fields arrive sealed (../evidence.ts seals and
 * opens them); this module only stores bytes.
 */

/** The refusal codes kept per session: the last ones. */
export const MAX_EVIDENCE_REASONS = 20;

export type EvidenceRow = {
  selfie: Uint8Array | null;
  front: Uint8Array | null;
  back: Uint8Array | null;
  portrait: Uint8Array | null;
  id_data: Uint8Array | null;
  reasons: string[] | null;
  face_similarity: number | null;
  face_threshold: number | null;
  liveness_attempts: number | null;
  scans: number | null;
  selfie_embedding: number[] | null;
  portrait_embedding: number[] | null;
  keep_front: boolean | null;
  keep_back: boolean | null;
  signals: Record<string, number> | string | null;
};

/**
 * `reasons` with the code in parameter `p` appended (none when null or equal to the last one),
 * keeping the last MAX_EVIDENCE_REASONS.
 */
const appendReason = (p: string) =>
  `CASE WHEN ${p}::text IS NULL OR kyc_evidence.reasons[cardinality(kyc_evidence.reasons)] = ${p}::text
        THEN kyc_evidence.reasons
        ELSE (kyc_evidence.reasons || ${p}::text)[greatest(1, cardinality(kyc_evidence.reasons) + 2 - ${MAX_EVIDENCE_REASONS}):]
   END`;
const firstReason = (p: string) =>
  `CASE WHEN ${p}::text IS NULL THEN '{}'::text[] ELSE ARRAY[${p}::text] END`;

/** What one liveness request leaves in the evidence. */
export type LivenessEvidence = {
  /** A frame to keep as the selfie (sealed), its rank and, for a described frame, its description. */
  selfie: { sealed: Uint8Array; rank: number; embedding: number[] | null } | null;
  /** A refusal code of the request (time up, replay, the frame cap), or null. */
  reason: string | null;
  /** The request was decided (counts as a liveness attempt). */
  attempt: boolean;
  /** The session's challenge signals so far (issue 31: counts per signal), or null to keep the stored ones. */
  signals?: Record<string, number> | null;
};

/**
 * Saves a liveness request's evidence. The selfie is replaced by a frame of rank >= 2 (the
 * decider's best frame so far, which it already judged better) or of a higher rank than the kept one.
 */
export async function saveLivenessEvidence(
  db: Db,
  sessionId: string,
  e: LivenessEvidence,
): Promise<void> {
  const replace = `($2::bytea IS NOT NULL AND ($3::real >= 2 OR kyc_evidence.selfie_rank IS NULL
                    OR $3::real > kyc_evidence.selfie_rank))`;
  await db.query(
    `INSERT INTO kyc_evidence (session_id, selfie, selfie_rank, selfie_embedding, reasons, liveness_attempts, signals)
     VALUES ($1, $2::bytea, $3::real, $4::real[], ${firstReason('$5')}, $6, COALESCE($7::jsonb, '{}'::jsonb))
     ON CONFLICT (session_id) DO UPDATE SET
       selfie = CASE WHEN ${replace} THEN $2::bytea ELSE kyc_evidence.selfie END,
       selfie_rank = CASE WHEN ${replace} THEN $3::real ELSE kyc_evidence.selfie_rank END,
       selfie_embedding = COALESCE(CASE WHEN ${replace} THEN $4::real[] END, kyc_evidence.selfie_embedding),
       reasons = ${appendReason('$5')},
       liveness_attempts = kyc_evidence.liveness_attempts + $6,
       signals = COALESCE($7::jsonb, kyc_evidence.signals),
       updated_at = now()`,
    [
      sessionId,
      e.selfie?.sealed ?? null,
      e.selfie?.rank ?? null,
      e.selfie?.embedding ?? null,
      e.reason,
      e.attempt ? 1 : 0,
      e.signals ? JSON.stringify(e.signals) : null,
    ],
  );
}

/** What one document scan leaves in the evidence (images and fields sealed). */
export type ScanEvidence = {
  front: Uint8Array | null;
  back: Uint8Array | null;
  portrait: Uint8Array | null;
  idData: Uint8Array | null;
  reason: string | null;
  similarity: number | null;
  threshold: number;
  selfieEmbedding: number[] | null;
  portraitEmbedding: number[] | null;
};

/**
 * Saves a scan's evidence: the front and what was found on it (portrait, similarity) replace the
 * last scan's; a back and fields read replace the last ones only when this scan has them.
 */
export async function saveScanEvidence(db: Db, sessionId: string, e: ScanEvidence): Promise<void> {
  await db.query(
    `INSERT INTO kyc_evidence (session_id, front, back, portrait, id_data, reasons, face_similarity,
                               face_threshold, selfie_embedding, portrait_embedding, scans)
     VALUES ($1, $2::bytea, $3::bytea, $4::bytea, $5::bytea, ${firstReason('$6')}, $7::real, $8::real,
             $9::real[], $10::real[], 1)
     ON CONFLICT (session_id) DO UPDATE SET
       front = COALESCE($2::bytea, kyc_evidence.front),
       back = COALESCE($3::bytea, kyc_evidence.back),
       portrait = $4::bytea,
       id_data = COALESCE($5::bytea, kyc_evidence.id_data),
       reasons = ${appendReason('$6')},
       face_similarity = $7::real,
       face_threshold = $8::real,
       selfie_embedding = COALESCE($9::real[], kyc_evidence.selfie_embedding),
       portrait_embedding = $10::real[],
       scans = kyc_evidence.scans + 1,
       updated_at = now()`,
    [
      sessionId,
      e.front,
      e.back,
      e.portrait,
      e.idData,
      e.reason,
      e.similarity,
      e.threshold,
      e.selfieEmbedding,
      e.portraitEmbedding,
    ],
  );
}

/** The side(s) a session made for a repeat keeps (sealed), with the flags that say so. */
export async function insertKeptSides(
  db: Db,
  sessionId: string,
  kept: { front: Uint8Array | null; back: Uint8Array | null },
  selfieEmbedding: number[],
): Promise<void> {
  await db.query(
    `INSERT INTO kyc_evidence (session_id, front, back, keep_front, keep_back, selfie_embedding)
     VALUES ($1, $2::bytea, $3::bytea, $2::bytea IS NOT NULL, $3::bytea IS NOT NULL, $4::real[])`,
    [sessionId, kept.front, kept.back, selfieEmbedding],
  );
}

/**
 * A case copied the session's evidence (issue 42, L4): the faces' descriptions, the only plaintext
 * personal data of the row (images and fields are sealed), leave it.
 */
export async function forgetEvidenceFaces(db: Db, sessionId: string): Promise<void> {
  await db.query(
    `UPDATE kyc_evidence SET selfie_embedding = NULL, portrait_embedding = NULL, updated_at = now()
      WHERE session_id = $1`,
    [sessionId],
  );
}

/** The sides a session keeps for a scan that sends only the other one (sealed), none by default. */
export async function keptSides(
  db: Db,
  sessionId: string,
): Promise<{ front: Uint8Array | null; back: Uint8Array | null }> {
  const { rows } = await db.query<{ front: Uint8Array | null; back: Uint8Array | null }>(
    `SELECT CASE WHEN keep_front THEN front END AS front, CASE WHEN keep_back THEN back END AS back
       FROM kyc_evidence WHERE session_id = $1`,
    [sessionId],
  );
  return rows[0] ?? { front: null, back: null };
}

/**
 * A session's evidence row (sealed), with the session's own selfie description; null when the
 * session is unknown (or purged). A session that captured nothing has a row of nulls.
 */
export async function loadEvidence(
  db: Db,
  sessionId: string,
): Promise<(EvidenceRow & { session_selfie: number[] | null }) | null> {
  const { rows } = await db.query<EvidenceRow & { session_selfie: number[] | null }>(
    `SELECT s.selfie_embedding AS session_selfie, e.selfie, e.front, e.back, e.portrait, e.id_data,
            e.reasons, e.face_similarity, e.face_threshold, e.liveness_attempts, e.scans,
            e.selfie_embedding, e.portrait_embedding, e.keep_front, e.keep_back, e.signals
       FROM kyc_sessions s LEFT JOIN kyc_evidence e ON e.session_id = s.id
      WHERE s.id = $1`,
    [sessionId],
  );
  return rows[0] ?? null;
}
