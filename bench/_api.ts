/** What the API benches share: percentiles and an app on an in-memory PGlite (not a bench itself). */
import { buildApp, createContext, type AppDeps } from '../server/app';
import { loadConfig } from '../server/config';
import type { AppContext } from '../server/context';
import { openDb } from '../server/db/client';

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** The real app (Argon2id, migrations, routes) with silent logs and bench secrets. */
export async function benchApp(env: Record<string, string> = {}, deps: AppDeps = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent',
    PIN_PEPPER: 'bench-pepper-bench-pepper-bench-pepper-01',
    OTP_SECRET: 'bench-otp-secret-bench-otp-secret-012345',
    CASES_KEY: 'YmVuY2gtY2FzZXMta2V5LWJlbmNoLWNhc2VzLWtleTA',
    ...env,
  });
  const db = await openDb({ memory: true });
  const ctx: AppContext = await createContext(config, { db, kyc: null, ...deps });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
