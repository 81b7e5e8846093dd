import type {
  CaseStatus,
  CaseStatusName,
  CaseStep,
  CaseTrigger,
  OperatorCaseKind,
  RejectReason,
} from '../../contract/cases';
import type { Db } from '../db/client';

/** The columns of a case the patient's side reads (nothing sealed). */
export type CaseRow = {
  id: string;
  draft_id: string | null;
  kind: OperatorCaseKind;
  status: CaseStatusName;
  trigger: CaseTrigger;
  step: CaseStep;
  opened_at: Date;
  expected_by: Date;
  code: string | null;
  claimed_by: string | null;
  reject_reason: RejectReason | null;
  repeat_step: CaseStep | null;
  /** the case holds the card's front, its back (what a repeat of the other side keeps) */
  has_front: boolean;
  has_back: boolean;
};

export const CASE_ROW_COLUMNS = `c.id::text AS id, c.draft_id::text AS draft_id, c.kind, c.status,
  c.trigger, c.step, c.opened_at, c.expected_by, c.code, c.claimed_by, c.reject_reason, c.repeat_step,
  c.front IS NOT NULL AS has_front, c.back IS NOT NULL AS has_back`;

/** The registration's newest case, or null. */
export async function latestCaseOf(db: Db, draftId: string): Promise<CaseRow | null> {
  const { rows } = await db.query<CaseRow>(
    `SELECT ${CASE_ROW_COLUMNS} FROM cases c WHERE c.draft_id = $1
      ORDER BY c.opened_at DESC, c.id DESC LIMIT 1`,
    [draftId],
  );
  return rows[0] ?? null;
}

/** Whether the registration has a case waiting for a decision (registering is refused then). */
export async function hasOpenCase(db: Db, draftId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM cases WHERE draft_id = $1 AND status = 'open'`, [
    draftId,
  ]);
  return rows.length > 0;
}

/**
 * The case as its patient sees it: no operator, no scores. A 'duplicate' case is a person's review
 * to its patient (issue 44 item 3): nothing says another patient's face was found.
 */
export function toCaseStatus(row: CaseRow): CaseStatus {
  return {
    // A 'correction' (issue 45 item 5) names no registration: it is never read here.
    kind: row.kind === 'duplicate' || row.kind === 'correction' ? 'review' : row.kind,
    status: row.status,
    // What the patient was stuck on: nothing, a person checks their registration.
    trigger: row.kind === 'duplicate' ? 'patient_choice' : row.trigger,
    openedAt: new Date(row.opened_at).toISOString(),
    expectedBy: new Date(row.expected_by).toISOString(),
    ...(row.kind === 'centro' && row.code ? { code: row.code } : {}),
    ...(row.status === 'rejected' && row.reject_reason ? { rejectReason: row.reject_reason } : {}),
    ...(row.status === 'repeat' && row.repeat_step ? { repeatStep: row.repeat_step } : {}),
  };
}

/** The enrolled patients a supervisor decided this registration is not (approved duplicates). */
export async function approvedDuplicatesOf(db: Db, draftId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT duplicate_of::text AS id FROM cases
      WHERE draft_id = $1 AND kind = 'duplicate' AND status = 'approved' AND duplicate_of IS NOT NULL`,
    [draftId],
  );
  return rows.map((r) => r.id);
}
