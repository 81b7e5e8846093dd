import * as z from 'zod/mini';
import { plainText } from './common';

/**
 * Identity endpoints (issue 3), under /api/onboarding. Multipart requests are described by their
 * text fields; the image parts (frame, image_front, image_back) are JPEG or PNG files.
 */
export const identityPaths = {
  startKyc: '/api/onboarding/start-kyc',
  liveness: '/api/onboarding/liveness',
  scanId: '/api/onboarding/scan-id',
  kycReject: '/api/onboarding/kyc-reject',
  /** GET: 200 when the identity engine is ready, 503 'El servicio está iniciando' while it warms up. */
  identityStatus: '/api/onboarding/identity-status',
} as const;

/** Multipart part names. */
export const identityParts = {
  frame: 'frame',
  front: 'image_front',
  back: 'image_back',
} as const;

const sessionId = plainText(1, 64);

// POST /start-kyc (no body). `liveness_seconds`: the selfie challenge's time limit, counted from
// the session's first liveness frame (the browser's own limit follows it).
export const startKycResponse = z.object({
  success: z.literal(true),
  session_id: z.string(),
  liveness_seconds: z.int().check(z.positive()),
});
export type StartKycResponse = z.infer<typeof startKycResponse>;

// POST /liveness, multipart: session_id + one or more `frame` parts (oldest first, at most
// LIVENESS_MAX_FRAMES, each at most LIVENESS_MAX_FRAME_BYTES): the frames captured since the last
// request (contract/frame-policy.ts chooses them). The server analyses them in order.
export const LIVENESS_MAX_FRAMES = 8;
export const LIVENESS_MAX_FRAME_BYTES = 256 * 1024;
export const livenessFields = z.object({ session_id: sessionId });
// `time_up`: the challenge's time is over; only a new session can pass (the browser stops polling).
export const livenessResponse = z.object({
  feedback: z.array(z.string()),
  liveness_detected: z.boolean(),
  time_up: z.boolean(),
});
export type LivenessResponse = z.infer<typeof livenessResponse>;

/** A feedback line the browser hides (spec section 5). */
export const DUPLICATE_FRAME_MARK = 'frame duplicado';

// POST /scan-id, multipart: session_id, image_front, image_back?, celular?, pin?
export const scanIdFields = z.object({
  session_id: sessionId,
  celular: z.optional(plainText(0, 32)),
  pin: z.optional(plainText(0, 16)),
});
export const idData = z.object({
  FullName: z.string(),
  DocumentNumber: z.string(),
  DateOfBirth: z.string(),
  Gender: z.string(),
  Nationality: z.string(),
  MaritalStatus: z.string(),
});
export const scanIdResponse = z.object({
  success: z.boolean(),
  kyc_complete: z.boolean(),
  error: z.optional(z.string()),
  /** why a refusal (`success: false`) happened: an IdentityReason; the browser branches on it */
  reason: z.optional(z.string()),
  id_data: z.optional(idData),
});
export type ScanIdResponse = z.infer<typeof scanIdResponse>;

/**
 * Why the identity engine refused (issues 27 and 28): every refusal of /liveness, /scan-id and
 * /start-kyc carries one as `reason` beside its Spanish sentence (`error` in /scan-id's answer,
 * `message` in a 4xx answer). The browser branches on the code, never on the sentence. A browser
 * meeting a code it does not know treats it as a generic refusal (`isIdentityReason`).
 */
const IDENTITY_REASONS = [
  // the KYC session
  'session_invalid',
  'session_expired',
  'session_closed',
  'liveness_missing',
  'attempts_exhausted',
  'frames_exhausted',
  // a second scan of the same session while one runs (issue 29 item 2): wait for it, then again
  'scan_in_progress',
  // the document: what the patient repeats follows from the code
  'face_mismatch', // faces differ: the selfie again
  'no_face_on_document', // no portrait found on the front: the front again
  'not_a_document', // the front shows no card: the front again
  'front_unreadable', // number and names not read on the front: the front again
  'document_mismatch', // front and back of different cards: both sides again
  'mrz_unreadable', // the back's MRZ not read: the back again
  'back_missing',
  'not_paraguayan', // not a Paraguayan cédula
  'document_expired',
] as const;
export type IdentityReason = (typeof IDENTITY_REASONS)[number];
export const isIdentityReason = (value: unknown): value is IdentityReason =>
  (IDENTITY_REASONS as readonly unknown[]).includes(value);

/**
 * The English marks the spec puts in the server's sentences (spec section 8). The server keeps
 * them; the browser branches on `reason`, never on these.
 */
export const SESSION_EXPIRED_MARK = 'session expired';
export const INVALID_SESSION_MARK = 'invalid session';
export const FACE_MISMATCH_MARK = 'Face verification failed';

// POST /kyc-reject, JSON
export const KYC_REJECT_REASON = 'Usuario no conforme o datos incorrectos.';
export const kycRejectRequest = z.object({
  session_id: sessionId,
  reason: plainText(1, 500),
});
export const kycRejectResponse = z.object({
  success: z.boolean(),
  message: z.optional(z.string()),
});
export type KycRejectResponse = z.infer<typeof kycRejectResponse>;
