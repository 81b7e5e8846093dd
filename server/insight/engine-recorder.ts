import type { EngineDecision, EngineReason } from '../../contract/insight';

/**
 * The identity engine's hook into journey insight (issue 17): the engine calls it where it decides
 * (liveness-decision.ts, liveness-sessions.ts, document-scan.ts, identification.ts) with the
 * decision's reason code, and never waits or fails for it. The app that owns both the engine and
 * insight makes one recorder over its writer (server/app.ts: the insight plugin's batched
 * `app.insight.record`) and gives it to the engine as an option (server/identity/types.ts
 * `EngineInsight`, the shape this answers); neither area imports the other.
 */
type Write = (decision: EngineDecision) => void;

/** The KYC selfie's or the kiosk's liveness: which flow and step a decider's decisions belong to. */
const livenessStep = (deciderName: string): Pick<EngineDecision, 'flow' | 'step'> =>
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
  /** the request was refused before any analysis (the session's frame cap), or by the challenge */
  refused?: EngineReason;
  /** the liveness challenge's signals the session raised for the first time (issue 31) */
  signals?: EngineReason[];
};

export function createEngineRecorder(write: Write) {
  const record = (decision: EngineDecision): void => {
    try {
      write(decision);
    } catch {
      // Insight never breaks a decision.
    }
  };
  return {
    record,
    /**
     * One liveness request's decisions: the challenge's signals first raised (outcome 'signal'),
     * refused (before analysis, or by the challenge), passed (timed from the challenge's first frame), time up
     * (`eyes_never_closed` when no blink was ever counted), a replayed frame, and each gate that
     * failed (one decision per kind per request).
     */
    liveness(o: LivenessOutcome): void {
      try {
        const where = livenessStep(o.decider);
        // Signals are never verdicts: their own outcome, counted apart from the failures.
        for (const signal of o.signals ?? [])
          record({ ...where, outcome: 'signal', error: signal });
        if (o.refused) return record({ ...where, outcome: 'failed', error: o.refused });
        const s = o.state as { startedAt?: number | null; blinks?: number } | null;
        const since = typeof s?.startedAt === 'number' ? { durationMs: o.now - s.startedAt } : {};
        if (o.live) return record({ ...where, outcome: 'passed', ...since });
        if (o.timeUp)
          record({
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
          record({ ...where, outcome: 'failed', error: kind as EngineReason });
      } catch {
        // never into the decision
      }
    },
    /** A document scan's decision: passed, or the reason code it was refused for, with its time. */
    document(o: { reason?: EngineReason | undefined; durationMs: number }): void {
      record({
        flow: 'onboarding',
        step: 'document',
        outcome: o.reason ? 'failed' : 'passed',
        ...(o.reason ? { error: o.reason } : {}),
        durationMs: o.durationMs,
      });
    },
  };
}
