import { z } from 'zod';
import { bool, ConfigError, int, parseEnv } from './env';

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(3000, 0, 65535),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  PIN_PEPPER: z.string().min(32).optional(),
  OTP_SECRET: z.string().min(32).optional(),
  // 32 bytes, base64 or base64url: the key that seals identity evidence and review cases at rest.
  CASES_KEY: z.string().min(43).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(15),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool.optional(),
  HSTS_INCLUDE_SUBDOMAINS: bool.default(false),
  TRUST_PROXY: z.string().default('false'),
  LOGIN_DELAY_AFTER: int(5),
  LOGIN_LOCK_AFTER: int(10),
  LOGIN_DELAY_BASE_MS: int(1000, 0),
  LOGIN_DELAY_MAX_MS: int(8000, 0),
  LOGIN_LOCK_MINUTES: z.coerce.number().positive().default(15),
  LOGIN_LOCK_MAX_MINUTES: z.coerce
    .number()
    .positive()
    .default(24 * 60),
  LOGIN_HARD_LOCK_AFTER: int(100),
  LOGIN_IP_MAX_FAILURES: int(30),
  LOGIN_IP_WINDOW_MINUTES: int(15),
  BODY_LIMIT_BYTES: int(16 * 1024),
  STATIC_DIR: z.string().default('dist'),
  DEMO_PATIENT: bool.optional(),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  SHUTDOWN_GRACE_MS: int(10_000, 0),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).optional(),
  PGLITE_SOCKET_TRANSACTION_MS: int(2_000, 100),
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
  casesKey: string | undefined;
  session: { idleMs: number; absoluteMs: number; cookieSecure: boolean | undefined };
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** Strict-Transport-Security on https answers; includeSubDomains only when every subdomain is https. */
  hstsIncludeSubdomains: boolean;
  login: {
    delayAfter: number;
    lockAfter: number;
    /** The first timed lock; each further lock since the last success doubles it, up to the max. */
    lockBaseMs: number;
    lockMaxMs: number;
    /** Failures without a success before a lock only PIN recovery or the operator lifts. */
    hardLockAfter: number;
    delayBaseMs: number;
    delayMaxMs: number;
    ipMaxFailures: number;
    ipWindowMs: number;
  };
  bodyLimit: number;
  staticDir: string;
  demoPatient: boolean;
  logLevel: string;
  /** 'pretty' (one readable line per event; development's default) or 'json'. */
  logFormat: 'pretty' | 'json';
  /** How long in-flight requests may take to finish on SIGTERM/SIGINT. */
  shutdownGraceMs: number;
  /** On SIGTERM/SIGINT, how long /api/ready answers 503 while requests are still served. */
  shutdownDrainMs: number;
  /** PGlite only: the longest an operator command may hold the database through the socket. */
  pgliteSocketTransactionMs: number;
};

/**
 * What the start-up log must say about a configuration that weakens a default (logged as warnings
 * by server/main.ts): production cookies without `Secure` (COOKIE_SECURE=false, a closed test
 * network say).
 */
export function startupWarnings(config: Config): { event: string; message: string }[] {
  const warnings: { event: string; message: string }[] = [];
  if (config.env === 'production' && config.session.cookieSecure === false)
    warnings.push({
      event: 'cookies_not_secure',
      message:
        'COOKIE_SECURE=false: session, recovery and kiosk cookies are sent without Secure (plain http); use only on a closed network',
    });
  return warnings;
}

type TrustProxy = false | number | string[];

const IPV4_CIDR = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
const IPV6_CIDR = /^[0-9a-f:.]*:[0-9a-f:.]*(\/\d{1,3})?$/i;
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `false` (default: the socket address is the client), a hop count (`1`: one proxy of
 * ours in front, the client is the address it appended to X-Forwarded-For), or a comma-separated
 * list of the proxies' addresses or CIDRs (`127.0.0.1`, `10.0.0.0/8`, `loopback`). `true` means one
 * proxy (hop count 1): the client-written left-most X-Forwarded-For entry is never trusted.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'no') return false;
  // `true` used to mean "behind a proxy": it now means one proxy of ours, never the left-most entry.
  if (v === 'true' || v === 'yes') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim());
  if (list.every((s) => PROXY_NAMES.has(s) || IPV4_CIDR.test(s) || IPV6_CIDR.test(s))) return list;
  throw new ConfigError(
    "Invalid configuration:\nTRUST_PROXY: use false, a hop count (1 = one proxy in front) or the proxies' addresses (127.0.0.1,10.0.0.0/8)",
  );
}

/**
 * TRUST_PROXY as Fastify's option. Fastify takes addresses itself; it no longer honours a bare hop
 * count (it cannot check the peer), so a hop count becomes "trust the n nearest hops": the client
 * is the address the n-th proxy appended, never a client-written entry to its left. A hop count
 * trusts whoever connects: use it only where the proxy is the only way in.
 */
export function fastifyTrustProxy(
  tp: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof tp === 'number') return (_address, hop) => hop < tp;
  return tp;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const c = parseEnv(schema, env);
  if (c.NODE_ENV === 'production' && (!c.PIN_PEPPER || !c.OTP_SECRET || !c.CASES_KEY)) {
    throw new ConfigError(
      'Invalid configuration: PIN_PEPPER, OTP_SECRET and CASES_KEY are required in production',
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
    casesKey: c.CASES_KEY,
    session: {
      idleMs: c.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: c.SESSION_ABSOLUTE_HOURS * 3_600_000,
      // Production's cookies are Secure unless COOKIE_SECURE=false says otherwise (logged at start).
      cookieSecure: c.COOKIE_SECURE ?? (c.NODE_ENV === 'production' ? true : undefined),
    },
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    hstsIncludeSubdomains: c.HSTS_INCLUDE_SUBDOMAINS,
    login: {
      delayAfter: c.LOGIN_DELAY_AFTER,
      lockAfter: c.LOGIN_LOCK_AFTER,
      lockBaseMs: c.LOGIN_LOCK_MINUTES * 60_000,
      lockMaxMs: c.LOGIN_LOCK_MAX_MINUTES * 60_000,
      hardLockAfter: c.LOGIN_HARD_LOCK_AFTER,
      delayBaseMs: c.LOGIN_DELAY_BASE_MS,
      delayMaxMs: c.LOGIN_DELAY_MAX_MS,
      ipMaxFailures: c.LOGIN_IP_MAX_FAILURES,
      ipWindowMs: c.LOGIN_IP_WINDOW_MINUTES * 60_000,
    },
    bodyLimit: c.BODY_LIMIT_BYTES,
    staticDir: c.STATIC_DIR,
    demoPatient: c.DEMO_PATIENT ?? c.NODE_ENV === 'development',
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT ?? (c.NODE_ENV === 'development' ? 'pretty' : 'json'),
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: c.SHUTDOWN_DRAIN_MS ?? (c.NODE_ENV === 'production' ? 5_000 : 0),
    pgliteSocketTransactionMs: c.PGLITE_SOCKET_TRANSACTION_MS,
  };
}
