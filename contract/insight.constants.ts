/**
 * Journey insight's catalogue lists and limits, without zod (./insight.ts builds the schemas from
 * them): the browser's derivation and sender (machines/insight) import these, so the chunk a page
 * loads when idle evaluates no schema.
 */
export const insightPaths = {
  events: '/api/insight/events',
  /** GET: the short-lived token a page's events carry (issue 29 item 7) */
  token: '/api/insight/token',
} as const;

/** Events one request may carry; the browser sends smaller batches. */
export const INSIGHT_MAX_BATCH = 50;
/**
 * Every number an event carries is bounded by what it means (issue 29 item 6), so none can carry a
 * phone or a document number: a step's duration is at most an hour (longer means the page was left
 * open; the browser sends the cap), a journey has at most 500 events (its `seq` below that), a step
 * at most 100 attempts.
 */
export const INSIGHT_MAX_DURATION_MS = 3_600_000;
export const INSIGHT_MAX_EVENTS_PER_JOURNEY = 500;
export const INSIGHT_MAX_ATTEMPT = 100;

/** GET /api/insight/token's answer (a plain type: the insight chunk loads no schema). */
export type InsightTokenResponse = { success: true; token: string; expiresInSeconds: number };

export const INSIGHT_STEPS = {
  onboarding: [
    // the phone opening the SMS link (issue 18)
    'link',
    'registration',
    'verification',
    // the mobile proved again continued a kept registration (after the PIN)
    'resume',
    'pin',
    'welcome',
    'kycLoad',
    // 'Seguí en tu celular': the first device follows the phone
    'handoff',
    'session',
    'camera',
    'selfie',
    'document',
    'review',
    'supplementary',
    'register',
  ],
  login: ['login'],
  recovery: ['request', 'verification', 'newPin'],
  faceLogin: ['camera', 'activation', 'recognition'],
} as const;

export type InsightFlow = keyof typeof INSIGHT_STEPS;
export type InsightStep = (typeof INSIGHT_STEPS)[InsightFlow][number];
export const INSIGHT_FLOWS = Object.keys(INSIGHT_STEPS) as InsightFlow[];

/**
 * entered: the step shows; passed: left forward; failed: an error code shows; retried: the patient
 * tries the step again after a failure (or asks for a new code); cancelled: back or cancel left it.
 */
export const INSIGHT_OUTCOMES = ['entered', 'passed', 'failed', 'retried', 'cancelled'] as const;
export type InsightOutcome = (typeof INSIGHT_OUTCOMES)[number];

/** The error codes the flows show (their machines' codes), as the browser reports them. */
export const BROWSER_ERRORS = [
  // onboarding
  'phoneInvalidSubmit',
  'startFailed',
  'sendCodeFailed',
  'tooManyAttempts',
  'pinInvalid',
  'termsRequired',
  'registerFailed',
  'registerInvalidResponse',
  'registerNetwork',
  'kycLoadFailed',
  'unexpected',
  'patientExists',
  // a registration that survives real life (issue 18)
  'savePinFailed',
  'handoffFailed',
  'handoffStopped',
  'linkRefused',
  // fields' own messages (issue 20: under each field, no banner)
  'phoneInvalid',
  'emailInvalid',
  'pinFromOwnData',
  'departmentRequired',
  'cityRequired',
  // KYC
  'startKycFailed',
  'network',
  'livenessFailed',
  'livenessNotDetected',
  // the selfie's challenge refused it (issue 31: cues_missed, light_mismatch; issue 41: face_changed)
  'challengeFailed',
  'sessionExpired',
  'imageFailed',
  'faceMismatch',
  'noFaceOnDocument',
  'frontRejected',
  'documentMismatch',
  'backRejected',
  'documentRejected',
  'documentNetwork',
  'rejectFailed',
  'departmentsFailed',
  'citiesFailed',
  'documentMissing',
  // a case opened for a person to verify the patient (issue 30): the journey's own end
  'assisted',
  // the SMS code
  'wrongCode',
  'resendFailed',
  // login
  'loginFailed',
  'rejected',
  // PIN recovery
  'documentoInvalid',
  'celularInvalid',
  'sendFailed',
  'saveFailed',
  // face authentication
  'deviceNotActivated',
  'frameFailed',
  'notRecognised',
  'invalidLink',
  // the camera
  'insecureContext',
  'unsupported',
  'permissionDenied',
  'notFound',
  'openFailed',
] as const;
export type BrowserError = (typeof BROWSER_ERRORS)[number];

/** The identity engine's reason codes (server side only: never accepted from a browser). */
export const ENGINE_REASONS = [
  // liveness gates, by kind
  'no_face',
  'several_faces',
  'too_far',
  'too_close',
  'too_dark',
  'not_centred',
  // liveness decisions
  'eyes_never_closed',
  'time_up',
  'frame_cap',
  'replay',
  // the liveness challenge (issue 31): its refusals, and its signals (recorded as outcome 'signal',
  // never a verdict: a virtual camera's label, frame times against the server's clock, frame tags
  // that disagree with the colour schedule)
  'cues_missed',
  'light_mismatch',
  'face_changed',
  'light_unjudged',
  'virtual_camera',
  'clock_backwards',
  'clock_ahead',
  'tag_mismatch',
  // document checks
  'attempts_exhausted',
  'face_mismatch',
  'no_face_on_document',
  'back_missing',
  'mrz_unreadable',
  'not_paraguayan',
  'document_expired',
  'not_a_document',
  'front_unreadable',
  'document_mismatch',
  'document_refused',
  // identification (kiosk)
  'not_recognised',
] as const;
export type EngineReason = (typeof ENGINE_REASONS)[number];
/**
 * The liveness challenge's signals (issue 31), among the engine's reasons: recorded with outcome
 * 'signal' the first time a session raises one, counted in the report, never a verdict.
 */
export const LIVENESS_SIGNALS = [
  'virtual_camera',
  'clock_backwards',
  'clock_ahead',
  'tag_mismatch',
] as const satisfies readonly EngineReason[];
export type LivenessSignal = (typeof LIVENESS_SIGNALS)[number];

export const DEVICES = ['mobile', 'desktop'] as const;
export const BROWSER_FAMILIES = [
  'chrome',
  'firefox',
  'safari',
  'edge',
  'samsung',
  'opera',
  'other',
] as const;
/** The Network Information API's effectiveType, when the browser gives it. */
export const NETWORKS = ['slow-2g', '2g', '3g', '4g'] as const;
