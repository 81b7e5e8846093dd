import type { InsightContext, InsightEvent } from '../../contract/insight';
import {
  INSIGHT_MAX_ATTEMPT,
  INSIGHT_MAX_DURATION_MS,
  INSIGHT_MAX_EVENTS_PER_JOURNEY,
  insightPaths,
} from '../../contract/insight.constants';

/**
 * Sends journey insight in batches: every `flushMs`, when `maxBatch` events wait, and with
 * `navigator.sendBeacon` when the page is hidden or left. Fire and forget: a failed send drops its
 * batch, and nothing here ever throws or waits on the flow's behalf.
 */
type InsightTransport = {
  /** POST the batch as JSON; may reject. */
  post(url: string, batch: object): Promise<unknown>;
  /** navigator.sendBeacon; false when the browser refused to queue it. */
  beacon?(url: string, body: string): boolean;
};

type InsightSender = {
  add(event: InsightEvent): void;
  /** Sends what waits (beacon: on page hide). */
  flush(mode?: 'fetch' | 'beacon'): void;
  /** Events queued and not yet handed to the transport. */
  readonly pending: number;
};

/**
 * An event within the catalogue's ranges (issue 29 item 6): a step that lasted longer than the
 * catalogue's hour is sent as the hour, attempts past its cap as the cap; a journey's events past
 * its cap are not sent (null), as the server would refuse their batch.
 */
function bounded(event: InsightEvent): InsightEvent | null {
  if (event.seq >= INSIGHT_MAX_EVENTS_PER_JOURNEY) return null;
  const { durationMs } = event;
  return {
    ...event,
    attempt: Math.min(event.attempt, INSIGHT_MAX_ATTEMPT),
    ...(durationMs !== undefined
      ? { durationMs: Math.min(durationMs, INSIGHT_MAX_DURATION_MS) }
      : {}),
  };
}

export function createInsightSender(options: {
  transport: InsightTransport;
  context: () => InsightContext;
  /**
   * The page's server-issued token (issue 29 item 7), or null while it is being fetched: then
   * events wait (the caller flushes once it arrives), and a beacon drops them.
   */
  token?: () => string | null;
  maxBatch?: number;
  flushMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}): InsightSender {
  const maxBatch = options.maxBatch ?? 20;
  const flushMs = options.flushMs ?? 5_000;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  let queue: InsightEvent[] = [];
  let timer: unknown = null;

  function flush(mode: 'fetch' | 'beacon' = 'fetch') {
    try {
      timer = null;
      const token = options.token ? options.token() : undefined;
      if (token === null) {
        // No token yet: at most ten batches wait for it; a page being left drops them.
        queue = mode === 'beacon' ? [] : queue.slice(-maxBatch * 10);
        return;
      }
      while (queue.length) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(maxBatch);
        const payload = { ...(token ? { token } : {}), context: options.context(), events: batch };
        if (
          mode === 'beacon' &&
          options.transport.beacon?.(insightPaths.events, JSON.stringify(payload))
        )
          continue;
        options.transport.post(insightPaths.events, payload).catch(() => {});
      }
    } catch {
      queue = [];
    }
  }

  return {
    add(event) {
      try {
        const sent = bounded(event);
        if (!sent) return;
        queue.push(sent);
        if (queue.length >= maxBatch) flush();
        else if (timer === null) timer = setTimer(() => flush(), flushMs);
      } catch {
        // never into the flow
      }
    },
    flush,
    get pending() {
      return queue.length;
    },
  };
}

type NavigatorLike = {
  userAgent?: string;
  userAgentData?: { mobile?: boolean };
  connection?: { effectiveType?: string };
};

/** Coarse context: mobile or desktop, the browser's family, the network's effective type. */
export function coarseContext(nav: NavigatorLike): InsightContext {
  const ua = nav.userAgent ?? '';
  const mobile = nav.userAgentData?.mobile ?? /Mobi|Android|iPhone|iPad/i.test(ua);
  const browser = /SamsungBrowser/.test(ua)
    ? 'samsung'
    : /Edg(e|A|iOS)?\//.test(ua)
      ? 'edge'
      : /OPR\/|Opera/.test(ua)
        ? 'opera'
        : /Firefox\/|FxiOS/.test(ua)
          ? 'firefox'
          : /Chrome\/|Chromium\/|CriOS/.test(ua)
            ? 'chrome'
            : /Safari\//.test(ua)
              ? 'safari'
              : 'other';
  const type = nav.connection?.effectiveType;
  const network =
    type === 'slow-2g' || type === '2g' || type === '3g' || type === '4g' ? type : undefined;
  return { device: mobile ? 'mobile' : 'desktop', browser, ...(network ? { network } : {}) };
}
