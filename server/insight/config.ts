import { z } from 'zod';
import { int, parseEnv } from '../env';

/** Journey insight's settings (issue 17). */
export type InsightSettings = {
  /** events older than this are deleted by the server */
  retentionMs: number;
  /** how often the server deletes them (and once at start) */
  purgeEveryMs: number;
  /** POST /api/insight/events per client address per minute, per process */
  postsPerAddressPerMinute: number;
  /** GET /api/insight/token per client address per minute, per process */
  tokensPerAddressPerMinute: number;
  /** a page token's life: a journey longer than this continues under a new one */
  tokenMs: number;
  /** events per page token, and per process and day (what a day can add to the table) */
  eventsPerToken: number;
  eventsPerDay: number;
};

const schema = z.object({
  INSIGHT_RETENTION_DAYS: int(90),
  INSIGHT_PURGE_MINUTES: int(60),
  INSIGHT_POSTS_PER_ADDRESS_MINUTE: int(30),
  INSIGHT_TOKENS_PER_ADDRESS_MINUTE: int(10),
  INSIGHT_TOKEN_MINUTES: int(120),
  INSIGHT_EVENTS_PER_TOKEN: int(2_000),
  INSIGHT_EVENTS_PER_DAY: int(100_000),
});

export function loadInsightSettings(env: Record<string, string | undefined>): InsightSettings {
  const c = parseEnv(schema, env);
  return {
    retentionMs: c.INSIGHT_RETENTION_DAYS * 86_400_000,
    purgeEveryMs: c.INSIGHT_PURGE_MINUTES * 60_000,
    postsPerAddressPerMinute: c.INSIGHT_POSTS_PER_ADDRESS_MINUTE,
    tokensPerAddressPerMinute: c.INSIGHT_TOKENS_PER_ADDRESS_MINUTE,
    tokenMs: c.INSIGHT_TOKEN_MINUTES * 60_000,
    eventsPerToken: c.INSIGHT_EVENTS_PER_TOKEN,
    eventsPerDay: c.INSIGHT_EVENTS_PER_DAY,
  };
}
