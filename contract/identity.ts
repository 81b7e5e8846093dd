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

/**
 * A KYC session's states (kyc_sessions.status): the selfie's liveness check under way, the selfie
 * passed (the cédula still to read), the cédula read (completed), or refused.
 */
export const KYC_SESSION_STATUSES = ['liveness', 'live', 'completed', 'rejected'] as const;
export type KycSessionStatus = (typeof KYC_SESSION_STATUSES)[number];
/**
 * Who decides a KYC session (kyc_sessions.decider): the engine's blink check (server/identity
 * liveness.ts), or an operator's approval that made the session (issue 42).
 */
export const KYC_DECIDERS = ['blink', 'operator'] as const;
export type KycDeciderName = (typeof KYC_DECIDERS)[number];

/** The challenge's modes (IDENTITY_LIVENESS_CHALLENGE); the default is the first. */
export const LIVENESS_CHALLENGES = ['cues,light', 'cues', 'none'] as const;
export type LivenessChallengeMode = (typeof LIVENESS_CHALLENGES)[number];

// POST /start-kyc (no body). `liveness_seconds`: the selfie challenge's time limit, counted from
// the session's first liveness frame (the browser's own limit follows it).
export const startKycResponse = z.object({
  success: z.literal(true),
  session_id: z.string(),
  liveness_seconds: z.int().check(z.positive()),
  /**
   * The selfie's challenge (issue 31, IDENTITY_LIVENESS_CHALLENGE): with `light` the browser says
   * before the start that the screen will change colour. Absent from an older server: 'none'.
   */
  challenge: z.optional(z.enum(LIVENESS_CHALLENGES)),
});
export type StartKycResponse = z.infer<typeof startKycResponse>;

// POST /liveness, multipart: session_id + one or more `frame` parts (oldest first, at most
// LIVENESS_MAX_FRAMES, each at most LIVENESS_MAX_FRAME_BYTES): the frames captured since the last
// request (contract/frame-policy.ts chooses them). The server analyses them in order.
export const LIVENESS_MAX_FRAMES = 8;
export const LIVENESS_MAX_FRAME_BYTES = 256 * 1024;
export const livenessFields = z.object({
  session_id: sessionId,
  /** JSON of `LivenessMeta` (issue 31); required by a session with a challenge. */
  meta: z.optional(plainText(2, 4096)),
});

/**
 * The challenge's clock (issue 31): milliseconds since the browser started sampling frames for this
 * KYC session (its first capture is at about 0). One clock per session: a stop and a new start keep
 * counting from the same origin. Every time below (a frame's `t`, a cue's `at`, a colour's `from`) is
 * on this clock; the server draws the cue and colour times on it from the frames' own `t`.
 */
export const livenessFrameTag = z.object({
  /** When the frame was captured, on the challenge's clock (ms, whole). */
  t: z.int().check(z.nonnegative(), z.maximum(3_600_000)),
  /** The index in `light.colours` painted around the oval when it was captured, or -1 for none. */
  light: z.int().check(z.gte(-1), z.lte(16)),
});
export type LivenessFrameTag = z.infer<typeof livenessFrameTag>;

/** The `meta` field of POST /liveness: one tag per `frame` part, in the same order. */
export const livenessMeta = z.object({
  frames: z.array(livenessFrameTag).check(z.maxLength(LIVENESS_MAX_FRAMES)),
  /**
   * The camera as the browser sees it (sent with the first request of a run): its label and
   * frame rate. Signals only (a virtual camera's label); they never refuse on their own.
   */
  camera: z.optional(
    z.object({
      label: plainText(0, 200),
      frame_rate: z.optional(z.number().check(z.nonnegative(), z.lte(1000))),
    }),
  ),
});
export type LivenessMeta = z.infer<typeof livenessMeta>;

/**
 * What the server asks of the patient now (in every /liveness answer of a challenge session):
 * - `cue`: blink when the clock reaches `at` ('Parpadeá ahora' from `at` to `until`); `n` counts the
 *   cues asked so far (1, 2, ...), `of` the blinks on cue still needed to pass, including this one.
 *   The same cue comes in each answer until its window is over; null while none is pending.
 * - `light`: the colour sequence to paint around the oval, each colour from `from` to `to`
 *   (consecutive, each at least LIGHT_MIN_HOLD_MS); `round` changes when the server asks for a new
 *   sequence (the previous one was not seen on the face). Null when none is asked (or it passed).
 */
export const livenessCue = z.object({
  n: z.int().check(z.positive()),
  of: z.int().check(z.positive()),
  at: z.int().check(z.nonnegative()),
  until: z.int().check(z.nonnegative()),
});
export type LivenessCue = z.infer<typeof livenessCue>;
export const lightColour = z.object({
  /** '#rrggbb' */
  colour: z.string().check(z.regex(/^#[0-9a-f]{6}$/)),
  from: z.int().check(z.nonnegative()),
  to: z.int().check(z.nonnegative()),
});
export const livenessLight = z.object({
  round: z.int().check(z.positive()),
  colours: z.array(lightColour),
});
export type LivenessLight = z.infer<typeof livenessLight>;
export const livenessChallenge = z.object({
  cue: z.nullable(livenessCue),
  /**
   * The cue after `cue` (its window starts after that one's), sent ahead so that it shows on time
   * whatever the round trip; it becomes `cue` in later answers. Absent from an older server.
   */
  next_cue: z.optional(z.nullable(livenessCue)),
  /** The cue after `next_cue`, sent ahead as it is (issue 41); it becomes `next_cue` in later answers. */
  later_cue: z.optional(z.nullable(livenessCue)),
  light: z.nullable(livenessLight),
});
export type LivenessChallenge = z.infer<typeof livenessChallenge>;
/**
 * Every colour is held at least this long: at most one change of colour per 0.5 s keeps the
 * sequence under WCAG 2.3.1's three flashes in any second (a flash is a pair of opposing changes).
 */
export const LIGHT_MIN_HOLD_MS = 500;
/**
 * A colour's frames are those with `t` in [from + LIGHT_SETTLE_MS, to] (the camera's and the
 * screen's latency): the server judges on them, and the browser sends them before others.
 */
export const LIGHT_SETTLE_MS = 250;

/**
 * What the page exposes for the e2e synthetic camera (issue 31): the element that paints the light
 * has `data-liveness-light` set to the colour shown ('#rrggbb', absent when none), and the cue's
 * element is present with `data-liveness-cue` while 'Parpadeá ahora' shows.
 */
export const LIVENESS_LIGHT_ATTR = 'data-liveness-light';
export const LIVENESS_CUE_ATTR = 'data-liveness-cue';

/**
 * Why the last frame could not count, when it was its framing (issue 41, the selfie's gates,
 * server/identity/gates.ts): no face, several, too far (the face small in the oval), too close
 * (larger than the oval's frame, or cut by its edges), too dark, off centre. The browser
 * says each on the oval in its own words, and the element that says it carries
 * `data-liveness-framing` (the codes, space-separated; 'stalled' when it says only to keep the face
 * in the oval) for the e2e synthetic patient to follow.
 */
export const LIVENESS_FRAMING = [
  'no_face',
  'several_faces',
  'too_far',
  'too_close',
  'too_dark',
  'not_centred',
] as const;
export type LivenessFraming = (typeof LIVENESS_FRAMING)[number];
export const LIVENESS_FRAMING_ATTR = 'data-liveness-framing';

// `time_up`: the challenge's time is over; only a new session can pass (the browser stops polling).
// `challenge`: present for a session with a challenge (see above).
// `framing`: the gates the answer's last frame failed (LIVENESS_FRAMING), said by code; their
// sentences are then not among `feedback`. Absent when none failed.
export const livenessResponse = z.object({
  feedback: z.array(z.string()),
  liveness_detected: z.boolean(),
  time_up: z.boolean(),
  challenge: z.optional(livenessChallenge),
  framing: z.optional(z.array(z.enum(LIVENESS_FRAMING))),
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
  // the liveness challenge refused the session (issue 31): a new session, or the assisted path
  'cues_missed', // too few blinks on cue
  'light_mismatch', // the screen's colour sequence was not seen on the face
  'face_changed', // another face took over once something was asked (issue 41: no second round)
  'light_unjudged', // the light could not be judged at all (bright sun, the face far): a person at once
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
