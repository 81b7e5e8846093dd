import { BROWSER_ERRORS, INSIGHT_STEPS } from '../../contract/insight.constants';
import type { InspectionEvent } from 'xstate';
import type {
  BrowserError,
  InsightEvent,
  InsightFlow,
  InsightOutcome,
  InsightStep,
} from '../../contract/insight';

/**
 * Journey insight from the flows' own machines (issue 17): an inspection observer (XState's
 * `inspect` option, the same hook as the inspector) that watches every actor of a flow's system
 * (the flow, its OTP and KYC children) and turns state changes into catalogue events (entering a
 * step, leaving it forward, an error code shown, a retry, a cancel, the camera's outcome). It reads
 * state values, tags and error codes only: never a field the patient typed. It never throws into
 * the flow (every call is guarded) and keeps nothing after the flow ends.
 */

/** What the derivation reads of a machine snapshot (XState's MachineSnapshot has all of it). */
type Snap = {
  value: unknown;
  status?: string;
  context?: Record<string, unknown>;
  matches?: (value: string) => boolean;
  hasTag?: (tag: string) => boolean;
  machine?: { id?: string };
};

type Options = {
  emit: (event: InsightEvent) => void;
  now?: () => number;
  /** A new journey id (random UUID v4). */
  newJourney?: () => string;
};

/** A random UUID v4 from getRandomValues (randomUUID needs a secure context; this does not). */
function randomJourneyId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One flow instance: its id, step timers, attempt counts and the step it is on. */
class Journey {
  readonly id: string;
  private seq = 0;
  private since = new Map<string, number>();
  private attempts = new Map<string, number>();
  current: InsightStep | null = null;
  constructor(
    readonly flow: InsightFlow,
    private readonly options: Required<Options>,
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

/** A state change of one machine actor: the snapshot before (none at start) and after. */
type Change = { prev: Snap | null; next: Snap; event: { type: string } };
type Deriver = (journey: Journey, change: Change) => void;

const is = (s: Snap | null, path: string) => Boolean(s?.matches?.(path));
const into = (c: Change, path: string) => is(c.next, path) && !is(c.prev, path);
const tagged = (s: Snap | null) => Boolean(s?.hasTag?.('error'));
/**
 * The error code a state shows: its banner's (`error`), else the first field's own message
 * (`fieldErrors`: each field's message sits under it, with no banner, since issue 20).
 */
const errorOf = (s: Snap | null, key = 'error'): BrowserError | null => {
  const e = s?.context?.[key] as { code?: string } | string | null | undefined;
  const code = (typeof e === 'string' ? e : e?.code) as BrowserError | undefined;
  if (code || key !== 'error') return code ?? null;
  const fields = s?.context?.fieldErrors as Record<string, string | null> | undefined;
  return (Object.values(fields ?? {}).find(Boolean) as BrowserError | undefined) ?? null;
};
/** The state entered an error state (or a new error code shows): the code, else null. */
const newFailure = (c: Change, key = 'error'): BrowserError | null => {
  const code = errorOf(c.next, key);
  if (!code) return null;
  const changed = JSON.stringify(c.prev?.value) !== JSON.stringify(c.next.value);
  return changed && (code !== errorOf(c.prev, key) || (tagged(c.next) && !tagged(c.prev)))
    ? code
    : null;
};

/**
 * The common shape of a wizard machine: each state belongs to a step (in the flow's order);
 * moving forward passes the step, a back arrow cancels it, an error state fails it, leaving an
 * error state retries it, and the final `done` state passes the last one.
 */
function wizard(
  order: InsightStep[],
  stepOf: (s: Snap) => InsightStep | null,
  finals: { passed: string[]; cancelled: string[] } = { passed: [], cancelled: [] },
): Deriver {
  return (j, c) => {
    const from = c.prev ? stepOf(c.prev) : null;
    const to = stepOf(c.next);
    const current = j.current;
    if (c.next.status === 'done') {
      // The step this machine was on (a parent may already have moved on to its next step).
      const last = from ?? current;
      if (!last) return;
      if (finals.passed.some((p) => is(c.next, p))) j.pass(last);
      else if (finals.cancelled.some((p) => is(c.next, p))) j.cancel(last);
      return;
    }
    // An error shown before; it is gone (fixed, or the state left) when the step is retried.
    const failedBefore = errorOf(c.prev) !== null;
    if (to && to !== from) {
      if (from && failedBefore) j.retry(from);
      else if (from && c.event.type === 'flow.back') j.cancel(from);
      else if (from && order.indexOf(to) > order.indexOf(from)) j.pass(from);
      else if (from) j.retry(from);
      j.enter(to);
    } else if (to && failedBefore && errorOf(c.next) === null) j.retry(to);
    const code = newFailure(c);
    if (code && (to ?? current)) j.fail((to ?? current)!, code);
  };
}

const topState = (s: Snap): string =>
  typeof s.value === 'string' ? s.value : (Object.keys(s.value ?? {})[0] ?? '');

/** Onboarding's steps by top state; any `pin*` state (creation, confirmation) is the PIN step. */
const onboardingStep = (s: Snap): InsightStep | null => {
  const top = topState(s);
  if (top.startsWith('pin')) return 'pin';
  if (is(s, 'kyc.loading') || is(s, 'kyc.loadFailed')) return 'kycLoad';
  const steps: Record<string, InsightStep> = {
    linkOpening: 'link',
    linkRefused: 'link',
    handoff: 'handoff',
    registration: 'registration',
    verification: 'verification',
    welcome: 'welcome',
    registering: 'register',
  };
  return steps[top] ?? null;
};
const stepBy =
  (pairs: Array<[string, InsightStep]>) =>
  (s: Snap): InsightStep | null =>
    pairs.find(([path]) => is(s, path))?.[1] ?? null;

const onboardingWizard = wizard(
  // The catalogue's order, but for the KYC child's own steps (the session and the camera).
  INSIGHT_STEPS.onboarding.filter((step) => step !== 'session' && step !== 'camera'),
  onboardingStep,
  { passed: ['complete'], cancelled: ['home'] },
);

/** The onboarding wizard (its KYC child is derived apart; `unexpected` fails the step it was on). */
const onboarding: Deriver = (j, c) => {
  if (into(c, 'patientExists') && j.current) return j.fail(j.current, 'patientExists');
  if (into(c, 'unexpected') && j.current) return j.fail(j.current, 'unexpected');
  if (into(c, 'kyc.running')) return j.pass('kycLoad'); // the KYC child enters its own steps
  // A kept registration continued (past the PIN): counted once, before the step it continues at.
  const proved = is(c.prev, 'verification') || is(c.prev, 'linkOpening');
  if (proved && c.next.context?.resumed === true && !is(c.next, 'pinCreation')) {
    onboardingWizard(j, c);
    const continuesAt = j.current;
    j.enter('resume');
    j.pass('resume');
    j.current = continuesAt;
    return;
  }
  // The KYC child's end: its last step passed (the parent moves on before the child's final snapshot).
  if (is(c.prev, 'kyc.running') && into(c, 'registering') && j.current) j.pass(j.current);
  onboardingWizard(j, c);
};

const kycWizard = wizard(
  ['selfie', 'document', 'review', 'supplementary'],
  stepBy([
    ['starting', 'selfie'],
    ['failed', 'selfie'],
    ['selfie', 'selfie'],
    ['document', 'document'],
    ['verifying', 'document'],
    // The read card's number looked up, and a card already a patient's (issue 29 item 10).
    ['checkingDocument', 'document'],
    ['documentRegistered', 'document'],
    ['rejected', 'document'],
    ['review', 'review'],
    ['supplementary', 'supplementary'],
  ]),
  // Its end (`done`) is the wizard's to record: see onboarding.
);

/**
 * The KYC child: the camera's outcome (its own step: opened or refused, with the browser's code),
 * then the wizard shape. A rejection after a selfie failure belongs to the selfie.
 */
const kyc: Deriver = (j, c) => {
  const cameraOpen = (s: Snap | null) => is(s, 'selfie.idle') || is(s, 'document.live.waiting');
  if (cameraOpen(c.next) && !cameraOpen(c.prev) && c.event.type === 'camera.ready') {
    j.enter('camera');
    j.pass('camera');
  }
  const camera = newFailure(c, 'cameraError');
  if (camera) {
    j.enter('camera');
    j.fail('camera', camera);
  }
  // The step of the camera events is the capture step, not the camera.
  if (j.current === 'camera') j.current = is(c.prev, 'document') ? 'document' : 'selfie';
  kycWizard(j, c);
};

/** The KYC child's supplementary form (its own machine): its failures and retries, on its step. */
const kycSupplementary: Deriver = (j, c) => {
  if (errorOf(c.prev) !== null && errorOf(c.next) === null) j.retry('supplementary');
  const code = newFailure(c);
  if (code) j.fail('supplementary', code);
};

/** The SMS code child (onboarding and recovery): wrong codes, resends and their failures. */
const otp: Deriver = (j, c) => {
  const code = newFailure(c);
  if (code) j.fail('verification', code);
  if (into(c, 'active.resend.resending')) j.retry('verification');
  const resend = newFailure(c, 'resendError');
  if (resend) j.fail('verification', resend);
};

/**
 * A wizard step's own child (onboarding's form, PIN and handoff steps): the errors it shows fail
 * the step, and leaving an error retries it; the wizard records entering and leaving the step.
 */
const stepChild =
  (step: InsightStep): Deriver =>
  (j, c) => {
    if (c.next.status !== 'active') return;
    if (errorOf(c.prev) !== null && errorOf(c.next) === null) j.retry(step);
    const code = newFailure(c);
    if (code) j.fail(step, code);
  };

const login: Deriver = wizard(['login'], () => 'login', { passed: ['done'], cancelled: [] });

const recovery: Deriver = (j, c) => {
  if (into(c, 'unexpected') && j.current) return j.fail(j.current, 'unexpected');
  recoveryWizard(j, c);
};
const recoveryWizard = wizard(
  ['request', 'verification', 'newPin'],
  stepBy([
    ['request', 'request'],
    ['verification', 'verification'],
    ['newPin', 'newPin'],
  ]),
  { passed: ['done'], cancelled: [] },
);

/**
 * Face authentication (parallel regions): the camera's outcome, the device's activation link, and
 * each recognition attempt (manual or kiosk) from its start to its decision, timed.
 */
const faceLogin: Deriver = (j, c) => {
  if (into(c, 'camera.on.live')) {
    j.enter('camera');
    j.pass('camera');
  }
  const camera = newFailure(c, 'cameraError');
  if (camera && is(c.next, 'camera.failed')) {
    j.enter('camera');
    j.fail('camera', camera);
  }
  if (into(c, 'device.activated')) {
    j.enter('activation');
    j.pass('activation');
  }
  const activation = newFailure(c, 'activationError');
  if (activation && is(c.next, 'device.activationFailed')) {
    j.enter('activation');
    j.fail('activation', activation);
  }
  const attempting = (s: Snap | null) =>
    is(s, 'auth.manual.attempt') || is(s, 'auth.kiosk.attempt');
  if (attempting(c.next) && !attempting(c.prev)) j.enter('recognition');
  const decidedAt = (s: Snap | null) =>
    is(s, 'auth.manual.decided') || is(s, 'auth.kiosk.cooldown');
  if (decidedAt(c.next) && !decidedAt(c.prev)) {
    const result = c.next.context?.result as { success?: boolean } | null | undefined;
    if (result?.success) j.pass('recognition');
    else j.fail('recognition', 'notRecognised');
  }
  const failedAt = (s: Snap | null) =>
    is(s, 'auth.manual.failed') || is(s, 'auth.kiosk.retrying') || is(s, 'auth.kiosk.blocked');
  const code = errorOf(c.next);
  if (failedAt(c.next) && !failedAt(c.prev) && code) j.fail('recognition', code);
};

const derivers: Record<string, Deriver> = {
  onboarding,
  registrationForm: stepChild('registration'),
  pinCreation: stepChild('pin'),
  pinRenewal: stepChild('pin'),
  handoff: stepChild('handoff'),
  kyc,
  kycSupplementary,
  otp,
  login,
  recovery,
  faceLogin,
};
const FLOW_OF: Record<string, InsightFlow> = {
  onboarding: 'onboarding',
  login: 'login',
  recovery: 'recovery',
  faceLogin: 'faceLogin',
};

/**
 * The `inspect` observer for one or more flow systems: a journey per flow machine (the root, or a
 * flow invoked by a machine that is none, such as login under the session), events from it and its
 * machine children. Unknown machines are ignored.
 */
export function createJourneyObserver(options: Options): (event: InspectionEvent) => void {
  const opts: Required<Options> = {
    now: () => Date.now(),
    newJourney: randomJourneyId,
    ...options,
  };
  const journeys = new Map<string, Journey>();
  const last = new Map<string, Snap>();
  return (ev) => {
    try {
      if (ev.type !== '@xstate.snapshot') return;
      const next = ev.snapshot as unknown as Snap;
      const id = next.machine?.id;
      const derive = id ? derivers[id] : undefined;
      if (!derive) return;
      const key = ev.actorRef.sessionId;
      // A flow's machine has its own journey, whether it is the root (onboarding, recovery) or the
      // child of a machine that is no flow (login, invoked by the session); the other machines
      // (otp, kyc) are steps of the flow at their root.
      const flow = id ? FLOW_OF[id] : undefined;
      const journeyKey = flow ? key : ev.rootId;
      let journey = journeys.get(journeyKey);
      if (!journey) {
        if (!flow) return;
        journey = new Journey(flow, opts);
        journeys.set(journeyKey, journey);
      }
      const prev = last.get(key) ?? null;
      if (prev && prev.value === next.value && prev.context === next.context) return;
      last.set(key, next);
      derive(journey, { prev, next, event: ev.event });
      if (next.status === 'done' || next.status === 'error' || next.status === 'stopped') {
        last.delete(key);
        if (key === journeyKey) journeys.delete(key);
      }
    } catch {
      // Insight never breaks a flow.
    }
  };
}
