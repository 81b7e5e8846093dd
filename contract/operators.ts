import * as z from 'zod/mini';
import { plainText } from './common';
import {
  OPERATOR_CASE_KINDS,
  CASE_STEPS,
  CASE_TRIGGERS,
  caseFields,
  centreCode,
  patientClaim,
  REJECT_REASONS,
} from './cases';
import { IDENTITY_FIELDS, idFieldValues } from './case-fields';
import { isIdentityReason } from './identity';

/**
 * Assisted verification (issue 30), the back office at /operador: operators enrolled by the
 * command `npm run operadores -- add` register a passkey through a one-time link and log in with it
 * only. Paths under /api/operador. Operator sessions are their own cookie; every route checks the
 * role. Every call that changes something is a POST with a JSON body (or image/jpeg for the desk
 * photo) and is refused cross-site (Origin and Sec-Fetch-Site checked).
 */

export const OPERATOR_ROLES = ['revisor', 'supervisor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Where the enrolment link opens; its token travels in the fragment (#...), never in a logged URL. */
export const OPERATOR_ENROL_PATH = '/operador/alta';
export const OPERATOR_PATH = '/operador';
/**
 * The refusal's `reason` when the page's host is an IP address (browsers refuse passkeys there):
 * the page says to open it on localhost or the site's name (issue 43 item 3).
 */
export const OPERATOR_HOST_IS_IP = 'host_is_ip';
/** 32 random bytes, base64url, like every bearer token of the product. */
export const OPERATOR_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const enrolToken = z.string().check(z.regex(OPERATOR_TOKEN_PATTERN));

export const operatorProfile = z.object({
  usuario: z.string(),
  nombre: z.string(),
  rol: z.enum(OPERATOR_ROLES),
});
export type OperatorProfile = z.infer<typeof operatorProfile>;

/**
 * WebAuthn options and responses travel as @simplewebauthn's JSON types (base64url strings); the
 * contract checks only that they are objects: @simplewebauthn/server verifies them.
 */
const webauthnJson = z.looseObject({});

// POST /api/operador/alta/opciones {token}: the passkey creation options for this enrolment
export const enrolOptionsRequest = z.object({ token: enrolToken });
export const enrolOptionsResponse = z.object({
  success: z.literal(true),
  operator: operatorProfile,
  /** PublicKeyCredentialCreationOptionsJSON */
  options: webauthnJson,
});
export type EnrolOptionsResponse = z.infer<typeof enrolOptionsResponse>;

// POST /api/operador/alta/verificar {token, response}: the passkey is registered, the link is spent,
// the operator is logged in (Set-Cookie)
export const enrolVerifyRequest = z.object({ token: enrolToken, response: webauthnJson });
export const sessionResponse = z.object({ success: z.literal(true), operator: operatorProfile });
export type SessionResponse = z.infer<typeof sessionResponse>;

// POST /api/operador/ingreso/opciones {}: options for a discoverable-credential assertion; the
// challenge is kept server-side under `challengeId` (single use, 5 minutes)
export const loginOptionsResponse = z.object({
  success: z.literal(true),
  challengeId: z.string(),
  /** PublicKeyCredentialRequestOptionsJSON */
  options: webauthnJson,
});
export type LoginOptionsResponse = z.infer<typeof loginOptionsResponse>;

// POST /api/operador/ingreso/verificar {challengeId, response}: logged in (Set-Cookie)
export const loginVerifyRequest = z.object({
  challengeId: plainText(1, 64),
  response: webauthnJson,
});

// GET /api/operador/sesion: who is logged in (401 when nobody); POST /api/operador/salir: log out

/** A case in the queue: age and reasons, never personal data. */
export const queuedCase = z.object({
  id: z.string(),
  kind: z.enum(OPERATOR_CASE_KINDS),
  trigger: z.enum(CASE_TRIGGERS),
  /** ISO 8601 */
  openedAt: z.string(),
  /** approved once; a different operator with the supervisor role decides now */
  needsSupervisor: z.boolean(),
});
export type QueuedCase = z.infer<typeof queuedCase>;

// GET /api/operador/casos: open review cases, oldest first (at most 100) and how many in all
export const queueResponse = z.object({
  success: z.literal(true),
  cases: z.array(queuedCase),
  total: z.int(),
});
export type QueueResponse = z.infer<typeof queueResponse>;

// POST /api/operador/casos/tomar {}: claims the oldest case this operator may decide, atomically
// (two operators never get the same one); a claim idle 30 minutes returns to the queue
export const claimResponse = z.object({
  success: z.literal(true),
  /** null: nothing to take */
  caseId: z.nullable(z.string()),
});
export type ClaimResponse = z.infer<typeof claimResponse>;

const EVIDENCE_IMAGES = ['selfie', 'portrait', 'front', 'back', 'desk'] as const;
export type EvidenceImage = (typeof EVIDENCE_IMAGES)[number];

/**
 * What a case's approval is of (issue 42): SHA-256, in hex, of the canonical JSON of the fields to
 * register, the face to enrol and the evidence shown. The page sends the digest of the case it
 * shows with 'approve'; a correction or a new desk photo changes it and voids earlier approvals.
 */
export const APPROVAL_DIGEST_PATTERN = /^[0-9a-f]{64}$/;
const approvalDigest = z.string().check(z.regex(APPROVAL_DIGEST_PATTERN));

/**
 * How a case may be approved (issue 42):
 * - one: one approval registers the patient;
 * - two: a second approval, of the same digest, by a different operator with the supervisor role
 *   (faces that differ, two cards, a face no engine compared with the card's portrait, or a name or
 *   number typed on a remote case);
 * - centre_only: nobody saw a card (a remote case without its front): no approval here; ask for the
 *   front again, or reject so that the patient verifies at a health centre with the card in hand.
 */
export const APPROVAL_RULES = ['one', 'two', 'centre_only'] as const;
export type ApprovalRule = (typeof APPROVAL_RULES)[number];

/** Where a field's value comes from: read by the engine from the card, typed by an operator, none. */
export const FIELD_ORIGINS = ['read', 'typed', 'missing'] as const;
export type FieldOrigin = (typeof FIELD_ORIGINS)[number];

/** The identity fields an operator may correct, each by its schema (contract/case-fields.ts). */
export const CORRECTABLE_FIELDS = IDENTITY_FIELDS;
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];

/** An engine reason code: shown in words by the back office's copy (unknown codes as they are). */
const engineReason = z.string().check(z.refine((v) => isIdentityReason(v) || v.length < 64));

/** The enrolled patient a 'duplicate' case is about (no face: enrolments keep descriptions only). */
export const duplicateOf = z.object({
  documento: z.string(),
  nombre: z.string(),
  /** ISO 8601: when that patient registered */
  registeredAt: z.string(),
  /** exact cosine similarity of the two faces, and the duplicate threshold (0..1) */
  similarity: z.number(),
  threshold: z.number(),
});
export type DuplicateOf = z.infer<typeof duplicateOf>;

// GET /api/operador/casos/:id: the case the operator holds (its claim) or decided; recorded in the
// audit log as a look ('view')
export const caseDetail = z.object({
  id: z.string(),
  kind: z.enum(OPERATOR_CASE_KINDS),
  status: z.enum(['open', 'approved', 'rejected', 'repeat', 'expired']),
  trigger: z.enum(CASE_TRIGGERS),
  step: z.enum(CASE_STEPS),
  openedAt: z.string(),
  /** the fields read from the card, with operators' corrections applied */
  fields: caseFields,
  corrections: z.array(
    z.object({
      field: z.string(),
      from: z.string(),
      to: z.string(),
      reason: z.string(),
      operator: z.string(),
      at: z.string(),
    }),
  ),
  /** the engine's refusals in this registration, oldest first */
  engineReasons: z.array(engineReason),
  /**
   * the selfie challenge's signals in this registration (issue 31: 'virtual_camera',
   * 'clock_backwards', 'clock_ahead', 'tag_mismatch', counts): never verdicts; absent from an older server
   */
  engineSignals: z.optional(z.record(z.string(), z.number())),
  /** face similarity of the selfie and the card's portrait (0..1) and the threshold, when measured */
  faceSimilarity: z.nullable(z.number()),
  faceThreshold: z.nullable(z.number()),
  /** liveness attempts used and the document scans tried */
  attempts: z.object({ liveness: z.int(), scans: z.int() }),
  /** which images the case holds (each fetched alone, each fetch audited) */
  images: z.array(z.enum(EVIDENCE_IMAGES)),
  /**
   * approvals so far (a supervised case needs two, by different operators), each with the digest it
   * was of (null: given before approvals recorded one)
   */
  approvals: z.array(
    z.object({ operator: z.string(), at: z.string(), digest: z.nullable(z.string()) }),
  ),
  needsSupervisor: z.boolean(),
  /** the digest of what this answer shows: 'approve' sends it back */
  digest: approvalDigest,
  approvalRule: z.enum(APPROVAL_RULES),
  /** for each field: read by the engine from the card, typed by an operator, or none */
  fieldOrigins: z.record(z.enum(CORRECTABLE_FIELDS), z.enum(FIELD_ORIGINS)),
  /** this operator holds the case's claim (may decide) */
  claimedByMe: z.boolean(),
  /** centro cases: the code's deadline */
  expiresAt: z.nullable(z.string()),
  /**
   * what the patient said was read wrong (issue 43 item 7): their claim, not a correction; absent
   * from an older server
   */
  patientClaim: z.optional(z.nullable(patientClaim)),
  /**
   * 'duplicate' cases (issue 44 item 3): the enrolled patient whose face the new registration's is,
   * for the supervisor only (never the registering patient), and the exact similarity and the
   * threshold it passed; absent from other kinds and from an older server
   */
  duplicate: z.optional(z.nullable(duplicateOf)),
});
export type CaseDetail = z.infer<typeof caseDetail>;
export const caseDetailResponse = z.object({ success: z.literal(true), case: caseDetail });

// GET /api/operador/casos/:id/imagen/:image -> image/jpeg (no-store), audited as 'image'

// POST /api/operador/casos/:id/campos {field, value, reason}: one field corrected (audited)
// (issue 42: the value by its field's schema, contract/case-fields.ts; the date kept as AAAA-MM-DD)
export const CORRECTION_REASON = { min: 3, max: 300 } as const;
const correctionReason = plainText(CORRECTION_REASON.min, CORRECTION_REASON.max);
const correctionOf = <F extends CorrectableField>(field: F) =>
  z.object({ field: z.literal(field), value: idFieldValues[field], reason: correctionReason });
export const correctFieldRequest = z.discriminatedUnion('field', [
  correctionOf('FullName'),
  correctionOf('DocumentNumber'),
  correctionOf('DateOfBirth'),
  correctionOf('Gender'),
  correctionOf('Nationality'),
  correctionOf('MaritalStatus'),
]);
export type CorrectFieldRequest = z.infer<typeof correctFieldRequest>;
/** Whether a typed value passes its field's rule (the form says which rule failed). */
export const isValidCorrectionValue = (field: CorrectableField, value: string): boolean =>
  idFieldValues[field].safeParse(value).success;

// POST /api/operador/casos/:id/decision
export const decisionRequest = z.discriminatedUnion('decision', [
  // the digest of the case as the page showed it (caseDetail.digest)
  z.object({ decision: z.literal('approve'), digest: approvalDigest }),
  z.object({
    decision: z.literal('reject'),
    reason: z.enum(REJECT_REASONS),
    note: z.optional(plainText(0, 300)),
  }),
  z.object({ decision: z.literal('repeat'), step: z.enum(CASE_STEPS) }),
]);
export type DecisionRequest = z.input<typeof decisionRequest>;
export const decisionResponse = z.object({
  success: z.literal(true),
  /** 'awaiting_supervisor': approved once, a supervisor decides next */
  outcome: z.enum(['approved', 'awaiting_supervisor', 'rejected', 'repeat']),
});
export type DecisionResponse = z.infer<typeof decisionResponse>;

// POST /api/operador/casos/:id/soltar {}: the claim returns to the queue

// POST /api/operador/codigos {code}: a health-centre code; the case is claimed by this operator.
// Rate-limited per operator and overall (429 with Retry-After).
export const codeLookupRequest = z.object({ code: centreCode });
export const codeLookupResponse = z.object({ success: z.literal(true), caseId: z.string() });

// POST /api/operador/casos/:id/foto (image/jpeg body): the desk camera's live photo of the patient
// at the health centre; it becomes the patient's enrolled face once the case is approved. The
// face match against the card's portrait is a signal, not a verdict.
export const deskPhotoResponse = z.object({
  success: z.literal(true),
  /** null: no portrait to compare with (no card read) */
  faceSimilarity: z.nullable(z.number()),
  faceThreshold: z.nullable(z.number()),
});
export type DeskPhotoResponse = z.infer<typeof deskPhotoResponse>;

/** The back office's paths (the browser's one list; the server registers them under the prefix). */
export const OPERATOR_API_PREFIX = '/api/operador';
const caseUrl = (id: string) => `${OPERATOR_API_PREFIX}/casos/${encodeURIComponent(id)}`;
export const operatorPaths = {
  session: `${OPERATOR_API_PREFIX}/sesion`,
  logout: `${OPERATOR_API_PREFIX}/salir`,
  enrolOptions: `${OPERATOR_API_PREFIX}/alta/opciones`,
  enrolVerify: `${OPERATOR_API_PREFIX}/alta/verificar`,
  loginOptions: `${OPERATOR_API_PREFIX}/ingreso/opciones`,
  loginVerify: `${OPERATOR_API_PREFIX}/ingreso/verificar`,
  queue: `${OPERATOR_API_PREFIX}/casos`,
  claim: `${OPERATOR_API_PREFIX}/casos/tomar`,
  codeLookup: `${OPERATOR_API_PREFIX}/codigos`,
  case: caseUrl,
  caseImage: (id: string, image: EvidenceImage) => `${caseUrl(id)}/imagen/${image}`,
  correction: (id: string) => `${caseUrl(id)}/campos`,
  decision: (id: string) => `${caseUrl(id)}/decision`,
  release: (id: string) => `${caseUrl(id)}/soltar`,
  deskPhoto: (id: string) => `${caseUrl(id)}/foto`,
} as const;
