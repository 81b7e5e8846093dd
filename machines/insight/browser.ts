import type { InspectionEvent } from 'xstate';
import { insightPaths, type InsightTokenResponse } from '../../contract/insight.constants';
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
  // The page's token (issue 29 item 7): asked for at once, renewed a minute before it expires, and
  // asked again a minute after a failure; events wait for it.
  let token: string | null = null;
  const renew = () => {
    token = null;
    request(insightPaths.token, { method: 'GET', schema: ANY_ANSWER })
      .then((answer) => {
        const { token: issued, expiresInSeconds } = answer as Partial<InsightTokenResponse>;
        if (typeof issued !== 'string' || typeof expiresInSeconds !== 'number') throw new Error();
        token = issued;
        setTimeout(renew, Math.max(60, expiresInSeconds - 60) * 1000);
        sender.flush();
      })
      .catch(() => setTimeout(renew, 60_000));
  };
  const sender = createInsightSender({
    token: () => token,
    transport: {
      // Fire and forget: the answer is never read, so no schema (zod) is loaded to check it. Kept
      // alive: a batch on its way when the page is left still arrives (issue 43 item 11).
      post: (url, batch) => request(url, { body: batch, schema: ANY_ANSWER, keepalive: true }),
      // A string goes as text/plain: no preflight, and every browser queues it.
      beacon: (url, body) => navigator.sendBeacon?.(url, body) ?? false,
    },
    context: () => coarseContext(navigator as Parameters<typeof coarseContext>[0]),
  });
  renew();
  const hide = () => sender.flush('beacon');
  addEventListener('pagehide', hide);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hide();
  });
  // A flow's end is sent at once, not up to 5 s later: a patient who saves the PIN and leaves
  // within a second took 'PIN guardado' away unsent (issue 43 item 11).
  return createJourneyObserver({ emit: (e) => sender.add(e), ended: () => sender.flush() });
}
