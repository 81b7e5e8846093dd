import type { Db } from '../db/client';

/** Who acted on a case (null: the patient or the server itself). */
export type AuditActor = { id: string; usuario: string } | null;

type AuditAction =
  | 'open'
  | 'view'
  | 'refused'
  | `image:${string}`
  | 'correct'
  | 'approve'
  | 'void'
  | 'reject'
  | 'repeat'
  | 'claim'
  | 'release'
  | 'lookup'
  | 'desk_photo'
  | 'expire'
  | 'purge';

/**
 * One row of the append-only record (case_audit). `detail` holds field names, reasons from the
 * lists and codes of the engine: never an image, never a field's value, never free text an operator
 * typed (a rejection's note and a correction's reason are sealed on the case).
 */
export async function audit(
  db: Db,
  entry: {
    caseId: string | null;
    actor: AuditActor;
    action: AuditAction;
    detail?: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO case_audit (case_id, operator_id, operator_usuario, action, detail, at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      entry.caseId,
      entry.actor?.id ?? null,
      entry.actor?.usuario ?? null,
      entry.action,
      JSON.stringify(entry.detail ?? {}),
      entry.at,
    ],
  );
}
