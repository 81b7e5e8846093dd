import { randomUUID } from 'node:crypto';
import { keptIdValue } from '../../contract/case-fields';
import type { PatientClaim, RejectReason } from '../../contract/cases';
import { CLAIM_SAYS_MAX } from '../../contract/cases';
import type {
  CorrectionItem,
  CorrectionRequest,
  CorrectionState,
} from '../../contract/my-data-correct';
import type { IdData } from '../../contract/onboarding';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { patientIdentity } from '../patients/service';
import type { Correction } from './access';
import { audit } from './audit';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import { insertCase } from './store';

/**
 * 'Corrección de datos' (issue 45 item 5): a registered patient asks, from Mis datos, that one
 * identity field say another value. The request is a case of its own kind: its fields are the
 * patient's record as it is now, the asked value is its first correction (by 'paciente', with the
 * patient's reason), so the back office shows it as any correction and an approval's digest
 * (approval.ts) is of exactly that value. It carries the cédula's images the service still keeps
 * from the patient's newest case not yet purged (copied, sealed to this case). An operator decides
 * it (correction-decision.ts). One open request per patient and field.
 */

/** Who wrote the asked value, in the case's corrections (an operator's user name otherwise). */
export const PATIENT_AUTHOR = 'paciente';

/** The cédula's images of the patient's newest case not yet purged that holds its front. */
const KEPT_CARD = `
  WITH regs AS (SELECT session_id FROM onboarding_registrations WHERE patient_id = $1)
  SELECT c.id::text AS id, c.front, c.back, c.portrait FROM cases c
   WHERE c.purged_at IS NULL AND c.front IS NOT NULL
     AND (c.patient_id = $1 OR c.kyc_session_id IN (SELECT session_id FROM regs)
          OR c.decision_session_id IN (SELECT session_id FROM regs)
          OR c.draft_id IN (SELECT d.id FROM registration_drafts d
                             WHERE d.kyc_session_id IN (SELECT session_id FROM regs)))
   ORDER BY c.opened_at DESC LIMIT 1`;

type CardRow = {
  id: string;
  front: Uint8Array | null;
  back: Uint8Array | null;
  portrait: Uint8Array | null;
};

/** The patient's open request for this field, if any (its id). */
async function openRequestOf(db: Db, patientId: string, field: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM cases
      WHERE kind = 'correction' AND status = 'open' AND patient_id = $1 AND correction_field = $2`,
    [patientId, field],
  );
  return rows[0]?.id ?? null;
}

/**
 * What the request would change: 400 when the field already says it, 409 when a request for the
 * field is open. Checked before the request spends one of the day's requests, and again, under the
 * patient's row lock, when it is written.
 */
export async function checkCorrection(
  ctx: AppContext,
  patientId: string,
  input: CorrectionRequest,
): Promise<{ current: IdData; asked: string }> {
  const current = await patientIdentity(ctx.db, patientId);
  if (!current) throw new Error('correction: a live session without its patient');
  const asked = keptIdValue(input.field, input.value);
  if (current[input.field] === asked) throw new HttpError(400, m.correctionSameValue);
  if (await openRequestOf(ctx.db, patientId, input.field))
    throw new HttpError(409, m.correctionOpen, {}, 'correction_open');
  return { current, asked };
}

/** Opens the 'correction' case; the request as the patient now sees it. */
export async function openCorrection(
  ctx: AppContext,
  patientId: string,
  input: CorrectionRequest,
): Promise<CorrectionItem> {
  const now = new Date(ctx.clock.now());
  const sealer = caseSealer(ctx);
  const { current, asked } = await checkCorrection(ctx, patientId, input);
  // Read before the transaction: on PGlite the transaction holds the only connection.
  const card = (await ctx.db.query<CardRow>(KEPT_CARD, [patientId])).rows[0];
  const image = (part: 'front' | 'back' | 'portrait') =>
    card ? sealer.open(card.id, part, card[part]) : null;
  const kept = { front: image('front'), back: image('back'), portrait: image('portrait') };
  const id = randomUUID();
  const request: Correction = {
    field: input.field,
    from: current[input.field],
    to: asked,
    reason: input.reason.trim(),
    operator: PATIENT_AUTHOR,
    at: now.toISOString(),
  };
  const claim: PatientClaim = {
    field: input.field,
    ...(asked.length <= CLAIM_SAYS_MAX ? { says: asked } : {}),
  };
  await ctx.db.transaction(async (tx) => {
    // Two requests at once: the second waits here, then finds the first open.
    await tx.query('SELECT 1 FROM patients WHERE id = $1 FOR UPDATE', [patientId]);
    if (await openRequestOf(tx, patientId, input.field))
      throw new HttpError(409, m.correctionOpen, {}, 'correction_open');
    await insertCase(tx, {
      id,
      draftId: null,
      celular: null,
      kind: 'correction',
      trigger: 'patient_correction',
      step: 'front',
      sessionId: null,
      openedAt: now,
      expectedBy: new Date(now.getTime() + ctx.cases.reviewMs),
      code: null,
      sealed: {
        selfie: null,
        portrait: sealer.seal(id, 'portrait', kept.portrait),
        front: sealer.seal(id, 'front', kept.front),
        back: sealer.seal(id, 'back', kept.back),
        fields: sealer.sealJson(id, 'fields', current),
        selfie_embedding: null,
        portrait_embedding: null,
        patient_claim: sealer.sealJson(id, 'patient_claim', claim),
      },
      correction: {
        patientId,
        field: input.field,
        corrections: sealer.sealJson(id, 'corrections', [request]),
      },
      engine: {
        reasons: [],
        faceSimilarity: null,
        faceThreshold: null,
        attempts: { liveness: 0, scans: 0 },
        signals: {},
      },
    });
    await audit(tx, {
      caseId: id,
      actor: null,
      action: 'open',
      // Which field only: never the values or the patient's words (the log outlives them).
      detail: {
        kind: 'correction',
        trigger: 'patient_correction',
        field: input.field,
        evidence: (['front', 'back', 'portrait'] as const).filter((p) => kept[p] !== null),
      },
      at: now,
    });
  });
  return {
    id,
    field: input.field,
    asked,
    state: 'pending',
    openedAt: now.toISOString(),
    decidedAt: null,
    rejectReason: null,
    note: null,
  };
}

type RequestRow = {
  id: string;
  field: CorrectionItem['field'];
  status: string;
  opened_at: Date;
  decided_at: Date | null;
  reject_reason: RejectReason | null;
  corrections: Uint8Array | null;
  reject_note: Uint8Array | null;
};

const STATE: Record<string, CorrectionState> = { open: 'pending', approved: 'approved' };

/** The patient's requests, newest first (at most 50): only theirs, by the session's patient. */
export async function correctionsOf(ctx: AppContext, patientId: string): Promise<CorrectionItem[]> {
  const sealer = caseSealer(ctx);
  const { rows } = await ctx.db.query<RequestRow>(
    `SELECT id::text AS id, correction_field AS field, status, opened_at, decided_at, reject_reason,
            corrections, reject_note
       FROM cases WHERE kind = 'correction' AND patient_id = $1
      ORDER BY opened_at DESC, id DESC LIMIT 50`,
    [patientId],
  );
  return rows.map((r) => {
    const corrections = sealer.openJson<Correction[]>(r.id, 'corrections', r.corrections) ?? [];
    // What the patient asked (the case's first correction, theirs), whatever an operator wrote
    // over it: the approved value is the field's own in Mis datos.
    const asked =
      corrections.find((c) => c.field === r.field && c.operator === PATIENT_AUTHOR)?.to ?? null;
    const state = STATE[r.status] ?? 'rejected';
    return {
      id: r.id,
      field: r.field,
      asked,
      state,
      openedAt: new Date(r.opened_at).toISOString(),
      decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
      rejectReason: state === 'rejected' ? (r.reject_reason ?? 'other') : null,
      note:
        state === 'rejected'
          ? (sealer.open(r.id, 'reject_note', r.reject_note)?.toString('utf8') ?? null)
          : null,
    };
  });
}
