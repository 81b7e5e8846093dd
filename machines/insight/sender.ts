import type { InsightContext, InsightEvent } from '../../contract/insight';
import { insightPaths } from '../../contract/insight.constants';

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

export function createInsightSender(options: {
  transport: InsightTransport;
  context: () => InsightContext;
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
      while (queue.length) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(maxBatch);
        const payload = { context: options.context(), events: batch };
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
        queue.push(event);
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
