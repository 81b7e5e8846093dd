import type { SecondaryUseResponse } from '../../contract/my-data-download';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { recordAccess } from './access-log';

/**
 * Secondary uses (issue 45 item 7): the patient's opt-out of any use of their data beyond their
 * own care, the one writer of `patient_secondary_use`. No row: not opted out. Whatever the service
 * adds later that reads patient data for anything else reads through the view
 * `secondary_use_allowed` (migration 036; tests/server/secondary-use-readers.test.ts holds it).
 */
export async function readSecondaryUse(
  db: Db,
  patientId: string,
): Promise<Omit<SecondaryUseResponse, 'success'>> {
  const row = (
    await db.query<{ opted_out: boolean; changed_at: Date }>(
      'SELECT opted_out, changed_at FROM patient_secondary_use WHERE patient_id = $1',
      [patientId],
    )
  ).rows[0];
  return {
    optedOut: row?.opted_out ?? false,
    changedAt: row ? new Date(row.changed_at).toISOString() : null,
  };
}

/**
 * Sets the choice; a change is logged once as 'secondary_use' (the same choice again changes and
 * logs nothing, two at once change it once: the upsert's condition decides).
 */
export async function setSecondaryUse(
  ctx: AppContext,
  patientId: string,
  optedOut: boolean,
): Promise<SecondaryUseResponse> {
  const at = new Date(ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `INSERT INTO patient_secondary_use (patient_id, opted_out, changed_at)
       SELECT $1, $2, $3
        WHERE $2 OR EXISTS (SELECT 1 FROM patient_secondary_use WHERE patient_id = $1)
       ON CONFLICT (patient_id) DO UPDATE SET opted_out = EXCLUDED.opted_out, changed_at = EXCLUDED.changed_at
        WHERE patient_secondary_use.opted_out <> EXCLUDED.opted_out
       RETURNING 1`,
      [patientId, optedOut, at],
    );
    if (rows.length) await recordAccess(tx, { patientId, kind: 'secondary_use', result: 'ok', at });
  });
  return { success: true, ...(await readSecondaryUse(ctx.db, patientId)) };
}
