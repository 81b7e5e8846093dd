import type { AppContext } from '../context';
import { holdRegistrations, reopenRegistration } from '../onboarding/draft-case';
import { audit } from './audit';
import { expireCentreCases, purgeCase, SEALED } from './store';

export { SEALED } from './store';

type PurgeOutcome = { expired: number; purged: number };

/**
 * The cases' retention (issue 30): centro codes past their deadline expire (the registration stays
 * resumable for the resume window, to choose again); a case still open keeps its registration
 * alive (however long a review waits); every decided case's sealed data, the mobile and the code
 * are deleted CASES_RETENTION_DAYS after the decision. The row and the audit log stay; each purge
 * writes a 'purge' row naming the parts it deleted.
 */
export async function purgeCases(ctx: AppContext): Promise<PurgeOutcome> {
  const now = new Date(ctx.clock.now());
  const purgeAfter = new Date(now.getTime() + ctx.cases.retentionMs);
  const resumeUntil = new Date(now.getTime() + ctx.onboarding.registration.resumeMs);
  const expired = await ctx.db.transaction(async (tx) => {
    const rows = await expireCentreCases(tx, now, purgeAfter);
    for (const row of rows) {
      await audit(tx, { caseId: row.id, actor: null, action: 'expire', at: now });
      if (row.draft_id)
        await reopenRegistration(tx, { draftId: row.draft_id, now, until: resumeUntil });
    }
    // Open cases hold their registrations for as long as a case may wait from now.
    const open = await tx.query<{ draft_id: string }>(
      `SELECT DISTINCT draft_id::text AS draft_id FROM cases
        WHERE status = 'open' AND draft_id IS NOT NULL`,
    );
    await holdRegistrations(
      tx,
      open.rows.map((r) => r.draft_id),
      new Date(now.getTime() + ctx.cases.centreMs + ctx.onboarding.registration.resumeMs),
    );
    return rows.length;
  });
  const purged = await ctx.db.transaction(async (tx) => {
    const present = SEALED.map((p) => `(${p} IS NOT NULL) AS has_${p}`).join(', ');
    const { rows } = await tx.query<Record<string, unknown> & { id: string }>(
      `SELECT id::text AS id, ${present}, (celular IS NOT NULL) AS has_celular
         FROM cases WHERE purged_at IS NULL AND purge_after <= $1 FOR UPDATE`,
      [now],
    );
    for (const row of rows) {
      const deleted = [...SEALED, 'celular' as const].filter((p) => row[`has_${p}`] === true);
      await purgeCase(tx, row.id, now);
      await audit(tx, {
        caseId: row.id,
        actor: null,
        action: 'purge',
        detail: { deleted },
        at: now,
      });
    }
    return rows.length;
  });
  return { expired, purged };
}
