import type { IdData } from '../../contract/onboarding';
import type { CorrectableField, OperatorRole } from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import type { Approval } from './approval';
import { audit, type AuditActor } from './audit';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import type { CaseRow } from './status';
import { touchClaim } from './store';

/**
 * An operator's access to a case (issue 30, issue 42 item 3), shared by claims, detail, decision
 * and desk: the case as the operator routes read it, who may look at it or act on it, and the
 * refusals, audited.
 */

/** The operator a route acts for (server/operators/auth.ts's OperatorIdentity, structurally). */
export type CaseOperator = { id: string; usuario: string; nombre: string; rol: OperatorRole };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Correction = {
  field: string;
  from: string;
  to: string;
  reason: string;
  operator: string;
  at: string;
};

/** A case as the operator routes read it (sealed parts still sealed). */
export type CaseFull = Pick<
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
  /** 'duplicate' cases (issue 44 item 3): the enrolled patient's record (sealed) and the scores */
  duplicate: Uint8Array | null;
  duplicate_similarity: number | null;
  duplicate_threshold: number | null;
  /** 'correction' cases (issue 45 item 5): the registered patient and which field */
  patient_id: string | null;
  correction_field: CorrectableField | null;
};

export const FULL_COLUMNS = `id::text AS id, draft_id::text AS draft_id, kind, status, trigger, step,
  opened_at, code_expires_at, fields, corrections, selfie_embedding, portrait_embedding,
  desk_embedding, engine_reasons, engine_signals, face_similarity, face_threshold, attempts_liveness,
  attempts_scans, needs_supervisor, claimed_by, last_activity_at, approvals, decided_by,
  (selfie IS NOT NULL) AS has_selfie, (portrait IS NOT NULL) AS has_portrait,
  (front IS NOT NULL) AS has_front, (back IS NOT NULL) AS has_back, (desk IS NOT NULL) AS has_desk,
  patient_claim, duplicate, duplicate_similarity, duplicate_threshold, patient_id::text AS patient_id,
  correction_field`;

/** jsonb arrives parsed (pg, PGlite); a string is parsed, for any driver that does not. */
export const json = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

export const actorOf = (op: CaseOperator): AuditActor => ({ id: op.id, usuario: op.usuario });
export const nowOf = (ctx: AppContext) => new Date(ctx.clock.now());
export const idleCutoff = (ctx: AppContext, now: Date) =>
  new Date(now.getTime() - ctx.cases.claimIdleMs);

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

export const refusedAs = {
  notYours: (id: string) => new CaseRefused(id, 'not_yours', 403, m.notYours),
  notHeld: (id: string) => new CaseRefused(id, 'not_held', 409, m.notHeld, 'claim_lost'),
  claimIdle: (id: string) => new CaseRefused(id, 'claim_idle', 409, m.claimLost, 'claim_lost'),
  decided: (id: string) => new CaseRefused(id, 'decided', 409, m.notOpen, 'case_decided'),
};

/**
 * Runs an operator's look or action on a case; a refusal of access is audited ('refused', outside
 * the action's transaction, which it rolled back) and thrown on.
 */
export async function audited<T>(
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

export function caseIdOf(raw: string): string {
  if (!UUID.test(raw)) throw new HttpError(404, m.badCaseId);
  return raw.toLowerCase();
}

export async function readCase(db: Db, id: string, lock = false): Promise<CaseFull> {
  const { rows } = await db.query<CaseFull>(
    `SELECT ${FULL_COLUMNS} FROM cases WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw new HttpError(404, m.badCaseId);
  return rows[0];
}

export const holds = (ctx: AppContext, row: CaseFull, op: CaseOperator, now: Date) =>
  row.status === 'open' &&
  row.claimed_by === op.id &&
  !!row.last_activity_at &&
  new Date(row.last_activity_at) >= idleCutoff(ctx, now);

/**
 * The open case this operator holds, locked, its claim's idle time reset: 404 unknown, 409 decided,
 * 403 held by someone else (or nobody), 409 the claim went idle. Inside a transaction.
 */
export async function heldCase(
  ctx: AppContext,
  tx: Db,
  op: CaseOperator,
  rawId: string,
  now: Date,
) {
  const row = await readCase(tx, caseIdOf(rawId), true);
  if (row.status !== 'open') throw refusedAs.decided(row.id);
  // Nobody holds it: a concurrent decision (or an approval awaiting a supervisor) let it go.
  if (row.claimed_by === null) throw refusedAs.notHeld(row.id);
  if (row.claimed_by !== op.id) throw refusedAs.notYours(row.id);
  if (!holds(ctx, row, op, now)) throw refusedAs.claimIdle(row.id);
  await touchClaim(tx, row.id, now);
  return row;
}

/**
 * A case this operator may look at: the open case it holds, or a decided case it took part in
 * (approved or decided). Anyone else: 403 (and nothing is shown).
 */
export async function visibleCase(ctx: AppContext, op: CaseOperator, rawId: string, now: Date) {
  const row = await readCase(ctx.db, caseIdOf(rawId));
  if (row.status === 'open') {
    if (row.claimed_by !== op.id) throw refusedAs.notYours(row.id);
    if (!holds(ctx, row, op, now)) throw refusedAs.claimIdle(row.id);
    await touchClaim(ctx.db, row.id, now);
    return row;
  }
  const approvedBy = json(row.approvals).some((a) => a.operatorId === op.id);
  if (row.decided_by !== op.id && !approvedBy) throw refusedAs.notYours(row.id);
  return row;
}

export function currentFields(ctx: AppContext, row: CaseFull) {
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
