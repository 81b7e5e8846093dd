import type { InspectionEvent } from 'xstate';

/**
 * Journey insight off the first load's critical path: the `inspect` observer every flow gets is
 * this module's small queue; the derivation, the catalogue and the sender (./browser.ts, their own
 * chunk) load once the page is idle after its load event and catch up on the events from the start.
 */

/** At most this many inspection events wait for journey insight to load; later ones are dropped. */
const DEFERRED_MAX = 2_000;

/**
 * An observer that is there at once and loads its real target later: the inspection events that
 * arrive before `start()` has loaded it wait in order and are replayed to it, then it gets each
 * event directly. A target that fails to load drops what waited (insight never breaks a flow).
 */
export function deferredObserver(
  load: () => Promise<(event: InspectionEvent) => void>,
  max = DEFERRED_MAX,
) {
  let target: ((event: InspectionEvent) => void) | null = null;
  let waiting: InspectionEvent[] | null = [];
  let started: Promise<void> | null = null;
  const observe = (event: InspectionEvent) => {
    if (target) target(event);
    else if (waiting && waiting.length < max) waiting.push(event);
  };
  const start = (): Promise<void> =>
    (started ??= load().then(
      (loaded) => {
        const replay = waiting ?? [];
        waiting = null;
        target = loaded;
        for (const event of replay) loaded(event);
      },
      () => {
        waiting = null;
      },
    ));
  return {
    observe,
    start,
    get waiting() {
      return waiting?.length ?? 0;
    },
  };
}

/** After the load event, when the main thread is next idle (or after 2 s at the latest). */
function whenIdle(run: () => void): void {
  const idle = () =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => run(), { timeout: 2_000 })
      : setTimeout(run, 1);
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

/** The page's journey insight: an observer at once, the real one (./browser.ts) once idle. */
export function startJourneyInsightWhenIdle(): (event: InspectionEvent) => void {
  const deferred = deferredObserver(() => import('./browser').then((m) => m.startJourneyInsight()));
  whenIdle(() => void deferred.start());
  return deferred.observe;
}
