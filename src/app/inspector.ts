import type { InspectionEvent, Observer } from 'xstate';
import { startJourneyInsightWhenIdle } from '../../machines/insight/deferred';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * Passed to every flow's Provider (`options={{ inspect }}`). In the page it always carries journey
 * insight (machines/insight: catalogue events derived from the flows' machines, issue 17), loaded
 * once the page is idle (machines/insight/deferred.ts: none of it on the first load's critical
 * path). The
 * development build with VITE_XSTATE_INSPECT adds: '1' Stately's inspector (its hosted UI: needs
 * internet access) and the offline log; 'log' only the offline log (console at the normal level +
 * window.__xstateEventLog; no internet needed). Neither is in a production bundle.
 */
export let inspect: Inspect | undefined;

export type LoggedEvent = {
  at: number;
  /** the actor by name: its machine's id ('login', 'otp', 'kyc'), else its invoke id ('sendCode') */
  actor: string;
  /** the actor's session id: tells two actors of one machine apart */
  session: string;
  kind: 'event' | 'snapshot';
  type?: string;
  value?: unknown;
};

/**
 * A readable name for an actor: its machine's id for a state machine ('onboarding', 'otp',
 * 'kyc'), else the id it was invoked or spawned with ('sendCode', 'camera'), never XState's
 * generated 'x:4' when something better exists.
 */
function actorName(actorRef: InspectionEvent['actorRef']): string {
  const ref = actorRef as {
    id?: string;
    sessionId: string;
    src?: unknown;
    logic?: { id?: unknown; config?: unknown };
  };
  const logic = ref.logic;
  const machineId = logic && logic.config && typeof logic.id === 'string' ? logic.id : null;
  const id = ref.id ?? ref.sessionId;
  return machineId ?? (typeof ref.src === 'string' && /^x:\d+$/.test(id) ? ref.src : id);
}

/** Event payloads may carry a PIN, a code or an image: only event types and state values are kept. */
export function createEventLog(sink: (entry: LoggedEvent) => void, limit = 500) {
  const entries: LoggedEvent[] = [];
  const push = (entry: LoggedEvent) => {
    entries.push(entry);
    if (entries.length > limit) entries.shift();
    sink(entry);
  };
  const observe = (ev: InspectionEvent) => {
    const actor = actorName(ev.actorRef);
    const session = ev.actorRef.sessionId;
    if (ev.type === '@xstate.event')
      push({ at: Date.now(), actor, session, kind: 'event', type: ev.event.type });
    else if (ev.type === '@xstate.snapshot') {
      const snap = ev.snapshot as { value?: unknown };
      if (snap.value !== undefined)
        push({ at: Date.now(), actor, session, kind: 'snapshot', value: snap.value });
    }
  };
  return { observe, entries };
}

export async function initInspector(): Promise<void> {
  // Hydration first: journey insight (its derivation, catalogue and sender) loads when the page is
  // idle and catches up on the flows' events from the start.
  const journey = startJourneyInsightWhenIdle();
  inspect = journey;
  if (!import.meta.env.DEV) return;
  const mode = import.meta.env.VITE_XSTATE_INSPECT as string | undefined;
  if (!mode) return;
  // console.log: Chrome hides console.debug behind its 'Verbose' level.
  const log = createEventLog((e) =>
    console.log('[xstate]', e.actor, e.kind === 'event' ? e.type : JSON.stringify(e.value)),
  );
  (window as unknown as { __xstateEventLog: LoggedEvent[] }).__xstateEventLog = log.entries;
  if (mode === 'log') {
    inspect = (ev) => {
      journey(ev);
      log.observe(ev);
    };
    return;
  }
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const stately = createBrowserInspector();
  inspect = (ev) => {
    journey(ev);
    log.observe(ev);
    stately.inspect.next?.(ev);
  };
}
