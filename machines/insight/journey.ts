import { BROWSER_ERRORS } from '../../contract/insight.constants';
import type {
  BrowserError,
  InsightEvent,
  InsightFlow,
  InsightOutcome,
  InsightStep,
} from '../../contract/insight';

/**
 * The journey bookkeeping of journey insight (./derive.ts says when): one flow instance's events in
 * order, each step's time and attempts.
 */

export type JourneyOptions = {
  emit: (event: InsightEvent) => void;
  now?: () => number;
  /** A new journey id (random UUID v4). */
  newJourney?: () => string;
  /** A flow's journey ended (its machine done, failed or stopped): its last events are due now. */
  ended?: () => void;
};

/** A random UUID v4 from getRandomValues (randomUUID needs a secure context; this does not). */
export function randomJourneyId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One flow instance: its id, step timers, attempt counts and the step it is on. */
export class Journey {
  readonly id: string;
  private seq = 0;
  private since = new Map<string, number>();
  private attempts = new Map<string, number>();
  current: InsightStep | null = null;
  constructor(
    readonly flow: InsightFlow,
    private readonly options: Required<JourneyOptions>,
  ) {
    this.id = options.newJourney();
  }
  private send(step: InsightStep, outcome: InsightOutcome, error?: BrowserError) {
    const started = this.since.get(step);
    const durationMs =
      outcome === 'entered' || started === undefined
        ? undefined
        : Math.max(0, Math.round(this.options.now() - started));
    this.options.emit({
      journey: this.id,
      seq: this.seq++,
      flow: this.flow,
      step,
      outcome,
      // A code the catalogue does not know yet (a machine's new one) is sent as 'unexpected': the
      // server refuses a batch with an unknown code, and the other events would be lost with it.
      ...(error ? { error: BROWSER_ERRORS.includes(error) ? error : 'unexpected' } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      attempt: Math.min(1000, this.attempts.get(step) ?? 1),
    });
  }
  enter(step: InsightStep) {
    this.attempts.set(step, (this.attempts.get(step) ?? 0) + 1);
    this.since.set(step, this.options.now());
    this.current = step;
    this.send(step, 'entered');
  }
  pass(step: InsightStep) {
    this.send(step, 'passed');
  }
  fail(step: InsightStep, error: BrowserError) {
    this.send(step, 'failed', error);
  }
  /** Again after a failure: a new attempt, timed from now. */
  retry(step: InsightStep) {
    this.send(step, 'retried');
    this.attempts.set(step, (this.attempts.get(step) ?? 1) + 1);
    this.since.set(step, this.options.now());
  }
  cancel(step: InsightStep) {
    this.send(step, 'cancelled');
  }
}
