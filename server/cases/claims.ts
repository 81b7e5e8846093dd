import type { Db } from '../db/client';
import { audit } from './audit';

/**
 * A revoked operator's claims go back to the queue at once (issue 42 item 3), not after the
 * claim's idle time: called in the revocation's transaction (server/operators/accounts.ts). Each
 * release is audited ('release', cause 'revoked', with whose claim it was).
 */
export async function releaseClaimsOf(
  tx: Db,
  operator: { id: string; usuario: string },
  at: Date,
): Promise<number> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE cases SET claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
      WHERE status = 'open' AND claimed_by = $1
      RETURNING id::text AS id`,
    [operator.id],
  );
  for (const row of rows)
    await audit(tx, {
      caseId: row.id,
      actor: null,
      action: 'release',
      detail: { cause: 'revoked', operator: operator.usuario },
      at,
    });
  return rows.length;
}
