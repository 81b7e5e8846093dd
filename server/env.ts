import { z } from 'zod';

/**
 * Settings from the environment: the value parsers every config file uses, and parseEnv, which
 * validates them all at start (server/config.ts and each area's config.ts).
 */

/** A setting that cannot start the server; server/main.ts prints its message and exits. */
export class ConfigError extends Error {}

/** A yes/no setting: 1/0, true/false or yes/no. */
export const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** A whole number from `min` (1 unless given) to `max`; `def` when unset. */
export const int = (def: number, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);

/** A number (fractions allowed) from `min` to `max`; `def` when unset. */
export const num = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().min(min).max(max).default(def);

/** Parses the environment with a zod schema; a bad value stops the start with ConfigError. */
export function parseEnv<T>(schema: z.ZodType<T>, env: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
