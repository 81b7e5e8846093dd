import { normalizeCentreCode, type CaseTrigger, type OperatorCaseKind } from '../../contract/cases';
import type { QueueResponse } from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { consumeLimits } from '../security/rate-limits';
import {
  actorOf,
  audited,
  FULL_COLUMNS,
  heldCase,
  idleCutoff,
  json,
  nowOf,
  type CaseFull,
  type CaseOperator,
} from './access';
import { audit } from './audit';
import { caseMessages as m } from './messages';
import { claimCase, claimOldest, releaseClaim, releaseClaimsBy, touchHeldCase } from './store';

/**
 * Claims (issue 30): the queue, 'Tomar el siguiente', a centro case claimed by its code, a claim
 * let go, and a revoked operator's claims back to the queue. Who holds a case is `claimed_by`.
 */

const HOUR = 3_600_000;

/**
 * Open review cases waiting for someone, oldest first (no personal data); 'posible duplicado' cases
 * (issue 44 item 3) to supervisors only, who alone may take them.
 */
export async function queue(ctx: AppContext, op: CaseOperator): Promise<QueueResponse> {
  const now = nowOf(ctx);
  // 'Corrección de datos' (issue 45 item 5) to both roles, as a review.
  const kinds =
    op.rol === 'supervisor'
      ? `kind IN ('review', 'correction', 'duplicate')`
      : `kind IN ('review', 'correction')`;
  const where = `status = 'open' AND ${kinds} AND (claimed_by IS NULL OR last_activity_at < $1)`;
  const { rows } = await ctx.db.query<{
    id: string;
    kind: OperatorCaseKind;
    trigger: CaseTrigger;
    opened_at: Date;
    needs_supervisor: boolean;
  }>(
    `SELECT id::text AS id, kind, trigger, opened_at, needs_supervisor FROM cases
      WHERE ${where} ORDER BY opened_at, id LIMIT 100`,
    [idleCutoff(ctx, now)],
  );
  const total = await ctx.db.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM cases WHERE ${where}`,
    [idleCutoff(ctx, now)],
  );
  return {
    success: true,
    cases: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      trigger: r.trigger,
      openedAt: new Date(r.opened_at).toISOString(),
      needsSupervisor: r.needs_supervisor,
    })),
    total: Number(total.rows[0]?.n ?? 0),
  };
}

/**
 * 'Tomar el siguiente': the case this operator already holds, else the oldest open review case it
 * may decide, claimed in one statement (FOR UPDATE SKIP LOCKED: two operators never get the same
 * one). A claim idle CASES_CLAIM_IDLE_MINUTES is free again. A case approved once needs a
 * supervisor who did not approve it.
 */
export async function claimNext(ctx: AppContext, op: CaseOperator): Promise<string | null> {
  const now = nowOf(ctx);
  const cutoff = idleCutoff(ctx, now);
  return ctx.db.transaction(async (tx) => {
    const held = await touchHeldCase(tx, op.id, cutoff, now);
    if (held) return held;
    const id = await claimOldest(tx, { ...op, supervisor: op.rol === 'supervisor' }, cutoff, now);
    if (id) await audit(tx, { caseId: id, actor: actorOf(op), action: 'claim', at: now });
    return id;
  });
}

/** The claim returns to the queue. */
export async function releaseCase(ctx: AppContext, op: CaseOperator, rawId: string): Promise<void> {
  const now = nowOf(ctx);
  await audited(ctx, op, 'release', () =>
    ctx.db.transaction(async (tx) => {
      const row = await heldCase(ctx, tx, op, rawId, now);
      await releaseClaim(tx, row.id);
      await audit(tx, { caseId: row.id, actor: actorOf(op), action: 'release', at: now });
    }),
  );
}

/**
 * 'Buscar por código' at a health centre: rate-limited per operator and overall (429 with
 * Retry-After; misses count), audited ('lookup', found or not); the open centro case is claimed by
 * this operator.
 */
export async function lookupCode(ctx: AppContext, op: CaseOperator, raw: string): Promise<string> {
  const now = nowOf(ctx);
  await consumeLimits(
    ctx.db,
    [
      {
        bucket: 'case_lookup_operator',
        key: op.id,
        limits: [{ max: ctx.cases.lookupsPerOperatorHour, windowMs: HOUR }],
      },
      {
        bucket: 'case_lookup',
        key: 'all',
        limits: [{ max: ctx.cases.lookupsPerHour, windowMs: HOUR }],
      },
    ],
    now.getTime(),
  );
  const code = normalizeCentreCode(raw);
  const found = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<CaseFull>(
      `SELECT ${FULL_COLUMNS} FROM cases
        WHERE code = $1 AND status = 'open' AND kind = 'centro' AND code_expires_at > $2
        FOR UPDATE`,
      [code, now],
    );
    const row = rows[0];
    await audit(tx, {
      caseId: row?.id ?? null,
      actor: actorOf(op),
      action: 'lookup',
      detail: { found: !!row },
      at: now,
    });
    if (!row) return null;
    const heldByOther =
      row.claimed_by !== null &&
      row.claimed_by !== op.id &&
      !!row.last_activity_at &&
      new Date(row.last_activity_at) >= idleCutoff(ctx, now);
    const refused = heldByOther
      ? { error: new HttpError(409, m.caseHeld), why: 'held' }
      : row.needs_supervisor && op.rol !== 'supervisor'
        ? { error: new HttpError(403, m.supervisorOnly), why: 'supervisor_only' }
        : row.needs_supervisor && json(row.approvals).some((a) => a.operatorId === op.id)
          ? { error: new HttpError(409, m.secondApprover), why: 'second_approver' }
          : null;
    if (refused) {
      await audit(tx, {
        caseId: row.id,
        actor: actorOf(op),
        action: 'refused',
        detail: { look: 'lookup', status: refused.error.status, why: refused.why },
        at: now,
      });
      return { error: refused.error };
    }
    await claimCase(tx, row.id, op, now);
    await audit(tx, { caseId: row.id, actor: actorOf(op), action: 'claim', at: now });
    return { id: row.id };
  });
  if (!found) throw new HttpError(404, m.codeNotFound);
  if ('error' in found) throw found.error;
  return found.id;
}

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
  const released = await releaseClaimsBy(tx, operator.id);
  for (const caseId of released)
    await audit(tx, {
      caseId,
      actor: null,
      action: 'release',
      detail: { cause: 'revoked', operator: operator.usuario },
      at,
    });
  return released.length;
}
