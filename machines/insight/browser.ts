import type { InspectionEvent } from 'xstate';
import { resultResponse } from '../../contract/common';
import { request } from '../shared/http';
import { createJourneyObserver } from './derive';
import { coarseContext, createInsightSender } from './sender';

/**
 * Journey insight in the page: an `inspect` observer for every flow's Provider that derives the
 * catalogue's events from the machines and sends them in batches (sendBeacon when the page is
 * hidden or left). Sending never blocks or breaks a flow: failures are dropped.
 */
export function startJourneyInsight(): (event: InspectionEvent) => void {
  const sender = createInsightSender({
    transport: {
      post: (url, batch) => request(url, { body: batch, schema: resultResponse }),
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
