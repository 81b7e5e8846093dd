import * as z from 'zod/mini';
import {
  INSIGHT_MAX_ATTEMPT,
  INSIGHT_MAX_BATCH,
  INSIGHT_MAX_DURATION_MS,
  INSIGHT_MAX_EVENTS_PER_JOURNEY,
  INSIGHT_STEPS,
  INSIGHT_FLOWS,
  INSIGHT_OUTCOMES,
  BROWSER_ERRORS,
  DEVICES,
  BROWSER_FAMILIES,
  NETWORKS,
  type EngineReason,
  type InsightFlow,
} from './insight.constants';

/**
 * Journey insight: the catalogue of events the flows and the identity engine record (issue 17).
 * An event says where a journey is (flow, step), what happened (outcome, an error code from the
 * lists in ./insight.constants.ts), how long the step took and which attempt it was, nothing else:
 * no phone, document, name, PIN, code, image, free text, address or user agent. A journey is a random id made in the
 * browser for one flow instance, never linked to a patient. Unknown fields, flows, steps, outcomes
 * and codes are refused (strict objects, closed lists).
 */

// What the schemas' users take from here with them (the rest they import from ./insight.constants).
export {
  INSIGHT_MAX_BATCH,
  INSIGHT_MAX_DURATION_MS,
  INSIGHT_MAX_EVENTS_PER_JOURNEY,
  insightPaths,
  type BrowserError,
  type EngineReason,
  type InsightFlow,
  type InsightOutcome,
  type InsightStep,
  type InsightTokenResponse,
} from './insight.constants';

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
    /** order within the journey (a journey has at most INSIGHT_MAX_EVENTS_PER_JOURNEY events) */
    seq: z.int().check(z.gte(0), z.lt(INSIGHT_MAX_EVENTS_PER_JOURNEY)),
    flow: z.enum(INSIGHT_FLOWS as [InsightFlow, ...InsightFlow[]]),
    step: z.string().check(z.maxLength(32)),
    outcome: z.enum(INSIGHT_OUTCOMES),
    error: z.optional(z.enum(BROWSER_ERRORS)),
    durationMs: z.optional(z.int().check(z.gte(0), z.lte(INSIGHT_MAX_DURATION_MS))),
    attempt: z.int().check(z.gte(1), z.lte(INSIGHT_MAX_ATTEMPT)),
  })
  .check(
    // The step belongs to the flow; an error code comes with a failure, and only with one.
    z.refine((e) => (INSIGHT_STEPS[e.flow] as readonly string[]).includes(e.step)),
    z.refine((e) => (e.outcome === 'failed') === (e.error !== undefined)),
  );
export type InsightEvent = z.infer<typeof insightEvent>;

// POST /api/insight/events (JSON, or text/plain from navigator.sendBeacon)
export const insightBatch = z.strictObject({
  /** the page's server-issued token (GET /api/insight/token): a journey is bound to it */
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  context: insightContext,
  events: z.array(insightEvent).check(z.minLength(1), z.maxLength(INSIGHT_MAX_BATCH)),
});
export type InsightBatch = z.infer<typeof insightBatch>;

/**
 * The engine's decisions, recorded by the server into the same table (journey null). 'signal': a
 * liveness challenge's signal (issue 31; `error` says which), seen in a session, never a verdict.
 */
export type EngineDecision = {
  flow: 'onboarding' | 'faceLogin';
  step: 'selfie' | 'document' | 'recognition';
  outcome: 'passed' | 'failed' | 'signal';
  error?: EngineReason;
  durationMs?: number;
  attempt?: number;
};
