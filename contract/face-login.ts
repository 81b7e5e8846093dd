import * as z from 'zod/mini';

/**
 * Face authentication (spec 7 'Liveness', issue 9): a liveness session per attempt, frames as
 * multipart (session_id + frame.jpg), then 1:N identification of the live face. The prefix is
 * configurable on the server (FACE_AUTH_PREFIX) and in the browser (VITE_FACE_AUTH_PREFIX).
 */
export const FACE_LOGIN_PREFIX = '/api/liveness';
export const faceLoginPaths = (prefix: string = FACE_LOGIN_PREFIX) =>
  ({
    start: `${prefix}/start`,
    frame: `${prefix}/frame`,
    stop: `${prefix}/stop`,
  }) as const;

/** Multipart part names of POST /frame. */
export const faceLoginParts = {
  sessionId: 'session_id',
  frame: 'frame',
  filename: 'frame.jpg',
} as const;

/** Device activation link (operator command `npm run kiosk -- add NAME`). */
export const kioskPaths = { activate: '/api/kiosk/activate' } as const;
export const KIOSK_DEVICE_COOKIE = 'kiosk_device';

/** Frame pacing (spec 9): 300 ms unless the server recommends another interval, never below 100 ms. */
export const FACE_LOGIN_INTERVAL_MS = 300;
export const FACE_LOGIN_MIN_INTERVAL_MS = 100;

const sessionId = z.string().check(z.minLength(1), z.maxLength(64));
const interval = z.int().check(z.gte(FACE_LOGIN_MIN_INTERVAL_MS), z.lte(10_000));

// POST /start, JSON {}
export const faceLoginStartRequest = z.strictObject({});
export const faceLoginStartResponse = z.object({
  success: z.literal(true),
  session_id: z.string(),
  recommended_interval_ms: interval,
  /** The liveness profile the server applies (the kiosk's: attended, one blink). */
  profile: z.string(),
});
export type FaceLoginStartResponse = z.infer<typeof faceLoginStartResponse>;

// POST /frame, multipart: session_id + frame
export const faceLoginFrameFields = z.object({ session_id: sessionId });

/** liveness: the challenge runs; authenticated / failed: the decision (result is set). */
const faceLoginStages = ['liveness', 'authenticated', 'failed'] as const;
const faceLoginStage = z.enum(faceLoginStages);
export type FaceLoginStage = z.infer<typeof faceLoginStage>;

const faceLoginResult = z.object({
  success: z.boolean(),
  message: z.string(),
  /**
   * The liveness challenge ran out of time (nobody blinked: nobody there, or a photo): a kiosk
   * then waits for a tap instead of starting again by itself.
   */
  time_up: z.optional(z.boolean()),
  user: z.nullable(
    z.object({
      full_name: z.string(),
      /** the given names alone: a kiosk greets with them (its screen is seen by passers-by) */
      given_names: z.string(),
      document_number: z.string(),
      face_match_confidence: z.number(),
    }),
  ),
  authentication: z.nullable(
    z.object({
      /** Cosine similarity of the best enrolled face (null: no face could be compared). */
      confidence: z.nullable(z.number()),
      threshold_used: z.number(),
    }),
  ),
});
export type FaceLoginResult = z.infer<typeof faceLoginResult>;

export const faceLoginFrameResponse = z.object({
  stage: faceLoginStage,
  feedback: z.array(z.string()),
  recommended_interval_ms: interval,
  result: z.nullable(faceLoginResult),
});
export type FaceLoginFrameResponse = z.infer<typeof faceLoginFrameResponse>;

// POST /stop, JSON { session_id }
export const faceLoginStopRequest = z.object({ session_id: sessionId });
export const faceLoginStopResponse = z.object({ success: z.boolean() });
export type FaceLoginStopResponse = z.infer<typeof faceLoginStopResponse>;

// POST /api/kiosk/activate, JSON { token } (the token comes from the link's #fragment, never a URL the server logs)
export const kioskActivateRequest = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(128)),
});
export const kioskActivateResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  device: z.string(),
});
export type KioskActivateResponse = z.infer<typeof kioskActivateResponse>;
/** The activation link's fragment key: `/face-login#activar=TOKEN`. */
export const KIOSK_ACTIVATION_FRAGMENT = 'activar';

/** The failure detail when the live face matches no enrolled patient (spec 8). */
export const NOT_RECOGNISED = 'No reconocido';

/** Error answers the page explains differently: a device that is not activated (403). */
export const DEVICE_NOT_ACTIVATED_STATUS = 403;
