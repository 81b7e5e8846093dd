import type { PatientClaim } from '../../contract/cases';
import type { CaseDetail, DuplicateOf, EvidenceImage } from '../../contract/operators';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import {
  actorOf,
  audited,
  currentFields,
  holds,
  json,
  nowOf,
  visibleCase,
  type CaseFull,
  type CaseOperator,
} from './access';
import { approvalDigest, approvalRule, fieldOrigins } from './approval';
import { audit } from './audit';
import { caseMessages as m } from './messages';
import { caseSealer, type CasePart } from './seal';

/**
 * What an operator reads of a case (issue 30): its detail and its images, opened for the operator
 * who holds it or took part in its decision; every look audited ('view', 'image:<kind>').
 */

const IMAGES: readonly EvidenceImage[] = ['selfie', 'portrait', 'front', 'back', 'desk'];

/** The case for its operator (audited as a look, 'view'; refused, as 'refused'). */
export const caseDetail = (ctx: AppContext, op: CaseOperator, rawId: string) =>
  audited(ctx, op, 'view', () => detailOf(ctx, op, rawId));

async function detailOf(ctx: AppContext, op: CaseOperator, rawId: string): Promise<CaseDetail> {
  const now = nowOf(ctx);
  const row = await visibleCase(ctx, op, rawId, now);
  const { fields, corrections, read } = currentFields(ctx, row);
  const digest = await approvalDigest(ctx, ctx.db, row, fields);
  await audit(ctx.db, { caseId: row.id, actor: actorOf(op), action: 'view', at: now });
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    trigger: row.trigger,
    step: row.step,
    openedAt: new Date(row.opened_at).toISOString(),
    fields,
    corrections,
    engineReasons: json(row.engine_reasons),
    engineSignals: json(row.engine_signals),
    faceSimilarity: row.face_similarity,
    faceThreshold: row.face_threshold,
    attempts: { liveness: row.attempts_liveness, scans: row.attempts_scans },
    images: IMAGES.filter((image) => row[`has_${image}`]),
    approvals: json(row.approvals).map((a) => ({
      operator: a.usuario,
      at: a.at,
      digest: a.digest ?? null,
    })),
    needsSupervisor: row.needs_supervisor,
    digest,
    approvalRule: approvalRule(row, corrections),
    fieldOrigins: fieldOrigins(read, corrections),
    claimedByMe: holds(ctx, row, op, now),
    expiresAt: row.code_expires_at ? new Date(row.code_expires_at).toISOString() : null,
    // The patient's words about a field (issue 43 item 7): shown as theirs, never applied.
    patientClaim: caseSealer(ctx).openJson<PatientClaim>(
      row.id,
      'patient_claim',
      row.patient_claim,
    ),
    duplicate: duplicateOf(ctx, row),
  };
}

/** A 'duplicate' case's enrolled patient (issue 44 item 3), opened for its supervisor; else null. */
function duplicateOf(ctx: AppContext, row: CaseFull): DuplicateOf | null {
  if (row.kind !== 'duplicate') return null;
  const record = caseSealer(ctx).openJson<Omit<DuplicateOf, 'similarity' | 'threshold'>>(
    row.id,
    'duplicate',
    row.duplicate,
  );
  return {
    documento: record?.documento ?? '',
    nombre: record?.nombre ?? '',
    registeredAt: record?.registeredAt ?? '',
    similarity: row.duplicate_similarity ?? 0,
    threshold: row.duplicate_threshold ?? 0,
  };
}

/** One image of the case, opened (audited per image as 'image:<kind>'; refused, as 'refused'). */
export async function caseImage(
  ctx: AppContext,
  op: CaseOperator,
  rawId: string,
  image: string,
): Promise<Buffer> {
  if (!(IMAGES as readonly string[]).includes(image)) throw new HttpError(404, m.badImage);
  return audited(ctx, op, `image:${image}`, () => imageOf(ctx, op, rawId, image));
}

async function imageOf(ctx: AppContext, op: CaseOperator, rawId: string, image: string) {
  const now = nowOf(ctx);
  const row = await visibleCase(ctx, op, rawId, now);
  const { rows } = await ctx.db.query<Record<string, Uint8Array | null>>(
    `SELECT ${image} AS image FROM cases WHERE id = $1`,
    [row.id],
  );
  const bytes = caseSealer(ctx).open(row.id, image as CasePart, rows[0]?.image ?? null);
  if (!bytes) throw new HttpError(404, m.noImage);
  await audit(ctx.db, { caseId: row.id, actor: actorOf(op), action: `image:${image}`, at: now });
  return bytes;
}
