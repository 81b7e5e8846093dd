import { createHash } from 'node:crypto';
import { SUPERVISED_TRIGGERS, type CaseTrigger, type OperatorCaseKind } from '../../contract/cases';
import type { IdData } from '../../contract/onboarding';
import {
  CORRECTABLE_FIELDS,
  type ApprovalRule,
  type CorrectableField,
  type EvidenceImage,
  type FieldOrigin,
} from '../../contract/operators';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { audit, type AuditActor } from './audit';
import { caseSealer } from './seal';
import { clearApprovals } from './store';

/**
 * Four-eyes bound to content (issue 42, item 1). An approval is of a digest: SHA-256 over the
 * canonical JSON of what its operator saw and what an approval registers (the fields, the face to
 * enrol, the evidence and the engine's findings). A correction or a new desk photo voids the
 * approvals given before it (audited 'void'); a second approval must be of the same digest. Which
 * cases need a second approval, or cannot be approved away from a health centre, is `approvalRule`.
 */

/** One approval as the case keeps it (`cases.approvals`, jsonb); no digest: given before issue 42. */
export type Approval = { operatorId: string; usuario: string; at: string; digest?: string };

/** The case's columns the rules read (the operator routes' CaseFull has them all). */
type ApprovalRow = {
  id: string;
  kind: OperatorCaseKind;
  trigger: CaseTrigger;
  face_similarity: number | null;
  face_threshold: number | null;
  engine_reasons: string[] | string;
  selfie_embedding: Uint8Array | null;
  desk_embedding: Uint8Array | null;
  has_front: boolean;
  has_portrait: boolean;
};

const IMAGES: readonly EvidenceImage[] = ['selfie', 'portrait', 'front', 'back', 'desk'];
/** The fields a person may type that make an identity: typed on a remote case, a second look. */
const IDENTITY_FIELDS: readonly CorrectableField[] = ['FullName', 'DocumentNumber'];

/** JSON with object keys sorted at every level: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The digest of the case as it would be approved now: its current fields (corrections applied),
 * the face an approval enrols (the desk photo's, else the selfie's: its image and its description),
 * every image the case holds and the engine's reasons and scores. Images are hashed opened, so
 * the digest is of what the operator was shown.
 */
export async function approvalDigest(
  ctx: AppContext,
  db: Db,
  row: ApprovalRow,
  fields: IdData,
): Promise<string> {
  const sealer = caseSealer(ctx);
  const { rows } = await db.query<Record<EvidenceImage, Uint8Array | null>>(
    'SELECT selfie, portrait, front, back, desk FROM cases WHERE id = $1',
    [row.id],
  );
  const sealed = rows[0];
  const evidence = Object.fromEntries(
    IMAGES.map((image) => {
      const bytes = sealer.open(row.id, image, sealed?.[image] ?? null);
      return [image, bytes ? sha256(bytes) : null];
    }),
  ) as Record<EvidenceImage, string | null>;
  const from = row.desk_embedding ? 'desk' : row.selfie_embedding ? 'selfie' : null;
  const description =
    from === 'desk'
      ? sealer.open(row.id, 'desk_embedding', row.desk_embedding)
      : sealer.open(row.id, 'selfie_embedding', row.selfie_embedding);
  const engineReasons =
    typeof row.engine_reasons === 'string' ? JSON.parse(row.engine_reasons) : row.engine_reasons;
  return sha256(
    canonicalJson({
      version: 1,
      case: row.id,
      fields: Object.fromEntries(CORRECTABLE_FIELDS.map((f) => [f, fields[f]])),
      face: {
        from,
        image: from ? evidence[from] : null,
        description: description ? sha256(description) : null,
      },
      evidence,
      engine: {
        reasons: engineReasons,
        faceSimilarity: row.face_similarity,
        faceThreshold: row.face_threshold,
      },
    }),
  );
}

/**
 * How the case may be approved (contract/operators.ts APPROVAL_RULES). A remote ('review') case
 * where nobody saw a card is decided only at a health centre, card in hand: two people typing a
 * name and a number they never saw are no better than one. A remote case whose face no engine
 * compared with the card's portrait, or whose name or number an operator typed, needs a second
 * approval; so do the supervised triggers anywhere. At a health centre the operator holds the card
 * and takes the desk photo: one approval.
 */
export function approvalRule(
  row: ApprovalRow,
  corrections: ReadonlyArray<{ field: string }>,
): ApprovalRule {
  // A 'posible duplicado' (issue 44 item 3): one approval, a supervisor's (decision.ts).
  if (row.kind === 'duplicate') return 'one';
  if (row.kind === 'correction') return correctionRule(row, corrections);
  const remote = row.kind === 'review';
  if (remote && !row.has_front) return 'centre_only';
  if (SUPERVISED_TRIGGERS.includes(row.trigger)) return 'two';
  if (!remote) return 'one';
  const compared = row.face_similarity !== null && row.has_portrait;
  const typed = corrections.some((c) => (IDENTITY_FIELDS as readonly string[]).includes(c.field));
  return compared && !typed ? 'one' : 'two';
}

/**
 * A registered patient's correction (issue 45 item 5), remote as a review: the name or the number
 * they log in with changes with a card to look at and two people (a second approval, a
 * supervisor's), and not at all from a distance without one (the patient goes to a health centre,
 * card in hand); any other field, with one approval.
 */
function correctionRule(
  row: Pick<ApprovalRow, 'has_front'>,
  corrections: ReadonlyArray<{ field: string }>,
): ApprovalRule {
  const identity = corrections.some((c) =>
    (IDENTITY_FIELDS as readonly string[]).includes(c.field),
  );
  if (!identity) return 'one';
  return row.has_front ? 'two' : 'centre_only';
}

/** Each field: typed by an operator (a correction), read by the engine, or neither. */
export function fieldOrigins(
  read: Partial<IdData> | null,
  corrections: ReadonlyArray<{ field: string }>,
): Record<CorrectableField, FieldOrigin> {
  const typed = new Set(corrections.map((c) => c.field));
  return Object.fromEntries(
    CORRECTABLE_FIELDS.map((f) => [
      f,
      typed.has(f) ? 'typed' : read?.[f]?.trim() ? 'read' : 'missing',
    ]),
  ) as Record<CorrectableField, FieldOrigin>;
}

/**
 * A correction or a new desk photo changed what was approved: the approvals given are void, the
 * case needs its approvals again (a first one, then the second where the rule asks for it).
 * Audited 'void' with who had approved and what changed. Inside the change's transaction.
 */
export async function voidApprovals(
  tx: Db,
  entry: {
    caseId: string;
    approvals: Approval[];
    actor: AuditActor;
    cause: 'correct' | 'desk_photo' | 'digest';
    at: Date;
  },
): Promise<void> {
  if (!entry.approvals.length) return;
  await clearApprovals(tx, entry.caseId);
  await audit(tx, {
    caseId: entry.caseId,
    actor: entry.actor,
    action: 'void',
    detail: { approvals: entry.approvals.map((a) => a.usuario), cause: entry.cause },
    at: entry.at,
  });
}
