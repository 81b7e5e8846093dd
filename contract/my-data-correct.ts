import * as z from 'zod/mini';
import { idFieldValues, IDENTITY_FIELDS } from './case-fields';
import { REJECT_REASONS } from './cases';
import { plainText } from './common';

/**
 * 'Corregir' (issue 45 item 5): from Mis datos the signed-in patient asks that one identity field
 * say another value, with a reason; a person of the service decides it (a 'correction' case). The
 * session says who: nothing here names a patient.
 */
export const correctPaths = {
  requests: '/api/mis-datos/correcciones',
} as const;

/** How long the patient's reason may be (one line of plain text). */
export const CORRECTION_REQUEST_REASON = { min: 5, max: 300 } as const;

const reason = plainText(CORRECTION_REQUEST_REASON.min, CORRECTION_REQUEST_REASON.max);
const requestOf = <F extends (typeof IDENTITY_FIELDS)[number]>(field: F) =>
  z.object({ field: z.literal(field), value: idFieldValues[field], reason });

// POST /api/mis-datos/correcciones {field, value, reason}: each value by its field's rule, the
// same the back office's corrections follow (contract/case-fields.ts)
export const correctionRequest = z.discriminatedUnion('field', [
  requestOf('FullName'),
  requestOf('DocumentNumber'),
  requestOf('DateOfBirth'),
  requestOf('Gender'),
  requestOf('Nationality'),
  requestOf('MaritalStatus'),
]);
export type CorrectionRequest = z.infer<typeof correctionRequest>;
export type CorrectionField = CorrectionRequest['field'];

/** pending: a person has not decided yet; approved: the field says the asked value now. */
export const CORRECTION_STATES = ['pending', 'approved', 'rejected'] as const;
export type CorrectionState = (typeof CORRECTION_STATES)[number];

export const correctionItem = z.object({
  id: z.string(),
  field: z.enum(IDENTITY_FIELDS),
  /** what the patient asked (null once the case's data was purged) */
  asked: z.nullable(z.string()),
  state: z.enum(CORRECTION_STATES),
  /** ISO 8601 */
  openedAt: z.string(),
  decidedAt: z.nullable(z.string()),
  /** rejected: the reason from the list, and the person's note to the patient when they wrote one */
  rejectReason: z.nullable(z.enum(REJECT_REASONS)),
  note: z.nullable(z.string()),
});
export type CorrectionItem = z.infer<typeof correctionItem>;

// GET /api/mis-datos/correcciones: the patient's requests, newest first
export const correctionsResponse = z.object({
  success: z.literal(true),
  requests: z.array(correctionItem),
});
export type CorrectionsResponse = z.infer<typeof correctionsResponse>;

// POST answers the request as it now is
export const correctionResponse = z.object({ success: z.literal(true), request: correctionItem });
export type CorrectionResponse = z.infer<typeof correctionResponse>;
