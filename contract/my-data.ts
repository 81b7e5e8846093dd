import * as z from 'zod/mini';
import { IDENTITY_FIELDS } from './case-fields';

/** 'Mis datos' (issue 45): what the service holds about the signed-in patient, and who looked. */
export const myDataPaths = {
  data: '/api/mis-datos',
  accesses: '/api/mis-datos/accesos',
} as const;

/** Who wrote an identity field: the engine that read the cédula, or a person who corrected it. */
export const FIELD_SOURCES = ['engine', 'person'] as const;

/** The evidence a case may still keep (sealed) until its purge. */
export const EVIDENCE_PARTS = ['selfie', 'portrait', 'front', 'back', 'desk', 'fields'] as const;

export const myDataResponse = z.object({
  success: z.literal(true),
  identity: z.array(
    z.object({
      field: z.enum(IDENTITY_FIELDS),
      value: z.nullable(z.string()),
      source: z.enum(FIELD_SOURCES),
    }),
  ),
  celular: z.nullable(z.string()),
  email: z.nullable(z.string()),
  registeredAt: z.string(),
  /**
   * when the terms and privacy notice were accepted, and which versions of the terms (`version`)
   * and of the privacy notice (null: not recorded: patients registered before it was, issue 45)
   */
  terms: z.object({
    acceptedAt: z.nullable(z.string()),
    version: z.nullable(z.string()),
    privacyVersion: z.nullable(z.string()),
  }),
  face: z.object({ enrolled: z.boolean(), since: z.nullable(z.string()) }),
  evidence: z.array(
    z.object({ parts: z.array(z.enum(EVIDENCE_PARTS)), until: z.nullable(z.string()) }),
  ),
});
export type MyDataResponse = z.infer<typeof myDataResponse>;

/** Every kind of look at a patient's data or way into their account. */
export const ACCESS_KINDS = [
  // an operator of the back office opened the case, an image of it, or found it by its code
  'case_view',
  'case_image',
  'case_lookup',
  'login',
  'pin_recovery',
  'face_login',
  'kiosk',
  // the patient opened Mis datos
  'my_data',
  // the patient's own requests: a download built, the secondary-use choice changed (items 2, 7)
  'download',
  'secondary_use',
  // the patient asked to delete their account (PIN and SMS code), or cancelled it (issue 45 item 6)
  'deletion_request',
  'deletion_cancel',
  // 'Mi rostro' (issue 45 item 4): the patient locked, unlocked or withdrew their face
  'face_lock',
  'face_unlock',
  'face_withdraw',
  // the patient asked that a field be corrected (issue 45 item 5)
  'correction',
] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

export const OPERATOR_ROLES = ['revisor', 'supervisor'] as const;

export const accessesResponse = z.object({
  success: z.literal(true),
  accesses: z.array(
    z.object({
      kind: z.enum(ACCESS_KINDS),
      at: z.string(),
      /** 'locked': a face recognition refused because the patient had locked their face */
      result: z.enum(['ok', 'failed', 'locked']),
      /** an operator's role (never their name or user); null: the patient or a device */
      role: z.nullable(z.enum(OPERATOR_ROLES)),
      /** the health centre where known (null today: operators carry none) */
      centre: z.nullable(z.string()),
      /** what was looked at: an image's name for case_image */
      what: z.nullable(z.string()),
      /** the kiosk's id when a kiosk recognised the patient */
      device: z.nullable(z.string()),
    }),
  ),
});
export type AccessesResponse = z.infer<typeof accessesResponse>;
export type Access = AccessesResponse['accesses'][number];
