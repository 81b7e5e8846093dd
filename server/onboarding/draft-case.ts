import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { sendLogged } from '../sms/send-log';
import { insertToken, linkUrl, tokenHash } from './drafts';

/**
 * What assisted verification (server/cases) does to a registration: a case holds it alive, a
 * decision reopens it and sends its link, and a new case reads the KYC sessions it had before.
 * server/cases calls these (cases -> onboarding); registration reads its case through
 * case-reader.ts.
 */

/**
 * A case keeps its registration alive (issue 30): the registrations and their devices' tokens live
 * at least until `until` (never shortened). Inside the case's transaction, or the retention job's.
 */
export async function holdRegistrations(tx: Db, draftIds: string[], until: Date): Promise<void> {
  if (!draftIds.length) return;
  await tx.query(
    'UPDATE registration_drafts SET expires_at = GREATEST(expires_at, $2) WHERE id = ANY($1::uuid[])',
    [draftIds, until],
  );
  await tx.query(
    `UPDATE registration_tokens SET expires_at = GREATEST(expires_at, $2)
      WHERE draft_id = ANY($1::uuid[]) AND kind = 'device'`,
    [draftIds, until],
  );
}

/**
 * A case was decided: the registration (and its devices) stay resumable for the resume window from
 * now, and continue with `kycSessionId` (a verified or live session the decision created; null: the
 * selfie again; undefined: unchanged). Inside the decision's transaction.
 */
export async function reopenRegistration(
  tx: Db,
  input: { draftId: string; now: Date; until: Date; kycSessionId?: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE registration_drafts SET expires_at = $2, updated_at = $3,
            kyc_session_id = CASE WHEN $4 THEN $5 ELSE kyc_session_id END
      WHERE id = $1`,
    [
      input.draftId,
      input.until,
      input.now,
      input.kycSessionId !== undefined,
      input.kycSessionId ?? null,
    ],
  );
  await tx.query(
    `UPDATE registration_tokens SET expires_at = $2 WHERE draft_id = $1 AND kind = 'device'`,
    [input.draftId, input.until],
  );
}

/**
 * After a case's decision: an SMS to the registration's mobile with a one-time registration link
 * (valid as long as the registration), without personal data. False when the gateway refused it.
 */
export async function sendDecisionLink(
  ctx: AppContext,
  input: { draftId: string; origin: string; clientIp: string; text: (link: string) => string },
): Promise<boolean> {
  const { rows } = await ctx.db.query<{ celular: string; expires_at: Date }>(
    'SELECT celular, expires_at FROM registration_drafts WHERE id = $1 AND completed_at IS NULL',
    [input.draftId],
  );
  const draft = rows[0];
  if (!draft) return false;
  const now = new Date(ctx.clock.now());
  const token = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM registration_tokens WHERE draft_id = $1 AND kind = 'link' AND used_at IS NULL`,
      [input.draftId],
    );
    return insertToken(tx, input.draftId, 'link', now, new Date(draft.expires_at));
  });
  const link = linkUrl(ctx.onboarding.registration.publicUrl ?? input.origin, token);
  const delivery = await sendLogged(
    ctx,
    { to: draft.celular, purpose: 'case_decision', body: input.text(link) },
    {
      clientIp: input.clientIp,
      countedEvents: [],
      undo: () =>
        ctx.db.query('DELETE FROM registration_tokens WHERE token_hash = $1', [tokenHash(token)]),
    },
  );
  return delivery.status !== 'refused';
}

/** The KYC sessions the registration had before its current one, newest first. */
export async function earlierKycSessionsOf(db: Db, draftId: string): Promise<string[]> {
  const { rows } = await db.query<{ ids: string[] | null }>(
    'SELECT earlier_kyc_sessions AS ids FROM registration_drafts WHERE id = $1',
    [draftId],
  );
  return [...(rows[0]?.ids ?? [])].reverse();
}
