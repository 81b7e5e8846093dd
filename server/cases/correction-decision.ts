import type { RejectReason } from '../../contract/cases';
import type { DecisionRequest, DecisionResponse } from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { setPatientIdentityField } from '../patients/service';
import { actorOf, type CaseFull, type CaseOperator } from './access';
import { approvalOf } from './approve';
import { audit } from './audit';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import { finishCase, setApprovals, setRejectNote } from './store';

/**
 * The decision on a 'Corrección de datos' (issue 45 item 5), inside decision.ts's transaction with
 * the case row locked and held by this operator. Approve: bound to the digest of the case as shown
 * (the asked value included: a change to it since voids the approvals given), four-eyes as
 * approval.ts's rule says; the final approval writes the patient's field (server/patients, only
 * while it still says what the request was made over: once) and is audited 'correct' with the
 * field, as any correction, so Mis datos shows 'Corregido por una persona del servicio'. Reject:
 * a reason from the list and an optional note, both shown to the patient. Nothing is repeated.
 */
export async function decideCorrection(
  ctx: AppContext,
  tx: Db,
  op: CaseOperator,
  row: CaseFull,
  input: DecisionRequest,
  now: Date,
): Promise<DecisionResponse['outcome']> {
  const actor = actorOf(op);
  const purgeAfter = new Date(now.getTime() + ctx.cases.retentionMs);
  const finish = (status: 'approved' | 'rejected', rejectReason?: RejectReason) =>
    finishCase(tx, row.id, { status, at: now, by: op.id, rejectReason, purgeAfter });

  if (input.decision === 'repeat') throw new HttpError(409, m.correctionNoRepeat);
  if (input.decision === 'reject') {
    if (input.reason === 'duplicate_person') throw new HttpError(400, m.badDecision);
    await finish('rejected', input.reason);
    // The note is for the patient (Mis datos shows it): sealed on the case, purged with it.
    const note = input.note?.trim() ? Buffer.from(input.note.trim(), 'utf8') : null;
    if (note) await setRejectNote(tx, row.id, caseSealer(ctx).seal(row.id, 'reject_note', note));
    await audit(tx, {
      caseId: row.id,
      actor,
      action: 'reject',
      detail: { reason: input.reason, note: note !== null, field: row.correction_field },
      at: now,
    });
    return 'rejected';
  }

  const { fields, read, rule, approvals, approval } = await approvalOf(
    ctx,
    tx,
    op,
    row,
    { digest: input.digest, cardMissing: m.correctionCardMissing },
    now,
  );
  const { digest } = approval;
  const field = row.correction_field;
  if (!field || !row.patient_id) throw new Error('correction: a case without its patient or field');
  if (rule === 'two' && approvals.length === 0) {
    await setApprovals(tx, row.id, [approval], true);
    await audit(tx, {
      caseId: row.id,
      actor,
      action: 'approve',
      detail: { approval: 1, supervised: true, rule, digest, field },
      at: now,
    });
    return 'awaiting_supervisor';
  }

  const to = fields[field];
  if (field === 'DocumentNumber') {
    const { rows } = await tx.query(
      'SELECT 1 FROM patients WHERE numero_documento = $1 AND id <> $2',
      [to, row.patient_id],
    );
    if (rows.length) throw new HttpError(409, m.correctionDocumentTaken);
  }
  const written = await setPatientIdentityField(
    tx,
    { patientId: row.patient_id, field, from: read?.[field] ?? '', to },
    now,
  );
  // A number registered or approved for another patient since the check above: the unique index
  // refuses it, and the answer is the same 409 (never a 500).
  if (written === 'taken') throw new HttpError(409, m.correctionDocumentTaken);
  if (written === 'stale') throw new HttpError(409, m.correctionStale, {}, 'correction_stale');
  await setApprovals(tx, row.id, [...approvals, approval]);
  await finish('approved');
  await audit(tx, {
    caseId: row.id,
    actor,
    action: 'approve',
    detail: { approval: approvals.length + 1, supervised: rule === 'two', rule, digest, field },
    at: now,
  });
  // The same record a correction leaves: which field, never its values (Mis datos reads it).
  await audit(tx, { caseId: row.id, actor, action: 'correct', detail: { field }, at: now });
  return 'approved';
}
