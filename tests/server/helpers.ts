import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildApp, createContext, type AppDeps } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { AppContext } from '../../server/context';
import { openDb, type Db } from '../../server/db/client';
import { migratedPgliteImage } from './pglite-image';
import { loadOnboardingSettings, type OnboardingSettings } from '../../server/onboarding/config';
import { loadRecoverySettings, type RecoverySettings } from '../../server/recovery/config';
import { DEFAULT_OTP_SETTINGS } from '../../server/security/otp-config';
import { PRIVACY_VERSION, TERMS_VERSION } from '../../contract/terms';
import type { SmsMessage, SmsSender } from '../../server/sms/sender';

/**
 * A clock tests drive by hand: `now()` only moves when told; `sleep(ms)` advances it by `ms` and
 * resolves at once (login delays, SMS retry backoff), and records each wait.
 */
export class FakeClock {
  static readonly START = Date.parse('2025-03-03T12:00:00Z');
  readonly sleeps: number[] = [];
  constructor(public time = FakeClock.START) {}
  now = () => this.time;
  sleep = async (ms: number) => {
    this.sleeps.push(ms);
    this.time += ms;
  };
  advance(ms: number) {
    this.time += ms;
  }
  reset() {
    this.time = FakeClock.START;
    this.sleeps.length = 0;
  }
}

/** An SMS sender that keeps what it was given; `fail` makes the next sends throw. */
export class MemorySms implements SmsSender {
  readonly provider = 'outbox' as const;
  readonly sent: SmsMessage[] = [];
  fail = false;
  reset() {
    this.sent.length = 0;
    this.fail = false;
  }
  async send(message: SmsMessage) {
    if (this.fail) throw new Error('gateway down');
    this.sent.push(message);
  }
  /** The 6-digit code of the last SMS to a phone. */
  lastCode(celular: string): string {
    const body = this.sent.filter((s) => s.to === celular).at(-1)?.body ?? '';
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    if (!code) throw new Error(`no code sent to ${celular}`);
    return code;
  }
}

/** The PIN step's acceptance as the app sends it: the versions of the terms in force. */
export const TERMS_ACCEPTED = {
  termsAccepted: true,
  termsVersion: TERMS_VERSION,
  privacyVersion: PRIVACY_VERSION,
} as const;

export const testSecrets = {
  PIN_PEPPER: 'test-pepper-test-pepper-test-pepper-0123',
  OTP_SECRET: 'test-otp-secret-test-otp-secret-0123456',
  CASES_KEY: 'dGVzdC1jYXNlcy1rZXktdGVzdC1jYXNlcy1rZXktMDE',
};

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent',
    ...testSecrets,
    ...env,
  });
}

export function testOnboardingSettings(
  overrides: Partial<OnboardingSettings> = {},
): OnboardingSettings {
  return {
    sms: { provider: 'outbox', serviceName: 'Portal del Paciente' },
    otp: { ...DEFAULT_OTP_SETTINGS },
    registration: loadOnboardingSettings({}, 'test').registration,
    ...overrides,
  };
}

/**
 * PIN recovery's settings with no delivery delay: the delay (a timing defence, 200-1200 ms after
 * each answer) is what tests/server/recovery-timing.test.ts measures on the wall clock; elsewhere
 * it would only move the fake clock by a random amount (issue 32).
 */
export const testRecoverySettings = (): RecoverySettings => ({
  ...loadRecoverySettings({}),
  deliveryDelayMs: { min: 0, max: 0 },
});

/**
 * In-memory PGlite (from the migrated image, tests/server/pglite-image.ts); or, when TEST_DATABASE_URL is set, a fresh schema of that PostgreSQL database
 * (dropped on close), so test files can run in parallel against one server.
 */
export async function openTestDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDb({ memory: true, image: await migratedPgliteImage() });
  const schema = await createTestSchema(url);
  const db = await openDb({ databaseUrl: schema.url });
  return {
    ...db,
    async close() {
      await db.close();
      await schema.drop();
    },
  };
}

/** A fresh schema on that PostgreSQL: `url` reaches it (search_path); `drop()` removes it. */
export async function createTestSchema(
  base: string,
  prefix = 'test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const scoped = new URL(base);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: scoped.toString(),
    async drop() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  clock: FakeClock;
  /** Empties every table but migrations and reference data, and rewinds the clock. */
  reset(): Promise<void>;
  close(): Promise<void>;
};

/** Reference data seeded at start; every other table is emptied by reset(). */
const KEEP = new Set(['schema_migrations', 'departments', 'cities']);

/**
 * An app on a fresh in-memory PGlite, silent logs, a fake clock and the given overrides
 * (sms, kyc, onboarding settings, config env). Opening PGlite takes seconds: create one per file
 * (beforeAll), call reset() in beforeEach and close() in afterAll.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; deps?: AppDeps; clock?: FakeClock } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new FakeClock();
  const db = options.deps?.db ?? (await openTestDb());
  // The test process's environment, as server/main.ts passes its own (tests/identity set IDENTITY_*).
  const ctx = await createContext(
    testConfig(options.env),
    {
      onboarding: testOnboardingSettings(),
      recovery: testRecoverySettings(),
      ...options.deps,
      db,
      clock,
    },
    process.env,
  );
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    async reset() {
      const { rows } = await db.query<{ tablename: string }>(
        'SELECT tablename FROM pg_tables WHERE schemaname = current_schema()',
      );
      const tables = rows.map((r) => r.tablename).filter((name) => !KEEP.has(name));
      if (tables.length)
        await db.query(
          `TRUNCATE ${tables.map((n) => `"${n}"`).join(', ')} RESTART IDENTITY CASCADE`,
        );
      clock.reset();
      if (ctx.sms instanceof MemorySms) ctx.sms.reset();
    },
    async close() {
      await app.close();
      await db.close();
    },
  };
}

type TestAppOptions = Parameters<typeof createTestApp>[0];

/**
 * One app per test file (opening PGlite is slow), reset before each test. Read it as `h.t`
 * inside tests and hooks.
 */
export function useTestApp(options?: TestAppOptions): { readonly t: TestApp } {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(options);
  });
  beforeEach(async () => {
    await current!.reset();
  });
  afterAll(async () => {
    await current?.close();
  });
  return {
    get t() {
      if (!current)
        throw new Error('useTestApp: the app is not ready (use it inside tests or hooks)');
      return current;
    },
  };
}
