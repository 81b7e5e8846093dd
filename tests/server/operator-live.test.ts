import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPatient,
  login,
  liveEnvironment,
  run,
  sessionValid,
  startServer,
  type ServerProcess,
} from './processes';

/**
 * The operator command while the real server runs, a second server on the same folder, and a
 * SIGTERM in the middle of traffic, with real processes: on PGlite, or on PostgreSQL when the test
 * command runs the server tier on its throwaway cluster (TEST_DATABASE_URL).
 */
const SLOW = 240_000;
const databases = process.env.TEST_DATABASE_URL ? ['postgres'] : ['pglite'];

describe.each(databases)('operator command and restarts on %s', (kind) => {
  let env: Record<string, string>;
  let cleanup: ((server?: ServerProcess) => Promise<void>) | undefined;
  let server: ServerProcess | undefined;
  const seeded = { documento: '7100001', pin: '135790', celular: '0981300001' };
  const added = { documento: '7100002', pin: '246801', celular: '0981300002' };

  beforeAll(async () => {
    ({ env, cleanup } = await liveEnvironment(kind, 'live'));
    // Before the server starts, as e2e/server.ts seeds: the command opens the database itself.
    const first = await addPatient(seeded, env);
    expect(first).toMatchObject({ ok: true, created: true });
    expect(first.via).toBe(kind === 'pglite' ? 'pglite-files' : 'postgres');
    server = await startServer(env);
  }, SLOW);

  afterAll(() => cleanup?.(server));

  it(
    'a patient added or updated while the server runs logs in at once',
    async () => {
      const result = await addPatient(added, env);
      expect(result).toMatchObject({ ok: true, created: true });
      expect(result.via).toBe(kind === 'pglite' ? 'pglite-server' : 'postgres');
      expect((await login(server!.url, added.documento, added.pin)).status).toBe(200);

      const newPin = '975310';
      const update = await addPatient({ ...seeded, pin: newPin }, env);
      expect(update.created).toBe(false);
      expect((await login(server!.url, seeded.documento, newPin)).status).toBe(200);
      expect((await login(server!.url, seeded.documento, seeded.pin)).status).toBe(401);
      seeded.pin = newPin;
    },
    SLOW,
  );

  it.runIf(kind === 'pglite')(
    'a second server on the same folder stops with a clear message and writes nothing',
    async () => {
      const before = readdirSync(env.DATA_DIR!, { recursive: true }).sort();
      const second = await run(['server/main.ts'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by process ${server!.child.pid}`);
      expect(second.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(readdirSync(env.DATA_DIR!, { recursive: true }).sort()).toEqual(before);
      expect((await login(server!.url, added.documento, added.pin)).status).toBe(200);
    },
    SLOW,
  );

  it(
    'SIGTERM during a burst of logins: every answered session survives the restart',
    async () => {
      const url = server!.url;
      const cookies: string[] = [];
      let stopping: Promise<number | null> | undefined;
      const worker = async () => {
        for (;;) {
          try {
            const r = await login(url, added.documento, added.pin);
            if (r.status === 200) cookies.push(r.cookie);
            else if (r.status !== 503) throw new Error(`unexpected ${r.status}`);
          } catch (err) {
            if (stopping) return; // the server has gone: connection refused or reset
            throw err;
          }
          if (cookies.length === 12 && !stopping) stopping = server!.stop('SIGTERM');
          if (stopping && server!.child.exitCode !== null) return;
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      expect(await stopping).toBe(0);
      expect(server!.logs.some((l) => l.includes('"event":"stopped"'))).toBe(true);
      expect(cookies.length).toBeGreaterThanOrEqual(12);

      server = await startServer(env);
      const valid = await Promise.all(cookies.map((c) => sessionValid(server!.url, c)));
      expect(valid.filter((v) => !v)).toEqual([]);
      expect(await sessionValid(server!.url, 'sid=not-a-session')).toBe(false);
      expect((await login(server!.url, added.documento, added.pin)).status).toBe(200);
      expect((await login(server!.url, seeded.documento, seeded.pin)).status).toBe(200);
    },
    SLOW,
  );
});
