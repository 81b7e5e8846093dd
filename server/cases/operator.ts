import { idFieldValues, keptIdValue } from '../../contract/case-fields';
import {
  normalizeCentreCode,
  type CaseKind,
  type CaseStatusName,
  type CaseStep,
  type CaseTrigger,
  type PatientClaim,
} from '../../contract/cases';
import type { IdData } from '../../contract/onboarding';
import type {
  CaseDetail,
  CorrectFieldRequest,
  DecisionRequest,
  DeskPhotoResponse,
  DecisionResponse,
  EvidenceImage,
  OperatorRole,
  QueueResponse,
} from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import type { IdentityEngine } from '../identity/engine';
import { IdentityError } from '../identity/errors';
import { checkGates } from '../identity/gates';
import { sniffImage } from '../identity/image';
import { cosineSimilarity } from '../identity/types';
import { reopenRegistration, sendDecisionLink } from '../onboarding/registration';
import { consumeLimits } from '../security/rate-limits';
import { caseDecisionSmsText } from '../sms/sender';
import {
  approvalDigest,
  approvalRule,
  fieldOrigins,
  voidApprovals,
  type Approval,
} from './approval';
import { audit, type AuditActor } from './audit';
import { caseKyc } from './kyc';
import { caseMessages as m } from './messages';
import { caseSealer, type CasePart } from './seal';
import type { CaseRow } from './status';

/** The operator a route acts for (server/operators/auth.ts's OperatorIdentity, structurally). */
export type CaseOperator = { id: string; usuario: string; nombre: string; rol: OperatorRole };

const HOUR = 3_600_000;
const IMAGES: readonly EvidenceImage[] = ['selfie', 'portrait', 'front', 'back', 'desk'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Correction = {
  field: string;
  from: string;
  to: string;
  reason: string;
  operator: string;
  at: string;
};

/** A case as the operator routes read it (sealed parts still sealed). */
type CaseFull = Pick<
  CaseRow,
  'id' | 'draft_id' | 'kind' | 'status' | 'trigger' | 'step' | 'opened_at' | 'claimed_by'
> & {
  code_expires_at: Date | null;
  fields: Uint8Array | null;
  corrections: Uint8Array | null;
  selfie_embedding: Uint8Array | null;
  portrait_embedding: Uint8Array | null;
  desk_embedding: Uint8Array | null;
  engine_reasons: string[] | string;
  engine_signals: Record<string, number> | string;
  face_similarity: number | null;
  face_threshold: number | null;
  attempts_liveness: number;
  attempts_scans: number;
  needs_supervisor: boolean;
  last_activity_at: Date | null;
  approvals: Approval[] | string;
  decided_by: string | null;
  has_selfie: boolean;
  has_portrait: boolean;
  has_front: boolean;
  has_back: boolean;
  has_desk: boolean;
  patient_claim: Uint8Array | null;
};

const FULL_COLUMNS = `id::text AS id, draft_id::text AS draft_id, kind, status, trigger, step,
  opened_at, code_expires_at, fields, corrections, selfie_embedding, portrait_embedding,
  desk_embedding, engine_reasons, engine_signals, face_similarity, face_threshold, attempts_liveness,
  attempts_scans, needs_supervisor, claimed_by, last_activity_at, approvals, decided_by,
  (selfie IS NOT NULL) AS has_selfie, (portrait IS NOT NULL) AS has_portrait,
  (front IS NOT NULL) AS has_front, (back IS NOT NULL) AS has_back, (desk IS NOT NULL) AS has_desk,
  patient_claim`;

/** jsonb arrives parsed (pg, PGlite); a string is parsed, for any driver that does not. */
const json = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

const actorOf = (op: CaseOperator): AuditActor => ({ id: op.id, usuario: op.usuario });
const nowOf = (ctx: AppContext) => new Date(ctx.clock.now());
const idleCutoff = (ctx: AppContext, now: Date) => new Date(now.getTime() - ctx.cases.claimIdleMs);

/**
 * A refusal of access to a case (403/409: held by someone else, idle, decided): `audited` writes it
 * as 'refused' with who, the case and why, never the case's data (issue 42 item 3).
 */
class CaseRefused extends HttpError {
  constructor(
    readonly caseId: string,
    readonly why: 'not_yours' | 'not_held' | 'claim_idle' | 'decided',
    status: 403 | 409,
    message: string,
    reason?: string,
  ) {
    super(status, message, {}, reason);
  }
}

const refusedAs = {
  notYours: (id: string) => new CaseRefused(id, 'not_yours', 403, m.notYours),
  notHeld: (id: string) => new CaseRefused(id, 'not_held', 409, m.notHeld, 'claim_lost'),
  claimIdle: (id: string) => new CaseRefused(id, 'claim_idle', 409, m.claimLost, 'claim_lost'),
  decided: (id: string) => new CaseRefused(id, 'decided', 409, m.notOpen, 'case_decided'),
};

/**
 * Runs an operator's look or action on a case; a refusal of access is audited ('refused', outside
 * the action's transaction, which it rolled back) and thrown on.
 */
async function audited<T>(
  ctx: AppContext,
  op: CaseOperator,
  look: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CaseRefused)
      await audit(ctx.db, {
        caseId: err.caseId,
        actor: actorOf(op),
        action: 'refused',
        detail: { look, status: err.status, why: err.why },
        at: nowOf(ctx),
      });
    throw err;
  }
}

function caseIdOf(raw: string): string {
  if (!UUID.test(raw)) throw new HttpError(404, m.badCaseId);
  return raw.toLowerCase();
}

async function readCase(db: Db, id: string, lock = false): Promise<CaseFull> {
  const { rows } = await db.query<CaseFull>(
    `SELECT ${FULL_COLUMNS} FROM cases WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw new HttpError(404, m.badCaseId);
  return rows[0];
}

const holds = (ctx: AppContext, row: CaseFull, op: CaseOperator, now: Date) =>
  row.status === 'open' &&
  row.claimed_by === op.id &&
  !!row.last_activity_at &&
  new Date(row.last_activity_at) >= idleCutoff(ctx, now);

/**
 * The open case this operator holds, locked, its claim's idle time reset: 404 unknown, 409 decided,
 * 403 held by someone else (or nobody), 409 the claim went idle. Inside a transaction.
 */
async function heldCase(ctx: AppContext, tx: Db, op: CaseOperator, rawId: string, now: Date) {
  const row = await readCase(tx, caseIdOf(rawId), true);
  if (row.status !== 'open') throw refusedAs.decided(row.id);
  // Nobody holds it: a concurrent decision (or an approval awaiting a supervisor) let it go.
  if (row.claimed_by === null) throw refusedAs.notHeld(row.id);
  if (row.claimed_by !== op.id) throw refusedAs.notYours(row.id);
  if (!holds(ctx, row, op, now)) throw refusedAs.claimIdle(row.id);
  await tx.query('UPDATE cases SET last_activity_at = $2 WHERE id = $1', [row.id, now]);
  return row;
}

/**
 * A case this operator may look at: the open case it holds, or a decided case it took part in
 * (approved or decided). Anyone else: 403 (and nothing is shown).
 */
async function visibleCase(ctx: AppContext, op: CaseOperator, rawId: string, now: Date) {
  const row = await readCase(ctx.db, caseIdOf(rawId));
  if (row.status === 'open') {
    if (row.claimed_by !== op.id) throw refusedAs.notYours(row.id);
    if (!holds(ctx, row, op, now)) throw refusedAs.claimIdle(row.id);
    await ctx.db.query('UPDATE cases SET last_activity_at = $2 WHERE id = $1', [row.id, now]);
    return row;
  }
  const approvedBy = json(row.approvals).some((a) => a.operatorId === op.id);
  if (row.decided_by !== op.id && !approvedBy) throw refusedAs.notYours(row.id);
  return row;
}

/** Open review cases waiting for someone, oldest first (no personal data). */
export async function queue(ctx: AppContext): Promise<QueueResponse> {
  const now = nowOf(ctx);
  const where = `status = 'open' AND kind = 'review' AND (claimed_by IS NULL OR last_activity_at < $1)`;
  const { rows } = await ctx.db.query<{
    id: string;
    kind: CaseKind;
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
    const held = await tx.query<{ id: string }>(
      `UPDATE cases SET last_activity_at = $3
        WHERE id = (SELECT id FROM cases WHERE status = 'open' AND claimed_by = $1
                       AND last_activity_at >= $2 ORDER BY claimed_at LIMIT 1)
        RETURNING id::text AS id`,
      [op.id, cutoff, now],
    );
    if (held.rows[0]) return held.rows[0].id;
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE cases SET claimed_by = $1, claimed_usuario = $2, claimed_at = $3, last_activity_at = $3
        WHERE id = (
          SELECT id FROM cases
           WHERE status = 'open' AND kind = 'review'
             AND (claimed_by IS NULL OR last_activity_at < $4)
             AND (NOT needs_supervisor OR ($5 AND NOT approvals @> $6::jsonb))
           ORDER BY opened_at, id LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING id::text AS id`,
      [
        op.id,
        op.usuario,
        now,
        cutoff,
        op.rol === 'supervisor',
        JSON.stringify([{ operatorId: op.id }]),
      ],
    );
    const id = rows[0]?.id ?? null;
    if (id) await audit(tx, { caseId: id, actor: actorOf(op), action: 'claim', at: now });
    return id;
  });
}

function currentFields(ctx: AppContext, row: CaseFull) {
  const sealer = caseSealer(ctx);
  const read = sealer.openJson<IdData>(row.id, 'fields', row.fields);
  const corrections = sealer.openJson<Correction[]>(row.id, 'corrections', row.corrections) ?? [];
  const fields: IdData = {
    FullName: '',
    DocumentNumber: '',
    DateOfBirth: '',
    Gender: '',
    Nationality: '',
    MaritalStatus: '',
    ...read,
  };
  for (const c of corrections) fields[c.field as keyof IdData] = c.to;
  return { fields, corrections, read };
}

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
    await tx.query('UPDATE cases SET corrections = $2 WHERE id = $1', [
      row.id,
      sealer.sealJson(row.id, 'corrections', next),
    ]);
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

/** The claim returns to the queue. */
export async function releaseCase(ctx: AppContext, op: CaseOperator, rawId: string): Promise<void> {
  const now = nowOf(ctx);
  await audited(ctx, op, 'release', () =>
    ctx.db.transaction(async (tx) => {
      const row = await heldCase(ctx, tx, op, rawId, now);
      await tx.query(
        'UPDATE cases SET claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL WHERE id = $1',
        [row.id],
      );
      await audit(tx, { caseId: row.id, actor: actorOf(op), action: 'release', at: now });
    }),
  );
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
    const actor = actorOf(op);
    const finish = async (
      status: CaseStatusName,
      set: { reject_reason?: string; repeat_step?: CaseStep; session?: string | null },
    ) => {
      await tx.query(
        `UPDATE cases SET status = $2, decided_at = $3, decided_by = $4, reject_reason = $5,
                repeat_step = $6, decision_session_id = $7, purge_after = $8,
                claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
          WHERE id = $1`,
        [
          row.id,
          status,
          now,
          op.id,
          set.reject_reason ?? null,
          set.repeat_step ?? null,
          set.session ?? null,
          purgeAfter,
        ],
      );
      if (row.draft_id)
        await reopenRegistration(tx, {
          draftId: row.draft_id,
          now,
          until,
          ...(set.session !== undefined ? { kycSessionId: set.session } : {}),
        });
    };

    if (input.decision === 'approve') {
      const { fields, corrections } = currentFields(ctx, row);
      // The approval is of what the page showed: the case must not have changed since.
      const digest = await approvalDigest(ctx, tx, row, fields);
      if (input.digest !== digest) throw new HttpError(409, m.caseChanged, {}, 'case_changed');
      let approvals = json(row.approvals);
      // Approvals of another version (given before they recorded one) do not count: void.
      if (approvals.some((a) => a.digest !== digest)) {
        await voidApprovals(tx, { caseId: row.id, approvals, actor, cause: 'digest', at: now });
        approvals = [];
      }
      const rule = approvalRule(row, corrections);
      if (rule === 'centre_only') throw new HttpError(409, m.cardMissing, {}, 'card_missing');
      const supervised = rule === 'two';
      if (approvals.length) {
        if (op.rol !== 'supervisor') throw new HttpError(403, m.supervisorOnly);
        if (approvals.some((a) => a.operatorId === op.id))
          throw new HttpError(409, m.secondApprover);
      }
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
      const approval: Approval = {
        operatorId: op.id,
        usuario: op.usuario,
        at: now.toISOString(),
        digest,
      };
      if (supervised && approvals.length === 0) {
        await tx.query(
          `UPDATE cases SET approvals = $2, needs_supervisor = true,
                  claimed_by = NULL, claimed_usuario = NULL, claimed_at = NULL
            WHERE id = $1`,
          [row.id, JSON.stringify([approval])],
        );
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
      await tx.query('UPDATE cases SET approvals = $2 WHERE id = $1', [
        row.id,
        JSON.stringify([...approvals, approval]),
      ]);
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
      if (note)
        await tx.query('UPDATE cases SET reject_note = $2 WHERE id = $1', [
          row.id,
          sealer.seal(row.id, 'reject_note', note),
        ]);
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
    await tx.query(
      `UPDATE cases SET claimed_by = $2, claimed_usuario = $3, claimed_at = $4, last_activity_at = $4
        WHERE id = $1`,
      [row.id, op.id, op.usuario, now],
    );
    await audit(tx, { caseId: row.id, actor: actorOf(op), action: 'claim', at: now });
    return { id: row.id };
  });
  if (!found) throw new HttpError(404, m.codeNotFound);
  if ('error' in found) throw found.error;
  return found.id;
}

/**
 * The desk camera's photo at the health centre: a JPEG with exactly one clear face (the selfie's
 * gates), its description compared with the card's portrait as a signal, both kept sealed; on
 * approval it is the enrolled face.
 */
export const deskPhoto = (...a: Parameters<typeof takeDeskPhoto>) =>
  audited(a[0], a[1], 'desk_photo', () => takeDeskPhoto(...a));

async function takeDeskPhoto(
  ctx: AppContext,
  op: CaseOperator,
  rawId: string,
  jpeg: Buffer,
  engine: () => Promise<Pick<IdentityEngine, 'analyze' | 'config'>>,
): Promise<DeskPhotoResponse> {
  if (sniffImage(jpeg) !== 'jpeg') throw new HttpError(415, m.deskNotJpeg);
  const now = nowOf(ctx);
  // The claim is checked before the engine's work, and again when storing.
  const before = await readCase(ctx.db, caseIdOf(rawId));
  if (before.status !== 'open') throw refusedAs.decided(before.id);
  if (!holds(ctx, before, op, now)) throw refusedAs.notYours(before.id);
  if (before.kind !== 'centro') throw new HttpError(409, m.notCentro);
  const identity = await engine();
  let embedding: number[];
  try {
    const frame = await identity.analyze(jpeg);
    const gates = checkGates(frame, identity.config);
    if (!gates.ok || !gates.face.embedding)
      throw new HttpError(422, gates.hints.length ? gates.hints.join(' ') : m.deskNoFace);
    embedding = Array.from(gates.face.embedding);
  } catch (err) {
    if (err instanceof IdentityError) throw new HttpError(err.status, err.message);
    throw err;
  }
  const sealer = caseSealer(ctx);
  const portrait = sealer.openJson<number[]>(
    before.id,
    'portrait_embedding',
    before.portrait_embedding,
  );
  const similarity = portrait ? Number(cosineSimilarity(embedding, portrait).toFixed(4)) : null;
  const threshold = portrait ? identity.config.documentMatchThreshold : null;
  await ctx.db.transaction(async (tx) => {
    const row = await heldCase(ctx, tx, op, before.id, nowOf(ctx));
    await tx.query(
      'UPDATE cases SET desk = $2, desk_embedding = $3, desk_similarity = $4 WHERE id = $1',
      [
        row.id,
        sealer.seal(row.id, 'desk', jpeg),
        sealer.sealJson(row.id, 'desk_embedding', embedding),
        similarity,
      ],
    );
    await audit(tx, {
      caseId: row.id,
      actor: actorOf(op),
      action: 'desk_photo',
      detail: { similarity, threshold },
      at: now,
    });
    // Another face to enrol: what was approved is not what would be registered.
    await voidApprovals(tx, {
      caseId: row.id,
      approvals: json(row.approvals),
      actor: actorOf(op),
      cause: 'desk_photo',
      at: now,
    });
  });
  return { success: true, faceSimilarity: similarity, faceThreshold: threshold };
}
