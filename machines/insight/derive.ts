import { INSIGHT_STEPS } from '../../contract/insight.constants';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { Journey, randomJourneyId, type JourneyOptions } from './journey';
import type { InsightMeta, InsightStateMeta } from './meta';
import type { BrowserError, InsightStep } from '../../contract/insight';

/**
 * Journey insight from the flows' own machines (issue 17): an inspection observer (XState's
 * `inspect` option, the same hook as the inspector) that watches every actor of a flow's system
 * (the flow, its OTP and KYC children) and turns state changes into catalogue events (entering a
 * step, leaving it forward, an error code shown, a retry, a cancel, the camera's outcome). What a
 * state is for the journey, each state declares in its `meta` (./meta.ts, `snapshot.getMeta()`):
 * nothing here names a state, so a renamed one is still counted. It reads those declarations, tags
 * and the context's error codes only: never a field the patient typed. It never throws into the
 * flow (every call is guarded) and keeps nothing after the flow ends; the journey bookkeeping
 * (order, timing, attempts) is ./journey.ts.
 */

type Insight = InsightMeta;

/** What the derivation reads of a machine snapshot (XState's MachineSnapshot has all of it). */
type Snap = {
  value: unknown;
  status?: string;
  context?: Record<string, unknown>;
  hasTag?: (tag: string) => boolean;
  getMeta?: () => Record<string, InsightStateMeta | undefined>;
  machine?: { id?: string };
  children?: Record<string, { getSnapshot?: () => unknown } | undefined>;
};

/**
 * Child machines that are states of their parent, by machine id: the KYC's way out (issue 30, the
 * `assist` child, kyc.assist.machine.ts) was states of the KYC machine and is counted as such. A
 * part's snapshot is read inside its parent's (`withParts`), so the parent's derivation
 * sees one machine: the part's value under the state that runs it, its tags and meta beside the
 * parent's, the parent's context.
 */
const PARTS = new Set(['kycAssist']);

/** `value` with the state `id` holding `inner` (the part's value under the state running it). */
const nest = (value: unknown, id: string, inner: unknown): unknown =>
  value === id
    ? { [id]: inner }
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nest(v, id, inner)]))
      : value;

/**
 * A snapshot with its parts (PARTS) read into it (one without any as it is), and what tells it
 * apart from another (its value and context, and its parts').
 */
function withParts(s: Snap): { snap: Snap; marks: unknown[] } {
  const parts = Object.entries(s.children ?? {}).flatMap(([id, ref]) => {
    const part = ref?.getSnapshot?.() as Snap | undefined;
    return part?.machine?.id && PARTS.has(part.machine.id) ? [{ id, part }] : [];
  });
  const marks = [s.value, s.context, ...parts.flatMap(({ part }) => [part.value, part.context])];
  if (!parts.length) return { snap: s, marks };
  const snap: Snap = {
    value: parts.reduce((v, { id, part }) => nest(v, id, part.value), s.value),
    status: s.status,
    context: s.context,
    hasTag: (tag) => Boolean(s.hasTag?.(tag)) || parts.some(({ part }) => part.hasTag?.(tag)),
    getMeta: () => Object.assign({}, s.getMeta?.(), ...parts.map(({ part }) => part.getMeta?.())),
    machine: s.machine,
  };
  return { snap, marks };
}
const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((m, i) => m === b[i]);

/** A state change of one machine actor: the snapshot before (none at start) and after. */
type Change = { prev: Snap | null; next: Snap; event: { type: string } };
type Deriver = (journey: Journey, change: Change) => void;

/** What the active states declare (./meta.ts), outermost first. */
const declared = (s: Snap | null): Insight[] =>
  Object.values(s?.getMeta?.() ?? {}).flatMap((meta) => (meta?.insight ? [meta.insight] : []));
/** The first declaration of `key` among the active states (the deepest with `deepest`). */
function find<K extends keyof Insight>(s: Snap | null, key: K, deepest = false) {
  const found = declared(s).filter((m) => m[key] !== undefined);
  return (deepest ? found.at(-1) : found[0])?.[key];
}
/** The step a state belongs to: the deepest state's that declares one. */
const stepOf = (s: Snap | null): InsightStep | null => find(s, 'step', true) ?? null;
/** Declared by a state entered with this change (and by none of the states before). */
const entered = (c: Change, has: (m: Insight) => boolean) =>
  declared(c.next).some(has) && !declared(c.prev).some(has);

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
/** The flow's steps in order (the catalogue's). */
const orderOf = (j: Journey): readonly InsightStep[] => INSIGHT_STEPS[j.flow];
const after = (j: Journey, step: InsightStep | null, than: InsightStep | null | undefined) =>
  step !== null && than != null && orderOf(j).indexOf(step) > orderOf(j).indexOf(than);

/**
 * The common shape of a wizard machine: each state belongs to a step (in the flow's order);
 * moving forward passes the step, a back arrow cancels it, an error state fails it, leaving an
 * error state retries it, and a final state declared `end` passes or cancels the last one. A state
 * declared `fails` fails the step the journey is on.
 */
const wizard: Deriver = (j, c) => {
  const fails = entered(c, (m) => m.fails !== undefined) ? find(c.next, 'fails') : undefined;
  if (fails && j.current) return j.fail(j.current, fails);
  // A case opened (issue 30): the step the journey was on ends there, handed to a person.
  if (entered(c, (m) => m.end === 'assisted') && j.current) return j.fail(j.current, 'assisted');
  const from = stepOf(c.prev);
  const to = stepOf(c.next);
  const current = j.current;
  if (c.next.status === 'done') {
    // The step this machine was on (a parent may already have moved on to its next step).
    const last = from ?? current;
    const end = find(c.next, 'end');
    if (last && end === 'passed') j.pass(last);
    else if (last && end === 'cancelled') j.cancel(last);
    return;
  }
  // An error shown before; it is gone (fixed, or the state left) when the step is retried.
  const failedBefore = errorOf(c.prev) !== null;
  if (to && to !== from) {
    if (from && failedBefore) j.retry(from);
    else if (from && c.event.type === 'flow.back') j.cancel(from);
    else if (from && after(j, to, from)) j.pass(from);
    else if (from) j.retry(from);
    j.enter(to);
  } else if (to && failedBefore && errorOf(c.next) === null) j.retry(to);
  const code = newFailure(c);
  if (code && (to ?? current)) j.fail((to ?? current)!, code);
};

/**
 * The onboarding wizard (its children are derived apart): a kept registration continued past the
 * PIN counts the resume; the KYC child records its own steps while the wizard runs it.
 */
const onboarding: Deriver = (j, c) => {
  const child = find(c.next, 'child');
  if (child && !find(c.prev, 'child')) return j.pass(child); // the child enters its own steps
  // A kept registration continued (past the PIN): counted once, before the step it continues at.
  if (after(j, stepOf(c.next), find(c.prev, 'resumesPast'))) {
    wizard(j, c);
    const continuesAt = j.current;
    j.enter('resume');
    j.pass('resume');
    j.current = continuesAt;
    return;
  }
  // The child's end, forward: its last step passed (the wizard moves on before the child's final
  // snapshot).
  if (find(c.prev, 'child') && !find(c.next, 'child') && j.current) {
    if (after(j, stepOf(c.next), j.current)) j.pass(j.current);
  }
  wizard(j, c);
};

/**
 * The KYC child: the camera's outcome (its own step: opened or refused, with the browser's code),
 * then the wizard shape. Its end (`done`) is the wizard's to record: see onboarding.
 */
const kyc: Deriver = (j, c) => {
  if (entered(c, (m) => m.cameraLive === true) && c.event.type === 'camera.ready') {
    j.enter('camera');
    j.pass('camera');
  }
  const camera = newFailure(c, 'cameraError');
  if (camera) {
    j.enter('camera');
    j.fail('camera', camera);
  }
  // The step of the camera events is the capture step, not the camera.
  if (j.current === 'camera') j.current = stepOf(c.prev) === 'document' ? 'document' : 'selfie';
  wizard(j, c);
};

/**
 * A step's own child (onboarding's form, PIN and handoff steps, KYC's supplementary form), on the
 * step its root declares: the errors it shows fail the step, and leaving an error retries it; the
 * wizard records entering and leaving the step.
 */
const stepErrors =
  (activeOnly: boolean): Deriver =>
  (j, c) => {
    const step = stepOf(c.next);
    if (!step || (activeOnly && c.next.status !== 'active')) return;
    if (errorOf(c.prev) !== null && errorOf(c.next) === null) j.retry(step);
    const code = newFailure(c);
    if (code) j.fail(step, code);
  };

/** The SMS code child (onboarding and recovery): wrong codes, resends and their failures. */
const otp: Deriver = (j, c) => {
  const step = stepOf(c.next);
  if (!step) return;
  const code = newFailure(c);
  if (code) j.fail(step, code);
  if (entered(c, (m) => m.retry === true)) j.retry(step);
  const resend = newFailure(c, 'resendError');
  if (resend) j.fail(step, resend);
};

/**
 * Face authentication (parallel regions): the camera's outcome, the device's activation link, and
 * each recognition attempt (manual or kiosk) from its start to its decision, timed.
 */
const faceLogin: Deriver = (j, c) => {
  for (const { outcome, attempt } of declared(c.next)) {
    if (outcome?.error) {
      const code = newFailure(c, outcome.error);
      if (code) {
        j.enter(outcome.step);
        j.fail(outcome.step, code);
      }
    } else if (outcome && entered(c, (m) => m.outcome?.step === outcome.step && !m.outcome.error)) {
      j.enter(outcome.step);
      j.pass(outcome.step);
    }
    if (!attempt || !entered(c, (m) => m.attempt?.at === attempt.at)) continue;
    if (attempt.at === 'attempt') j.enter(attempt.step);
    else if (attempt.at === 'decided' && attempt.passed?.(c.next.context as never))
      j.pass(attempt.step);
    else if (attempt.at === 'decided') j.fail(attempt.step, 'notRecognised');
    else {
      const code = errorOf(c.next);
      if (code) j.fail(attempt.step, code);
    }
  }
};

/** The derivation of each machine, by its id (a flow's root declares its flow: see ./meta.ts). */
const derivers: Record<string, Deriver> = {
  onboarding,
  registrationForm: stepErrors(true),
  pinCreation: stepErrors(true),
  pinRenewal: stepErrors(true),
  registering: stepErrors(true),
  handoff: stepErrors(true),
  kyc,
  kycSupplementary: stepErrors(false),
  otp,
  login: wizard,
  recovery: wizard,
  faceLogin,
};

/**
 * The `inspect` observer for one or more flow systems: a journey per flow machine (the root, or a
 * flow invoked by a machine that is none, such as login under the session), events from it and its
 * machine children. Unknown machines are ignored.
 */
export function createJourneyObserver(options: JourneyOptions): (event: InspectionEvent) => void {
  const opts: Required<JourneyOptions> = {
    now: () => Date.now(),
    newJourney: randomJourneyId,
    ended: () => {},
    ...options,
  };
  const journeys = new Map<string, Journey>();
  const last = new Map<string, { snap: Snap; marks: unknown[] }>();
  return (ev) => {
    try {
      if (ev.type !== '@xstate.snapshot') return;
      // A part's change (PARTS) is its parent's: the parent's snapshot, the part read into it.
      const own = ev.snapshot as unknown as Snap;
      const part = own.machine?.id !== undefined && PARTS.has(own.machine.id);
      const actor = part ? (ev.actorRef as AnyActorRef)._parent : ev.actorRef;
      if (!actor) return;
      const { snap: next, marks } = withParts((part ? actor.getSnapshot() : own) as Snap);
      const id = next.machine?.id;
      const derive = id ? derivers[id] : undefined;
      if (!derive) return;
      const key = actor.sessionId;
      // A flow's machine has its own journey, whether it is the root (onboarding, recovery) or the
      // child of a machine that is no flow (login, invoked by the session); the other machines
      // (otp, kyc) are steps of the flow at their root.
      const flow = find(next, 'flow');
      const journeyKey = flow ? key : ev.rootId;
      let journey = journeys.get(journeyKey);
      if (!journey) {
        if (!flow) return;
        journey = new Journey(flow, opts);
        journeys.set(journeyKey, journey);
      }
      const before = last.get(key);
      if (before && same(before.marks, marks)) return;
      last.set(key, { snap: next, marks });
      derive(journey, { prev: before?.snap ?? null, next, event: ev.event });
      if (next.status === 'done' || next.status === 'error' || next.status === 'stopped') {
        last.delete(key);
        if (key === journeyKey) {
          journeys.delete(key);
          opts.ended();
        }
      }
    } catch {
      // Insight never breaks a flow.
    }
  };
}
