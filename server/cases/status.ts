import type {
  CaseKind,
  CaseStatus,
  CaseStatusName,
  CaseStep,
  CaseTrigger,
  RejectReason,
} from '../../contract/cases';
import type { Db } from '../db/client';
import type { CaseReader } from '../onboarding/case-reader';

/** The columns of a case the patient's side reads (nothing sealed). */
export type CaseRow = {
  id: string;
  draft_id: string | null;
  kind: CaseKind;
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

/** The case as its patient sees it: no operator, no scores. */
export function toCaseStatus(row: CaseRow): CaseStatus {
  return {
    kind: row.kind,
    status: row.status,
    trigger: row.trigger,
    openedAt: new Date(row.opened_at).toISOString(),
    expectedBy: new Date(row.expected_by).toISOString(),
    ...(row.kind === 'centro' && row.code ? { code: row.code } : {}),
    ...(row.status === 'rejected' && row.reject_reason ? { rejectReason: row.reject_reason } : {}),
    ...(row.status === 'repeat' && row.repeat_step ? { repeatStep: row.repeat_step } : {}),
  };
}

/** Registration's port on cases (server/onboarding/case-reader.ts), over `db`. */
export function caseReader(db: Db): CaseReader {
  return {
    async latestOf(draftId) {
      const row = await latestCaseOf(db, draftId);
      return (
        row && { status: toCaseStatus(row), holds: { front: row.has_front, back: row.has_back } }
      );
    },
    hasOpen: (draftId) => hasOpenCase(db, draftId),
  };
}
