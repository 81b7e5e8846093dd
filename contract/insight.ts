import * as z from 'zod/mini';

/**
 * Journey insight: the catalogue of events the flows and the identity engine record (issue 17).
 * An event says where a journey is (flow, step), what happened (outcome, an error code from the
 * lists below), how long the step took and which attempt it was, nothing else: no phone, document,
 * name, PIN, code, image, free text, address or user agent. A journey is a random id made in the
 * browser for one flow instance, never linked to a patient. Unknown fields, flows, steps, outcomes
 * and codes are refused (strict objects, closed lists).
 */

export const insightPaths = { events: '/api/insight/events' } as const;

/** Events one request may carry; the browser sends smaller batches. */
export const INSIGHT_MAX_BATCH = 50;
/** A step's duration is capped at a day (longer means the page was left open). */
const INSIGHT_MAX_DURATION_MS = 86_400_000;

const INSIGHT_STEPS = {
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
const INSIGHT_FLOWS = Object.keys(INSIGHT_STEPS) as InsightFlow[];

/**
 * entered: the step shows; passed: left forward; failed: an error code shows; retried: the patient
 * tries the step again after a failure (or asks for a new code); cancelled: back or cancel left it.
 */
const INSIGHT_OUTCOMES = ['entered', 'passed', 'failed', 'retried', 'cancelled'] as const;
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
  'sessionExpired',
  'imageFailed',
  'faceMismatch',
  'documentRejected',
  'documentNetwork',
  'rejectFailed',
  'departmentsFailed',
  'citiesFailed',
  'documentMissing',
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
  'too_dark',
  'not_centred',
  // liveness decisions
  'eyes_never_closed',
  'time_up',
  'frame_cap',
  'replay',
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

const DEVICES = ['mobile', 'desktop'] as const;
const BROWSER_FAMILIES = [
  'chrome',
  'firefox',
  'safari',
  'edge',
  'samsung',
  'opera',
  'other',
] as const;
/** The Network Information API's effectiveType, when the browser gives it. */
const NETWORKS = ['slow-2g', '2g', '3g', '4g'] as const;

/** Coarse context, the same for every event of a batch. */
const insightContext = z.strictObject({
  device: z.enum(DEVICES),
  browser: z.enum(BROWSER_FAMILIES),
  network: z.optional(z.enum(NETWORKS)),
});
export type InsightContext = z.infer<typeof insightContext>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const insightEvent = z
  .strictObject({
    /** the journey: a random UUID v4 made for one flow instance */
    journey: z.string().check(z.regex(UUID)),
    /** order within the journey */
    seq: z.int().check(z.gte(0), z.lte(1_000_000_000)),
    flow: z.enum(INSIGHT_FLOWS as [InsightFlow, ...InsightFlow[]]),
    step: z.string().check(z.maxLength(32)),
    outcome: z.enum(INSIGHT_OUTCOMES),
    error: z.optional(z.enum(BROWSER_ERRORS)),
    durationMs: z.optional(z.int().check(z.gte(0), z.lte(INSIGHT_MAX_DURATION_MS))),
    attempt: z.int().check(z.gte(1), z.lte(1000)),
  })
  .check(
    // The step belongs to the flow; an error code comes with a failure, and only with one.
    z.refine((e) => (INSIGHT_STEPS[e.flow] as readonly string[]).includes(e.step)),
    z.refine((e) => (e.outcome === 'failed') === (e.error !== undefined)),
  );
export type InsightEvent = z.infer<typeof insightEvent>;

// POST /api/insight/events (JSON, or text/plain from navigator.sendBeacon)
export const insightBatch = z.strictObject({
  context: insightContext,
  events: z.array(insightEvent).check(z.minLength(1), z.maxLength(INSIGHT_MAX_BATCH)),
});
export type InsightBatch = z.infer<typeof insightBatch>;

/** The engine's decisions, recorded by the server into the same table (journey null). */
export type EngineDecision = {
  flow: 'onboarding' | 'faceLogin';
  step: 'selfie' | 'document' | 'recognition';
  outcome: 'passed' | 'failed';
  error?: EngineReason;
  durationMs?: number;
  attempt?: number;
};
