import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  PIN_PEPPER: z.string().min(32).optional(),
  OTP_SECRET: z.string().min(32).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(15),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool.optional(),
  TRUST_PROXY: bool.default(false),
  LOGIN_DELAY_AFTER: z.coerce.number().int().positive().default(5),
  LOGIN_LOCK_AFTER: z.coerce.number().int().positive().default(10),
  LOGIN_DELAY_BASE_MS: z.coerce.number().int().min(0).default(1000),
  LOGIN_DELAY_MAX_MS: z.coerce.number().int().min(0).default(8000),
  LOGIN_IP_MAX_FAILURES: z.coerce.number().int().positive().default(30),
  LOGIN_IP_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024),
  STATIC_DIR: z.string().default('dist'),
  DEMO_PATIENT: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Secrets may be absent in config: development generates them into the data folder. */
  pinPepper: string | undefined;
  otpSecret: string | undefined;
  session: { idleMs: number; absoluteMs: number; cookieSecure: boolean | undefined };
  trustProxy: boolean;
  login: {
    delayAfter: number;
    lockAfter: number;
    delayBaseMs: number;
    delayMaxMs: number;
    ipMaxFailures: number;
    ipWindowMs: number;
  };
  bodyLimit: number;
  staticDir: string;
  demoPatient: boolean;
  logLevel: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.NODE_ENV === 'production' && (!c.PIN_PEPPER || !c.OTP_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: PIN_PEPPER and OTP_SECRET are required in production',
    );
  }
  return {
    env: c.NODE_ENV,
    host: c.HOST,
    port: c.PORT,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    pinPepper: c.PIN_PEPPER,
    otpSecret: c.OTP_SECRET,
    session: {
      idleMs: c.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: c.SESSION_ABSOLUTE_HOURS * 3_600_000,
      cookieSecure: c.COOKIE_SECURE,
    },
    trustProxy: c.TRUST_PROXY,
    login: {
      delayAfter: c.LOGIN_DELAY_AFTER,
      lockAfter: c.LOGIN_LOCK_AFTER,
      delayBaseMs: c.LOGIN_DELAY_BASE_MS,
      delayMaxMs: c.LOGIN_DELAY_MAX_MS,
      ipMaxFailures: c.LOGIN_IP_MAX_FAILURES,
      ipWindowMs: c.LOGIN_IP_WINDOW_MINUTES * 60_000,
    },
    bodyLimit: c.BODY_LIMIT_BYTES,
    staticDir: c.STATIC_DIR,
    demoPatient: c.DEMO_PATIENT ?? c.NODE_ENV === 'development',
    logLevel: c.LOG_LEVEL,
  };
}
