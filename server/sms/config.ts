import { z } from 'zod';
import { ConfigError } from '../config';

export type SmsGatewaySettings = {
  url: string;
  user: string | undefined;
  password: string | undefined;
  sender: string;
  timeoutMs: number;
  /** Extra attempts after a 5xx answer (never after a 4xx, a timeout or a network error). */
  retries: number;
  retryBaseMs: number;
};

export type SmsConfig =
  | { provider: 'outbox'; serviceName: string }
  | { provider: 'http'; serviceName: string; gateway: SmsGatewaySettings };

/** Parses environment variables with a zod schema; a bad value stops the start with ConfigError. */
export function parseEnv<T>(schema: z.ZodType<T>, env: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

const schema = z.object({
  SMS_PROVIDER: z.enum(['outbox', 'http']).optional(),
  SMS_SERVICE_NAME: z.string().trim().min(1).max(40).default('Portal del Paciente'),
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_USER: z.string().optional(),
  SMS_GATEWAY_PASSWORD: z.string().optional(),
  SMS_GATEWAY_SENDER: z.string().trim().min(1).max(20).optional(),
  SMS_GATEWAY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  SMS_GATEWAY_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  SMS_GATEWAY_RETRY_BASE_MS: z.coerce.number().int().min(0).default(300),
});

/**
 * SMS settings from the environment. Outside production the development outbox is the default;
 * in production the HTTP gateway is the default and its URL is required (the outbox only when
 * SMS_PROVIDER=outbox is set explicitly).
 */
export function loadSmsConfig(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): SmsConfig {
  const c = parseEnv(schema, env);
  const provider =
    c.SMS_PROVIDER ?? (appEnv === 'production' || c.SMS_GATEWAY_URL ? 'http' : 'outbox');
  if (provider === 'outbox') return { provider, serviceName: c.SMS_SERVICE_NAME };
  if (!c.SMS_GATEWAY_URL) {
    throw new ConfigError(
      'Invalid configuration: SMS_GATEWAY_URL is required for the HTTP SMS gateway',
    );
  }
  return {
    provider,
    serviceName: c.SMS_SERVICE_NAME,
    gateway: {
      url: c.SMS_GATEWAY_URL,
      user: c.SMS_GATEWAY_USER,
      password: c.SMS_GATEWAY_PASSWORD,
      sender: c.SMS_GATEWAY_SENDER ?? c.SMS_SERVICE_NAME.slice(0, 11),
      timeoutMs: c.SMS_GATEWAY_TIMEOUT_MS,
      retries: c.SMS_GATEWAY_RETRIES,
      retryBaseMs: c.SMS_GATEWAY_RETRY_BASE_MS,
    },
  };
}
