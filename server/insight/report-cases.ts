import type { Db } from '../db/client';

/**
 * The assisted path in the journey-insight report (issue 30), from `cases` and `case_audit` (no
 * personal data: triggers, kinds, outcomes, times and operators' user names): the cases opened in
 * the range by trigger and kind, their outcomes, the time from opening to decision (p50/p90),
 * the automatic refusals a person approved, and the looks per operator in the range (every view,
 * image, look-up and claim is a row of the audit log).
 */
export type AssistedReport = {
  opened: number;
  byTrigger: Array<{ trigger: string; kind: string; count: number }>;
  outcomes: Array<{ status: string; count: number }>;
  /** opening to decision, ms (cases opened in the range and decided), null: none decided */
  decision: { n: number; median: number | null; p90: number | null };
  /** approved cases the engine had refused (a trigger other than the patient's own choice) */
  refusalsApproved: Array<{ trigger: string; count: number }>;
  looks: Array<{
    operator: string;
    cases: number;
    views: number;
    images: number;
    lookups: number;
    missedLookups: number;
  }>;
};

/** Spanish names of the triggers (the report's tables). */
export const TRIGGER_LABELS: Record<string, string> = {
  patient_choice: 'Eligió no completar el paso',
  liveness_failed: 'Prueba de vida no superada',
  document_unreadable: 'Cédula ilegible',
  no_face_on_document: 'Sin rostro en la cédula',
  face_mismatch: 'Rostros distintos',
  document_mismatch: 'Frente y dorso de cédulas distintas',
  no_camera: 'Sin cámara',
};
export const CASE_KIND_LABELS: Record<string, string> = {
  review: 'Revisión por una persona',
  centro: 'Centro de salud',
};
export const CASE_STATUS_LABELS: Record<string, string> = {
  open: 'Abiertos',
  approved: 'Aprobados',
  rejected: 'Rechazados',
  repeat: 'Repetir un paso',
  expired: 'Código vencido',
};

export async function assistedReport(db: Db, from: Date, to: Date): Promise<AssistedReport> {
  const range = [from, to];
  const opened = 'opened_at >= $1 AND opened_at < $2';
  const [byTrigger, outcomes, decision, approved, looks] = await Promise.all([
    db.query<{ trigger: string; kind: string; count: number }>(
      `SELECT trigger, kind, count(*)::int AS count FROM cases WHERE ${opened}
        GROUP BY trigger, kind ORDER BY count DESC, trigger, kind`,
      range,
    ),
    db.query<{ status: string; count: number }>(
      `SELECT status, count(*)::int AS count FROM cases WHERE ${opened}
        GROUP BY status ORDER BY count DESC, status`,
      range,
    ),
    db.query<{ n: number; q: number[] | null }>(
      `SELECT count(*)::int AS n,
              percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (
                ORDER BY extract(epoch FROM decided_at - opened_at) * 1000) AS q
         FROM cases WHERE ${opened} AND decided_at IS NOT NULL AND status <> 'expired'`,
      range,
    ),
    db.query<{ trigger: string; count: number }>(
      `SELECT trigger, count(*)::int AS count FROM cases
        WHERE ${opened} AND status = 'approved' AND trigger <> 'patient_choice'
        GROUP BY trigger ORDER BY count DESC, trigger`,
      range,
    ),
    db.query<AssistedReport['looks'][number]>(
      `SELECT operator_usuario AS operator,
              count(DISTINCT case_id)::int AS cases,
              count(*) FILTER (WHERE action = 'view')::int AS views,
              count(*) FILTER (WHERE action LIKE 'image:%')::int AS images,
              count(*) FILTER (WHERE action = 'lookup')::int AS lookups,
              count(*) FILTER (WHERE action = 'lookup' AND case_id IS NULL)::int AS "missedLookups"
         FROM case_audit
        WHERE at >= $1 AND at < $2 AND operator_usuario IS NOT NULL
        GROUP BY operator_usuario ORDER BY views DESC, operator_usuario`,
      range,
    ),
  ]);
  const q = decision.rows[0]?.q;
  return {
    opened: byTrigger.rows.reduce((n, r) => n + r.count, 0),
    byTrigger: byTrigger.rows,
    outcomes: outcomes.rows,
    decision: {
      n: decision.rows[0]?.n ?? 0,
      median: q ? Math.round(Number(q[0])) : null,
      p90: q ? Math.round(Number(q[1])) : null,
    },
    refusalsApproved: approved.rows,
    looks: looks.rows,
  };
}
