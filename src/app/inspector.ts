import type { InspectionEvent, Observer } from 'xstate';

export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * Passed to every flow's Provider (`options={{ inspect }}`). Undefined unless the development build
 * runs with VITE_XSTATE_INSPECT: '1' opens Stately's inspector and keeps the offline log; 'log'
 * keeps only the offline log (console + window.__xstateEventLog). Never in a production bundle.
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
  if (!import.meta.env.DEV) return;
  const mode = import.meta.env.VITE_XSTATE_INSPECT as string | undefined;
  if (!mode) return;
  const log = createEventLog((e) =>
    console.debug('[xstate]', e.actor, e.kind === 'event' ? e.type : JSON.stringify(e.value)),
  );
  (window as unknown as { __xstateEventLog: LoggedEvent[] }).__xstateEventLog = log.entries;
  if (mode === 'log') {
    inspect = log.observe;
    return;
  }
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const stately = createBrowserInspector();
  inspect = (ev) => {
    log.observe(ev);
    stately.inspect.next?.(ev);
  };
}
