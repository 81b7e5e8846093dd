import { idFieldValues, keptIdValue } from '../../contract/case-fields';
import type { CaseStatusName, CaseStep, RejectReason } from '../../contract/cases';
import type {
  CorrectFieldRequest,
  DecisionRequest,
  DecisionResponse,
} from '../../contract/operators';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { reopenRegistration, sendDecisionLink } from '../onboarding/draft-case';
import { caseDecisionSmsText } from '../sms/sender';
import {
  actorOf,
  audited,
  currentFields,
  heldCase,
  json,
  nowOf,
  type CaseOperator,
  type Correction,
} from './access';
import { voidApprovals } from './approval';
import { audit } from './audit';
import { caseKyc } from './kyc';
import { approvalOf } from './approve';
import { decideCorrection } from './correction-decision';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import { finishCase, setApprovals, setCorrections, setRejectNote } from './store';

/**
 * What an operator decides on a case (issue 30, issue 42 item 1): a field corrected (which voids
 * the approvals given), and the decision: approve (four-eyes where approval.ts's rule asks), reject
 * or repeat a step, handing the registration back with an SMS link.
 */

/**
 * One field corrected, with its reason (audited: which field and the reason, not the values); the
 * value passed its field's schema (contract/case-fields.ts). It changes what an approval would be
 * of: approvals given before it are void.
 */
export const correctField = (...a: Parameters<typeof correct>) =>
  audited(a[0], a[1], 'correct', () => correct(...a));

async function correct(
  ctx: AppContext,
  op: CaseOperator,
  rawId: string,
  input: CorrectFieldRequest,
): Promise<void> {
  const now = nowOf(ctx);
  const sealer = caseSealer(ctx);
  await ctx.db.transaction(async (tx) => {
    const row = await heldCase(ctx, tx, op, rawId, now);
    // A patient's correction request (issue 45 item 5) is about its one field.
    if (row.kind === 'correction' && input.field !== row.correction_field)
      throw new HttpError(409, m.correctionOtherField);
    const { fields, corrections } = currentFields(ctx, row);
    const next: Correction[] = [
      ...corrections,
      {
        field: input.field,
        from: fields[input.field],
        to: keptIdValue(input.field, input.value),
        reason: input.reason,
        operator: op.usuario,
        at: now.toISOString(),
      },
    ];
    await setCorrections(tx, row.id, sealer.sealJson(row.id, 'corrections', next));
    await audit(tx, {
      caseId: row.id,
      actor: actorOf(op),
      action: 'correct',
      // The reason is free text about the patient: sealed with the correction (purged with the
      // case), never in the audit log, which is never purged (issue 42, L1).
      detail: { field: input.field },
      at: now,
    });
    await voidApprovals(tx, {
      caseId: row.id,
      approvals: json(row.approvals),
      actor: actorOf(op),
      cause: 'correct',
      at: now,
    });
  });
}

type DecisionContext = { origin: string; clientIp: string };

/**
 * The claimer decides (one decision wins: the case row is locked and must still be open and held).
 * Approve: a supervised trigger needs a second approval by a different supervisor; the final
 * approval creates a verified KYC session with the (corrected) fields and the desk photo's or the
 * selfie's face and binds it to the registration (no face at all: 409). Reject with a reason;
 * repeat a step (the selfie: the registration starts the selfie again; a side: a live session with
 * the selfie's face, the other side kept). The registration stays resumable for the resume window
 * and its mobile gets an SMS with a link.
 */
export const decide = (...a: Parameters<typeof decision>) =>
  audited(a[0], a[1], 'decision', () => decision(...a));

async function decision(
  ctx: AppContext,
  op: CaseOperator,
  rawId: string,
  input: DecisionRequest,
  at: DecisionContext,
): Promise<DecisionResponse['outcome']> {
  const now = nowOf(ctx);
  const until = new Date(now.getTime() + ctx.onboarding.registration.resumeMs);
  const purgeAfter = new Date(now.getTime() + ctx.cases.retentionMs);
  const sealer = caseSealer(ctx);
  const result = await ctx.db.transaction(async (tx) => {
    const row = await heldCase(ctx, tx, op, rawId, now);
    // 'Corrección de datos' (issue 45 item 5): a registered patient's, no registration to hand back.
    if (row.kind === 'correction')
      return { outcome: await decideCorrection(ctx, tx, op, row, input, now), draftId: null };
    const actor = actorOf(op);
    // A 'posible duplicado' (issue 44 item 3): a supervisor approves or rejects it, nothing else.
    if (row.kind === 'duplicate') {
      if (op.rol !== 'supervisor') throw new HttpError(403, m.duplicateSupervisorOnly);
      if (input.decision === 'repeat') throw new HttpError(409, m.duplicateNoRepeat);
    } else if (input.decision === 'reject' && input.reason === 'duplicate_person')
      throw new HttpError(400, m.badDecision);
    const finish = async (
      status: CaseStatusName,
      set: { reject_reason?: RejectReason; repeat_step?: CaseStep; session?: string | null },
    ) => {
      await finishCase(tx, row.id, {
        status,
        at: now,
        by: op.id,
        rejectReason: set.reject_reason,
        repeatStep: set.repeat_step,
        session: set.session,
        purgeAfter,
      });
      if (row.draft_id)
        await reopenRegistration(tx, {
          draftId: row.draft_id,
          now,
          until,
          ...(set.session !== undefined ? { kycSessionId: set.session } : {}),
        });
    };

    if (input.decision === 'approve') {
      const { fields, corrections, rule, approvals, approval } = await approvalOf(
        ctx,
        tx,
        op,
        row,
        { digest: input.digest, cardMissing: m.cardMissing },
        now,
      );
      const { digest } = approval;
      const supervised = rule === 'two';
      const embedding =
        sealer.openJson<number[]>(row.id, 'desk_embedding', row.desk_embedding) ??
        sealer.openJson<number[]>(row.id, 'selfie_embedding', row.selfie_embedding);
      // The desk photo is a health centre's: a remote review without a selfie is not approved here.
      if (!embedding)
        throw new HttpError(409, row.kind === 'centro' ? m.noFace : m.noFaceRemote, {}, 'no_face');
      // The patient is registered with these, and logs in with the number: without them (or with
      // a number login does not take) an approval would register no one who can log in.
      if (
        !fields.FullName.trim() ||
        !idFieldValues.DocumentNumber.safeParse(fields.DocumentNumber).success
      )
        throw new HttpError(409, m.fieldsMissing, {}, 'fields_missing');
      if (supervised && approvals.length === 0) {
        await setApprovals(tx, row.id, [approval], true);
        await audit(tx, {
          caseId: row.id,
          actor,
          action: 'approve',
          detail: { approval: 1, supervised: true, rule, digest },
          at: now,
        });
        return { outcome: 'awaiting_supervisor' as const, draftId: null };
      }
      const session = await caseKyc(ctx).createVerifiedSession(
        { idData: fields, embedding, expiresAt: until },
        tx,
      );
      await setApprovals(tx, row.id, [...approvals, approval]);
      await finish('approved', { session });
      await audit(tx, {
        caseId: row.id,
        actor,
        action: 'approve',
        detail: {
          approval: approvals.length + 1,
          supervised,
          rule,
          digest,
          face: row.desk_embedding ? 'desk' : 'selfie',
          corrected: corrections.map((c) => c.field),
          engineReasons: json(row.engine_reasons),
        },
        at: now,
      });
      return { outcome: 'approved' as const, draftId: row.draft_id };
    }

    if (input.decision === 'reject') {
      await finish('rejected', { reject_reason: input.reason });
      // The note is about a patient: sealed on the case (purged with it), only its presence audited.
      const note = input.note?.trim() ? Buffer.from(input.note.trim(), 'utf8') : null;
      if (note) await setRejectNote(tx, row.id, sealer.seal(row.id, 'reject_note', note));
      await audit(tx, {
        caseId: row.id,
        actor,
        action: 'reject',
        detail: { reason: input.reason, note: note !== null },
        at: now,
      });
      return { outcome: 'rejected' as const, draftId: row.draft_id };
    }

    // repeat one step
    const step = input.step;
    let session: string | null = null;
    if (step !== 'selfie') {
      const embedding = sealer.openJson<number[]>(row.id, 'selfie_embedding', row.selfie_embedding);
      if (!embedding) throw new HttpError(409, m.noSelfieForSide);
      const other = step === 'front' ? 'back' : 'front';
      const { rows } = await tx.query<Record<string, Uint8Array | null>>(
        `SELECT ${other} AS image FROM cases WHERE id = $1`,
        [row.id],
      );
      const kept = sealer.open(row.id, other, rows[0]?.image ?? null);
      session = await caseKyc(ctx).createLiveSession(
        { embedding, keep: kept ? { [other]: kept } : {}, expiresAt: until },
        tx,
      );
    }
    await finish('repeat', { repeat_step: step, session });
    await audit(tx, { caseId: row.id, actor, action: 'repeat', detail: { step }, at: now });
    return { outcome: 'repeat' as const, draftId: row.draft_id };
  });

  if (result.draftId)
    await sendDecisionLink(ctx, {
      draftId: result.draftId,
      origin: at.origin,
      clientIp: at.clientIp,
      text: (link) => caseDecisionSmsText(ctx.onboarding.sms.serviceName, link),
    });
  return result.outcome;
}
