import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  insightBatch,
  type EngineDecision,
  type InsightTokenResponse,
} from '../../contract/insight';
import type { AppContext } from '../context';
import { HttpError, parseOr400 } from '../http/errors';
import { limitExceeded } from '../security/rate-limits';
import { createIngestGuard, refuseCrossSite } from './ingest';
import { insightMessages } from './messages';
import { insertBatch, insertDecisions, purgeExpired } from './store';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Journey insight's background work: the engine's decisions (`record`, batched; the app gives
     * the identity engine a recorder over it, server/app.ts), their flush and the retention delete.
     */
    insight: {
      record(decision: EngineDecision): void;
      flush(): Promise<void>;
      purge(): Promise<number>;
    };
  }
}

/** The engine writes in batches: at most every 2 s, or at once past this many decisions. */
const ENGINE_BATCH = 200;
const ENGINE_FLUSH_MS = 2000;

/**
 * Journey insight's server side that is not a route: the engine's decisions into `insight_events`
 * (batched, failures logged and dropped) and the retention delete (at start, then every
 * INSIGHT_PURGE_MINUTES; each process does it, which is harmless).
 */
export const insightPlugin = fp(
  async (app: FastifyInstance, opts: { ctx: AppContext }) => {
    const { ctx } = opts;
    let pending: Array<EngineDecision & { at: number }> = [];
    let timer: NodeJS.Timeout | null = null;
    let interval: NodeJS.Timeout | null = null;
    const flush = async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const rows = pending;
      pending = [];
      if (rows.length)
        await insertDecisions(ctx.db, rows).catch((err: unknown) =>
          app.log.warn({ event: 'insight_engine_write_failed', error: String(err) }),
        );
    };
    const purge = () =>
      purgeExpired(ctx.db, ctx.clock.now(), ctx.insight.retentionMs).catch((err: unknown) => {
        app.log.warn({ event: 'insight_purge_failed', error: String(err) });
        return 0;
      });
    let closed = false;
    const record = (decision: EngineDecision) => {
      if (closed) return;
      pending.push({ ...decision, at: ctx.clock.now() });
      if (pending.length >= ENGINE_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), ENGINE_FLUSH_MS).unref();
    };
    app.decorate('insight', { record, flush, purge });
    app.addHook('onReady', async () => {
      void purge();
      interval = setInterval(() => void purge(), ctx.insight.purgeEveryMs).unref();
    });
    app.addHook('onClose', async () => {
      closed = true;
      if (interval) clearInterval(interval);
      await flush();
    });
  },
  { name: 'insight', fastify: '5.x' },
);

/**
 * GET /api/insight/token: a page's short-lived token (./ingest.ts). POST /api/insight/events: a
 * batch of the catalogue's events (contract/insight.ts) with that token, as JSON or as the
 * text/plain navigator.sendBeacon sends. Unknown fields, flows, steps, outcomes or codes, or a
 * number outside its range: 400; no valid token: 401; cross-site: 403. At most INSIGHT_MAX_BATCH
 * events per request, INSIGHT_POSTS_PER_ADDRESS_MINUTE requests per client address and minute, and
 * the events per journey, token and day of ./ingest.ts (counted in this process's memory: the
 * address is never stored).
 */
export async function insightRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, insightMessages.badJson), undefined);
    }
  });
  const limiter = addressLimiter(ctx.insight.postsPerAddressPerMinute, 60_000);
  const tokenLimiter = addressLimiter(ctx.insight.tokensPerAddressPerMinute, 60_000);
  const guard = createIngestGuard(ctx.secrets.otpSecret, ctx.insight);
  app.get('/token', async (request): Promise<InsightTokenResponse> => {
    refuseCrossSite(request);
    const wait = tokenLimiter(request.ip, ctx.clock.now());
    if (wait > 0) throw limitExceeded(wait);
    return { success: true, ...guard.issue(ctx.clock.now()) };
  });
  app.post('/events', async (request) => {
    refuseCrossSite(request);
    const wait = limiter(request.ip, ctx.clock.now());
    if (wait > 0) throw limitExceeded(wait);
    const batch = parseOr400(insightBatch, request.body, insightMessages.badBatch);
    const journeys = guard.admit(batch.token, batch.events, ctx.clock.now());
    await insertBatch(ctx.db, batch, journeys, ctx.clock.now());
    return { success: true };
  });
}

/** A sliding window per key in memory: ms to wait, or 0 (and the request counted). */
function addressLimiter(max: number, windowMs: number) {
  const seen = new Map<string, number[]>();
  let sweptAt = 0;
  return (key: string, now: number): number => {
    if (now - sweptAt > windowMs) {
      sweptAt = now;
      for (const [k, times] of seen) if (times.at(-1)! <= now - windowMs) seen.delete(k);
    }
    const times = (seen.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length >= max) {
      seen.set(key, times);
      return times[0]! + windowMs - now;
    }
    times.push(now);
    seen.set(key, times);
    return 0;
  };
}
