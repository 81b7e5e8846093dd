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
};

const schema = z.object({
  INSIGHT_RETENTION_DAYS: int(90),
  INSIGHT_PURGE_MINUTES: int(60),
  INSIGHT_POSTS_PER_ADDRESS_MINUTE: int(30),
});

export function loadInsightSettings(env: Record<string, string | undefined>): InsightSettings {
  const c = parseEnv(schema, env);
  return {
    retentionMs: c.INSIGHT_RETENTION_DAYS * 86_400_000,
    purgeEveryMs: c.INSIGHT_PURGE_MINUTES * 60_000,
    postsPerAddressPerMinute: c.INSIGHT_POSTS_PER_ADDRESS_MINUTE,
  };
}
