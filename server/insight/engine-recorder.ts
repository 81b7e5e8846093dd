import type { EngineDecision, EngineReason } from '../../contract/insight';
import { identityMessages } from '../identity/errors';

/**
 * The identity engine's hook into journey insight (issue 17): the engine calls `record` where it
 * decides (liveness-decision.ts, liveness-sessions.ts, document-scan.ts, identification.ts) and
 * never waits or fails for it. The app attaches a writer (server/insight/routes.ts) that batches the
 * decisions into `insight_events`; with none attached (CLI commands, benches) a record is dropped.
 * One engine serves one process, so one writer is attached at a time (the last app built).
 */
type Sink = (decision: EngineDecision) => void;
let sink: Sink | null = null;

export const engineInsight = {
  record(decision: EngineDecision): void {
    try {
      sink?.(decision);
    } catch {
      // Insight never breaks a decision.
    }
  },
  /** Attaches a writer; the returned function detaches it. */
  attach(writer: Sink): () => void {
    sink = writer;
    return () => {
      if (sink === writer) sink = null;
    };
  },
};

/** The KYC selfie's or the kiosk's liveness: which flow and step a decider's decisions belong to. */
export const livenessStep = (deciderName: string): Pick<EngineDecision, 'flow' | 'step'> =>
  deciderName === 'kiosk'
    ? { flow: 'faceLogin', step: 'recognition' }
    : { flow: 'onboarding', step: 'selfie' };

type LivenessOutcome = {
  decider: string;
  state: unknown;
  now: number;
  live: boolean;
  timeUp: boolean;
  /** the per-frame log of liveness-decision.ts: gate names and the replay flag */
  steps?: Array<Record<string, unknown>>;
};

/**
 * One liveness request's decisions: passed (timed from the challenge's first frame), time up
 * (`eyes_never_closed` when no blink was ever counted), a replayed frame, and each gate that failed
 * (one decision per kind per request).
 */
export function recordLiveness(o: LivenessOutcome): void {
  try {
    const where = livenessStep(o.decider);
    const s = o.state as { startedAt?: number | null; blinks?: number } | null;
    const since = typeof s?.startedAt === 'number' ? { durationMs: o.now - s.startedAt } : {};
    if (o.live) return engineInsight.record({ ...where, outcome: 'passed', ...since });
    if (o.timeUp)
      engineInsight.record({
        ...where,
        outcome: 'failed',
        error: s?.blinks === 0 ? 'eyes_never_closed' : 'time_up',
        ...since,
      });
    const kinds = new Set<string>();
    for (const step of o.steps ?? []) {
      if (step.replay) kinds.add('replay');
      for (const gate of (step.gates as string[] | undefined) ?? []) kinds.add(gate);
    }
    for (const kind of kinds)
      engineInsight.record({ ...where, outcome: 'failed', error: kind as EngineReason });
  } catch {
    // never into the decision
  }
}

/** scan-id's refusals by their message (server/identity/errors.ts), as reason codes. */
const DOCUMENT_REASONS: Array<[string, EngineReason]> = [
  [identityMessages.faceMismatch, 'face_mismatch'],
  [identityMessages.noFaceOnDocument, 'no_face_on_document'],
  [identityMessages.backMissing, 'back_missing'],
  [identityMessages.mrzUnreadable, 'mrz_unreadable'],
  [identityMessages.notParaguayan, 'not_paraguayan'],
  [identityMessages.documentExpired, 'document_expired'],
  [identityMessages.notADocument, 'not_a_document'],
  [identityMessages.frontUnreadable, 'front_unreadable'],
  [identityMessages.documentMismatch, 'document_mismatch'],
];

/**
 * A document scan's decision: passed, or the check that failed, with its time. An unreadable side's
 * message may carry a retake hint after it (document-verdict.ts): the message is matched as a prefix.
 */
export function recordDocument(o: { error?: string | undefined; durationMs: number }): void {
  const error = o.error
    ? (DOCUMENT_REASONS.find(([message]) => o.error!.startsWith(message))?.[1] ??
      'document_refused')
    : undefined;
  engineInsight.record({
    flow: 'onboarding',
    step: 'document',
    outcome: error ? 'failed' : 'passed',
    ...(error ? { error } : {}),
    durationMs: o.durationMs,
  });
}
