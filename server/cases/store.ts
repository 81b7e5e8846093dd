import type {
  CaseStatusName,
  CaseStep,
  CaseTrigger,
  OperatorCaseKind,
  RejectReason,
} from '../../contract/cases';
import type { Db } from '../db/client';
import { CASE_ROW_COLUMNS, type CaseRow } from './status';

/**
 * The one writer of `cases` (tests/server/table-writers.test.ts): every statement that inserts,
 * changes or purges a case lives here, and the patient's side (patient.ts), the operators' claims,
 * corrections, decisions and desk photo, four-eyes (approval.ts) and the retention job call it.
 * It writes rows only: sealing is the caller's (seal.ts), and so is the audit row (audit.ts), in
 * the same transaction.
 */

/** The sealed parts the purge deletes (and the mobile and code kept for the SMS and look-ups). */
export const SEALED = [
  'selfie',
  'portrait',
  'front',
  'back',
  'desk',
  'fields',
  'corrections',
  'selfie_embedding',
  'portrait_embedding',
  'desk_embedding',
  'reject_note',
  'patient_claim',
  'duplicate',
] as const;

type SealedPart = (typeof SEALED)[number];
type Claimer = { id: string; usuario: string };
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

/** A new open case, its parts already sealed (patient.ts's openCase). */
export type NewCase = {
  id: string;
  draftId: string | null; // null: a 'correction' (issue 45 item 5), a registered patient's
  /** the registration's mobile for the decision's SMS; null: a 'correction' sends none */
  celular: string | null;
  kind: OperatorCaseKind;
  trigger: CaseTrigger;
  step: CaseStep;
  sessionId: string | null;
  openedAt: Date;
  expectedBy: Date;
  code: string | null;
  sealed: Record<
    Exclude<SealedPart, 'desk' | 'corrections' | 'desk_embedding' | 'reject_note' | 'duplicate'>,
    Buffer | null
  >;
  /**
   * A 'duplicate' case (issue 44 item 3): the enrolled patient, the exact similarity, the threshold
   * and what the supervisor reads of that patient, sealed.
   */
  duplicate?: {
    patientId: string;
    similarity: number;
    threshold: number;
    sealed: Buffer | null;
  };
  /** A 'correction' (issue 45 item 5): the patient, the field, the asked value as corrections */
  correction?: { patientId: string; field: string; corrections: Buffer | null };
  engine: {
    reasons: readonly string[];
    faceSimilarity: number | null;
    faceThreshold: number | null;
    attempts: { liveness: number; scans: number };
    signals: Record<string, number>;
  };
};

export async function insertCase(tx: Db, c: NewCase): Promise<CaseRow> {
  const { rows } = await tx.query<CaseRow>(
    `INSERT INTO cases AS c (id, draft_id, celular, kind, status, trigger, step, kyc_session_id,
       opened_at, expected_by, code, code_expires_at, selfie, portrait, front, back, fields,
       selfie_embedding, portrait_embedding, engine_reasons, face_similarity, face_threshold,
       attempts_liveness, attempts_scans, engine_signals, patient_claim, duplicate_of,
       duplicate_similarity, duplicate_threshold, duplicate, patient_id, correction_field,
       corrections)
     VALUES ($1, $2, $3, $4, 'open', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
       $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32)
     RETURNING ${CASE_ROW_COLUMNS}`,
    [
      c.id,
      c.draftId,
      c.celular,
      c.kind,
      c.trigger,
      c.step,
      c.sessionId,
      c.openedAt,
      c.expectedBy,
      c.code,
      c.code ? c.expectedBy : null,
      c.sealed.selfie,
      c.sealed.portrait,
      c.sealed.front,
      c.sealed.back,
      c.sealed.fields,
      c.sealed.selfie_embedding,
      c.sealed.portrait_embedding,
      JSON.stringify(c.engine.reasons),
      c.engine.faceSimilarity,
      c.engine.faceThreshold,
      c.engine.attempts.liveness,
      c.engine.attempts.scans,
      JSON.stringify(c.engine.signals),
      c.sealed.patient_claim,
      c.duplicate?.patientId ?? null,
      c.duplicate?.similarity ?? null,
      c.duplicate?.threshold ?? null,
      c.duplicate?.sealed ?? null,
      c.correction?.patientId ?? null,
      c.correction?.field ?? null,
      c.correction?.corrections ?? null,
    ],
  );
  return rows[0]!;
}

/**
 * An open review case becomes a centro case with `code` until `expires`, only while nobody holds
 * it (or the claim went idle before `idleCutoff`) or approved it; null when it may not.
 */
export async function makeCentreCase(
  tx: Db,
  c: { id: string; code: string; expires: Date; idleCutoff: Date },
): Promise<CaseRow | null> {
  const { rows } = await tx.query<CaseRow>(
    `UPDATE cases c SET kind = 'centro', code = $2, code_expires_at = $3, expected_by = $3,
            claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
      WHERE c.id = $1 AND c.status = 'open' AND c.kind = 'review' AND NOT c.needs_supervisor
        AND (c.claimed_by IS NULL OR c.last_activity_at < $4)
      RETURNING ${CASE_ROW_COLUMNS}`,
    [c.id, c.code, c.expires, c.idleCutoff],
  );
  return rows[0] ?? null;
}

/** An operator is still at the case: its claim's idle time starts again. */
export async function touchClaim(db: Db, caseId: string, now: Date): Promise<void> {
  await db.query('UPDATE cases SET last_activity_at = $2 WHERE id = $1', [caseId, now]);
}

/** The open case `operatorId` holds (its claim not idle since `cutoff`), touched; null: none. */
export async function touchHeldCase(
  tx: Db,
  operatorId: string,
  cutoff: Date,
  now: Date,
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE cases SET last_activity_at = $3
      WHERE id = (SELECT id FROM cases WHERE status = 'open' AND claimed_by = $1
                     AND last_activity_at >= $2 ORDER BY claimed_at LIMIT 1)
      RETURNING id::text AS id`,
    [operatorId, cutoff, now],
  );
  return rows[0]?.id ?? null;
}

/**
 * Claims the oldest open review case nobody holds (or whose claim went idle before `cutoff`) that
 * this operator may decide, in one statement (FOR UPDATE SKIP LOCKED); null: none. A 'duplicate'
 * case (issue 44 item 3) is a supervisor's only; a 'correction' (issue 45 item 5) anyone's.
 */
export async function claimOldest(
  tx: Db,
  op: Claimer & { supervisor: boolean },
  cutoff: Date,
  now: Date,
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE cases SET claimed_by = $1, claimed_usuario = $2, claimed_at = $3, last_activity_at = $3
      WHERE id = (
        SELECT id FROM cases
         WHERE status = 'open' AND (kind IN ('review', 'correction') OR (kind = 'duplicate' AND $5))
           AND (claimed_by IS NULL OR last_activity_at < $4)
           AND (NOT needs_supervisor OR ($5 AND NOT approvals @> $6::jsonb))
         ORDER BY opened_at, id LIMIT 1
         FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id`,
    [op.id, op.usuario, now, cutoff, op.supervisor, JSON.stringify([{ operatorId: op.id }])],
  );
  return rows[0]?.id ?? null;
}

/** This operator claims the case (a centro case found by its code). */
export async function claimCase(tx: Db, caseId: string, op: Claimer, now: Date): Promise<void> {
  await tx.query(
    `UPDATE cases SET claimed_by = $2, claimed_usuario = $3, claimed_at = $4, last_activity_at = $4
      WHERE id = $1`,
    [caseId, op.id, op.usuario, now],
  );
}

/** The case's claim returns to the queue. */
export async function releaseClaim(tx: Db, caseId: string): Promise<void> {
  await tx.query(
    'UPDATE cases SET claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL WHERE id = $1',
    [caseId],
  );
}

/** Every open case `operatorId` holds returns to the queue; the cases released. */
export async function releaseClaimsBy(tx: Db, operatorId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE cases SET claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
      WHERE status = 'open' AND claimed_by = $1
      RETURNING id::text AS id`,
    [operatorId],
  );
  return ids(rows);
}

/** The case's corrections, sealed. */
export async function setCorrections(tx: Db, caseId: string, sealed: Buffer | null) {
  await tx.query('UPDATE cases SET corrections = $2 WHERE id = $1', [caseId, sealed]);
}

/** The desk photo, its face's description (both sealed) and its similarity to the portrait. */
export async function setDeskPhoto(
  tx: Db,
  caseId: string,
  desk: { jpeg: Buffer | null; embedding: Buffer | null; similarity: number | null },
): Promise<void> {
  await tx.query(
    'UPDATE cases SET desk = $2, desk_embedding = $3, desk_similarity = $4 WHERE id = $1',
    [caseId, desk.jpeg, desk.embedding, desk.similarity],
  );
}

/** The case's approvals (jsonb); `awaitSupervisor`: a first of two, the claim let go for a supervisor. */
export async function setApprovals(
  tx: Db,
  caseId: string,
  approvals: readonly object[],
  awaitSupervisor = false,
): Promise<void> {
  if (awaitSupervisor)
    await tx.query(
      `UPDATE cases SET approvals = $2, needs_supervisor = true,
              claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
        WHERE id = $1`,
      [caseId, JSON.stringify(approvals)],
    );
  else
    await tx.query('UPDATE cases SET approvals = $2 WHERE id = $1', [
      caseId,
      JSON.stringify(approvals),
    ]);
}

/** The approvals given are void: none, and no supervisor awaited. */
export async function clearApprovals(tx: Db, caseId: string): Promise<void> {
  await tx.query(`UPDATE cases SET approvals = '[]', needs_supervisor = false WHERE id = $1`, [
    caseId,
  ]);
}

/** The case is decided (its claim let go): by whom, when, how, and when its data is purged. */
export async function finishCase(
  tx: Db,
  caseId: string,
  d: {
    status: CaseStatusName;
    at: Date;
    by: string;
    rejectReason?: RejectReason | undefined;
    repeatStep?: CaseStep | undefined;
    session?: string | null | undefined;
    purgeAfter: Date;
  },
): Promise<void> {
  await tx.query(
    `UPDATE cases SET status = $2, decided_at = $3, decided_by = $4, reject_reason = $5,
            repeat_step = $6, decision_session_id = $7, purge_after = $8,
            claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
      WHERE id = $1`,
    [
      caseId,
      d.status,
      d.at,
      d.by,
      d.rejectReason ?? null,
      d.repeatStep ?? null,
      d.session ?? null,
      d.purgeAfter,
    ],
  );
}

/** A rejection's note, sealed. */
export async function setRejectNote(tx: Db, caseId: string, sealed: Buffer | null) {
  await tx.query('UPDATE cases SET reject_note = $2 WHERE id = $1', [caseId, sealed]);
}

/** Open centro cases past their code's deadline expire; the cases and their registrations. */
export async function expireCentreCases(
  tx: Db,
  now: Date,
  purgeAfter: Date,
): Promise<Array<{ id: string; draft_id: string | null }>> {
  const { rows } = await tx.query<{ id: string; draft_id: string | null }>(
    `UPDATE cases SET status = 'expired', decided_at = $1, purge_after = $2,
            claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
      WHERE status = 'open' AND kind = 'centro' AND code_expires_at <= $1
      RETURNING id::text AS id, draft_id::text AS draft_id`,
    [now, purgeAfter],
  );
  return rows;
}

/** The case's sealed parts, mobile and code are deleted; the row stays, purged at `now`. */
export async function purgeCase(tx: Db, caseId: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE cases SET ${SEALED.map((p) => `${p} = NULL`).join(', ')}, celular = NULL,
            code = NULL, purged_at = $2
      WHERE id = $1`,
    [caseId, now],
  );
}

/**
 * 'Eliminar mi cuenta' (issue 45 item 6), inside the deletion job's transaction: the cases of the
 * patient's registration and the corrections they asked (item 5; images, fields, mobile: the whole row; the audit log stays, naming a case
 * that no longer exists), and another registrant's possible-duplicate case loses the patient's
 * id and sealed record. Returns how many cases were deleted.
 */
export async function eraseCasesOf(
  tx: Db,
  of: { patientId: string; kycSessions: string[]; drafts: string[] },
): Promise<number> {
  const { rows } = await tx.query(
    `DELETE FROM cases WHERE kyc_session_id = ANY($1::text[]) OR decision_session_id = ANY($1::text[])
        OR draft_id = ANY($2::uuid[]) OR patient_id = $3 RETURNING 1`,
    [of.kycSessions, of.drafts, of.patientId],
  );
  await tx.query('UPDATE cases SET duplicate_of = NULL, duplicate = NULL WHERE duplicate_of = $1', [
    of.patientId,
  ]);
  return rows.length;
}
