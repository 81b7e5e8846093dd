import type { ApprovalRule } from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { actorOf, currentFields, json, type CaseFull, type CaseOperator } from './access';
import { approvalDigest, approvalRule, voidApprovals, type Approval } from './approval';
import { caseMessages as m } from './messages';

/**
 * An approval's checks, the same for every kind (issue 42 item 1; decision.ts, and a correction's in
 * correction-decision.ts): the case must be as the page showed it (the digest sent), approvals of
 * another version are void, a rule of 'centre_only' refuses (`cardMissing`: the kind's sentence),
 * and a second approval is a different supervisor's. What the approval is of, and this one.
 */
export async function approvalOf(
  ctx: AppContext,
  tx: Db,
  op: CaseOperator,
  row: CaseFull,
  sent: { digest: string; cardMissing: string },
  now: Date,
): Promise<
  ReturnType<typeof currentFields> & {
    rule: Exclude<ApprovalRule, 'centre_only'>;
    approvals: Approval[];
    approval: Approval;
  }
> {
  const current = currentFields(ctx, row);
  // The approval is of what the page showed: the case must not have changed since.
  const digest = await approvalDigest(ctx, tx, row, current.fields);
  if (sent.digest !== digest) throw new HttpError(409, m.caseChanged, {}, 'case_changed');
  let approvals = json(row.approvals);
  // Approvals of another version (given before they recorded one) do not count: void.
  if (approvals.some((a) => a.digest !== digest)) {
    const actor = actorOf(op);
    await voidApprovals(tx, { caseId: row.id, approvals, actor, cause: 'digest', at: now });
    approvals = [];
  }
  const rule = approvalRule(row, current.corrections);
  if (rule === 'centre_only') throw new HttpError(409, sent.cardMissing, {}, 'card_missing');
  if (approvals.length) {
    if (op.rol !== 'supervisor') throw new HttpError(403, m.supervisorOnly);
    if (approvals.some((a) => a.operatorId === op.id)) throw new HttpError(409, m.secondApprover);
  }
  const approval = { operatorId: op.id, usuario: op.usuario, at: now.toISOString(), digest };
  return { ...current, rule, approvals, approval };
}
