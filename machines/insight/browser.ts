import type { InspectionEvent } from 'xstate';
import { request } from '../shared/http';
import { createJourneyObserver } from './derive';
import { coarseContext, createInsightSender } from './sender';

const ANY_ANSWER = { safeParse: (data: unknown) => ({ success: true as const, data }) };

/**
 * Journey insight in the page: an `inspect` observer for every flow's Provider that derives the
 * catalogue's events from the machines and sends them in batches (sendBeacon when the page is
 * hidden or left). Sending never blocks or breaks a flow: failures are dropped.
 */
export function startJourneyInsight(): (event: InspectionEvent) => void {
  const sender = createInsightSender({
    transport: {
      // Fire and forget: the answer is never read, so no schema (zod) is loaded to check it.
      post: (url, batch) => request(url, { body: batch, schema: ANY_ANSWER }),
      // A string goes as text/plain: no preflight, and every browser queues it.
      beacon: (url, body) => navigator.sendBeacon?.(url, body) ?? false,
    },
    context: () => coarseContext(navigator as Parameters<typeof coarseContext>[0]),
  });
  const hide = () => sender.flush('beacon');
  addEventListener('pagehide', hide);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hide();
  });
  return createJourneyObserver({ emit: (e) => sender.add(e) });
}
