import type { InspectionEvent, Observer } from 'xstate';
import { startJourneyInsight } from '../../machines/insight/browser';

export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * Passed to every flow's Provider (`options={{ inspect }}`). In the page it always carries journey
 * insight (machines/insight: catalogue events derived from the flows' machines, issue 17). The
 * development build with VITE_XSTATE_INSPECT adds: '1' Stately's inspector and the offline log;
 * 'log' only the offline log (console + window.__xstateEventLog). Neither is in a production bundle.
 */
export let inspect: Inspect | undefined;

export type LoggedEvent = {
  at: number;
  actor: string;
  kind: 'event' | 'snapshot';
  type?: string;
  value?: unknown;
};

/** Event payloads may carry a PIN, a code or an image: only event types and state values are kept. */
export function createEventLog(sink: (entry: LoggedEvent) => void, limit = 500) {
  const entries: LoggedEvent[] = [];
  const push = (entry: LoggedEvent) => {
    entries.push(entry);
    if (entries.length > limit) entries.shift();
    sink(entry);
  };
  const observe = (ev: InspectionEvent) => {
    const actor = ev.actorRef.sessionId;
    if (ev.type === '@xstate.event')
      push({ at: Date.now(), actor, kind: 'event', type: ev.event.type });
    else if (ev.type === '@xstate.snapshot') {
      const snap = ev.snapshot as { value?: unknown };
      if (snap.value !== undefined)
        push({ at: Date.now(), actor, kind: 'snapshot', value: snap.value });
    }
  };
  return { observe, entries };
}

export async function initInspector(): Promise<void> {
  const journey = startJourneyInsight();
  inspect = journey;
  if (!import.meta.env.DEV) return;
  const mode = import.meta.env.VITE_XSTATE_INSPECT as string | undefined;
  if (!mode) return;
  const log = createEventLog((e) =>
    console.debug('[xstate]', e.actor, e.kind === 'event' ? e.type : JSON.stringify(e.value)),
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
