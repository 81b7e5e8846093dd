import * as z from 'zod/mini';
import { IDENTITY_FIELDS } from './case-fields';
import { plainText, REGISTRATION_TOKEN_PATTERN } from './common';
import { idData } from './identity';

/**
 * Assisted verification (issue 30), the patient's side: when automatic identity verification
 * cannot decide, a person reviews the case ('Que lo revise una persona', kind `review`) or the
 * patient verifies at a health centre with a code ('Verificar en un centro de salud', kind
 * `centro`). Paths under /api/onboarding; every call names its registration by token.
 */

/** What the patient (or the machine) was stuck on when the case was opened. */
export const CASE_TRIGGERS = [
  'patient_choice', // 'No puedo completar este paso', on any identity step
  'liveness_failed', // the selfie did not pass in the allowed attempts
  'document_unreadable', // the card unreadable twice (front or back)
  'no_face_on_document', // no portrait found on the front, twice
  'face_mismatch', // faces differ (a second, supervisor approval needed)
  'document_mismatch', // front and back of different cards (a second, supervisor approval needed)
  'no_camera', // no usable camera, even on the phone
  // the verified face is an enrolled patient's, with another document (issue 44 item 3): opened by
  // registration itself, never by the patient; a supervisor decides it
  'possible_duplicate',
  // a registered patient asked from Mis datos that a field be corrected (issue 45 item 5)
  'patient_correction',
] as const;
export type CaseTrigger = (typeof CASE_TRIGGERS)[number];

/** The triggers whose approval needs a second, different operator with the supervisor role. */
export const SUPERVISED_TRIGGERS: readonly CaseTrigger[] = ['face_mismatch', 'document_mismatch'];

/** Which identity step the patient was on (the one a 'repeat' decision reopens). */
export const CASE_STEPS = ['selfie', 'front', 'back'] as const;
export type CaseStep = (typeof CASE_STEPS)[number];

/** The cases a patient opens (openCaseRequest) and sees (caseStatus). */
export const CASE_KINDS = ['review', 'centro'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/**
 * Every kind the back office works: the patient's two and 'duplicate' (issue 44 item 3, 'Posible
 * duplicado'), which registration opens when the verified face is an enrolled patient's with another
 * document number. Its patient sees it as a person's review ('review'), never the other patient.
 * And 'correction' (issue 45 item 5, 'Corrección de datos'): a registered patient's request from
 * Mis datos that one identity field be changed; the patient sees it in Mis datos only.
 */
export const OPERATOR_CASE_KINDS = [...CASE_KINDS, 'duplicate', 'correction'] as const;
export type OperatorCaseKind = (typeof OPERATOR_CASE_KINDS)[number];

/**
 * open: waiting for a person (review) or for the visit (centro); approved, rejected, repeat: the
 * decision (repeat names the step); expired: a centro code past its deadline, never visited.
 */
export const CASE_STATUSES = ['open', 'approved', 'rejected', 'repeat', 'expired'] as const;
export type CaseStatusName = (typeof CASE_STATUSES)[number];

/** A rejection's reason, from a list (the operator picks one; the patient reads it in Spanish). */
export const REJECT_REASONS = [
  'faces_differ', // the person is not the card's
  'document_invalid', // not a valid cédula, expired or illegible
  'document_tampered', // signs of alteration
  'photos_unusable', // the photos do not let anyone decide
  'duplicate_person', // the face is an enrolled patient's (issue 44 item 3): a health centre, or PIN recovery
  'other',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/**
 * A health-centre code: 8 characters from an alphabet with nothing to confuse when read aloud
 * (no 0/O, 1/I/L, 2/Z, 5/S, 8/B), shown and typed as XXXX-XXXX; the hyphen and case are optional.
 */
export const CENTRE_CODE_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export const CENTRE_CODE_LENGTH = 8;
export function normalizeCentreCode(raw: string): string | null {
  const code = raw.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== CENTRE_CODE_LENGTH) return null;
  return [...code].every((c) => CENTRE_CODE_ALPHABET.includes(c)) ? code : null;
}
export const formatCentreCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
export const centreCode = z.string().check(
  z.maxLength(16),
  z.refine((v) => normalizeCentreCode(v) !== null),
);

/** The case as its patient sees it (never an operator's name, never the engine's scores). */
export const caseStatus = z.object({
  kind: z.enum(CASE_KINDS),
  status: z.enum(CASE_STATUSES),
  trigger: z.enum(CASE_TRIGGERS),
  /** ISO 8601 */
  openedAt: z.string(),
  /** review: when to expect an answer (ISO 8601); centro: the code's deadline */
  expectedBy: z.string(),
  /** centro only: the code, normalised (8 characters; the view formats it XXXX-XXXX) */
  code: z.optional(z.string()),
  /** rejected only */
  rejectReason: z.optional(z.enum(REJECT_REASONS)),
  /** repeat only: the one step to do again */
  repeatStep: z.optional(z.enum(CASE_STEPS)),
});
export type CaseStatus = z.infer<typeof caseStatus>;

const registrationToken = z.string().check(z.regex(REGISTRATION_TOKEN_PATTERN));

/** The identity fields the patient may say were read wrong (the review's 'Hay un dato mal'). */
export const CLAIM_FIELDS = IDENTITY_FIELDS;
export type ClaimField = (typeof CLAIM_FIELDS)[number];
/** How long what the patient says a field should say may be. */
export const CLAIM_SAYS_MAX = 80;

/**
 * The patient's claim (issue 43 item 7): which field read from the card is wrong and, optionally,
 * what they say it should say. Shown to the reviewer as the patient's words, never applied: an
 * operator corrects a field by its own schema (contract/case-fields.ts).
 */
export const patientClaim = z.object({
  field: z.enum(CLAIM_FIELDS),
  says: z.optional(plainText(1, CLAIM_SAYS_MAX)),
});
export type PatientClaim = z.infer<typeof patientClaim>;

// POST /api/onboarding/registration/case: open a case for this registration (or answer the one
// already open: one open case per registration). A review case that no operator has taken yet can
// become a centro case (the patient changed their mind); a rejected review case can open a centro
// case. The case takes what the registration's KYC session already captured (server-side, sealed).
export const openCaseRequest = z.object({
  registrationToken,
  kind: z.enum(CASE_KINDS),
  trigger: z.enum(CASE_TRIGGERS),
  step: z.enum(CASE_STEPS),
  /** a review the patient asked for from the review of their data: the field they say is wrong */
  claim: z.optional(patientClaim),
});
export type OpenCaseRequest = z.input<typeof openCaseRequest>;
export const openCaseResponse = z.object({
  success: z.literal(true),
  case: caseStatus,
  message: z.optional(z.string()),
});
export type OpenCaseResponse = z.infer<typeof openCaseResponse>;

// POST /api/onboarding/registration/case/status: the registration's latest case, or null
export const caseStatusRequest = z.object({ registrationToken });
export const caseStatusResponse = z.object({
  success: z.literal(true),
  case: z.nullable(caseStatus),
});
export type CaseStatusResponse = z.infer<typeof caseStatusResponse>;

/** A health centre that verifies identities (configured data; by department). */
const centre = z.object({
  nombre: z.string(),
  direccion: z.string(),
  ciudad: z.string(),
  /** opening hours in words, e.g. 'Lunes a viernes, 7:00 a 13:00' */
  horario: z.string(),
});
export type HealthCentre = z.infer<typeof centre>;

// GET /api/onboarding/centros: the centres that verify, by department (departments without one
// are left out)
export const centresResponse = z.array(
  z.object({ departamento: z.string(), centros: z.array(centre) }),
);
export type CentresResponse = z.infer<typeof centresResponse>;

/** A case's identity fields, as read by the engine or corrected by an operator. */
export const caseFields = idData;

/**
 * register's 409 answers that are a wait for a person, not 'the patient exists' (issue 44 item 3):
 * a possible duplicate opened a case, or a case is still open. The browser shows their message.
 */
export const REGISTER_WAITS = ['possible_duplicate', 'case_open'] as const;
export type RegisterWait = (typeof REGISTER_WAITS)[number];

/** Codes the server may put in `reason` for a case refusal (4xx): the browser branches on them. */
export const CASE_REFUSALS = [
  'case_taken', // a person already took the review: it cannot become a centro case now
  'case_decided', // decided already: read the status
  'registration_complete', // the patient finished registering
] as const;
export type CaseRefusal = (typeof CASE_REFUSALS)[number];

/** The assisted verification's paths: under /api/onboarding, each call naming its registration. */
export const casesPaths = {
  openCase: '/api/onboarding/registration/case',
  caseStatus: '/api/onboarding/registration/case/status',
  centres: '/api/onboarding/centros',
} as const;
