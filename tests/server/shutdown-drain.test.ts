/**
 * A restart loses no request (issue 21, item 6): on SIGTERM the process first drains for
 * SHUTDOWN_DRAIN_MS, answering 503 on /api/ready while it still serves everything else, each
 * answer with `Connection: close`; only then does it close. Clients that, like a proxy, stop
 * sending once /api/ready says 503 never meet a reset connection.
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, createContext } from '../../server/app';
import type { Db } from '../../server/db/client';
import { installGracefulShutdown } from '../../server/lifecycle/shutdown';
import { openTestDb, testConfig, testOnboardingSettings } from './helpers';

type Answer = { status: number; connection: string | undefined; body: string };

/**
 * What each test here does in wall-clock time: a fresh PGlite database and app (seconds on a busy
 * machine: 7.8 s at load 3-7 for the first test, issue 43 item 15), then real requests through a
 * real drain and close. Its timeout matches that work rather than the default 20 s, so the
 * slow-test guard (scripts/slow-test-guard.ts) measures it against what it waits for.
 */
const DRAIN_TEST_TIMEOUT_MS = 60_000;

let db: Db | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close().catch(() => {});
  await db?.close();
  app = undefined;
  db = undefined;
});

async function start(drainMs: number) {
  db = await openTestDb();
  const ctx = await createContext(testConfig(), { onboarding: testOnboardingSettings(), db });
  app = await buildApp(ctx);
  const exited: number[] = [];
  const control = installGracefulShutdown(app, {
    graceMs: 2000,
    drainMs,
    closeResources: async () => {},
    exit: (code) => void exited.push(code),
    signals: [],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { control, exited, base };
}

function call(base: string, agent: Agent, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, body }),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException & { reused?: boolean }) => {
      err.reused = req.reusedSocket;
      reject(err);
    });
    if (method === 'POST') req.setHeader('content-type', 'application/json');
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('SIGTERM with a drain period', () => {
  it(
    'answers 503 on /api/ready while still serving, with Connection: close; then closes',
    async () => {
      const { control, exited, base } = await start(800);
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      expect((await call(base, agent, 'GET', '/api/ready')).status).toBe(200);
      const t0 = Date.now();
      const stopped = control.shutdown('SIGTERM');
      const ready = await call(base, agent, 'GET', '/api/ready');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body).checks.process).toEqual({ ok: false, state: 'stopping' });
      const health = await call(base, agent, 'GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.connection).toBe('close');
      const post = await call(base, agent, 'POST', '/api/auth/logout');
      expect(post.status).toBe(200);
      expect(post.connection).toBe('close');
      expect(exited).toEqual([]);
      await stopped;
      expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
      expect(exited).toEqual([0]);
      const after = await call(base, new Agent(), 'GET', '/api/health').catch(
        (e: NodeJS.ErrnoException) => e.code,
      );
      expect(after).toBe('ECONNREFUSED');
      agent.destroy();
    },
    DRAIN_TEST_TIMEOUT_MS,
  );

  it(
    'kept-alive clients that stop once /api/ready says 503 meet no reset connection',
    async () => {
      const { control, base } = await start(500);
      const errors: string[] = [];
      let answered = 0;
      let outOfRotation = false;
      // The proxy: asks /api/ready every 20 ms on its own connection.
      const probe = (async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        while (!outOfRotation) {
          const r = await call(base, agent, 'GET', '/api/ready').catch(() => null);
          if (!r || r.status === 503) outOfRotation = true;
          else await new Promise((res) => setTimeout(res, 20));
        }
        agent.destroy();
      })();
      // Clients through the proxy: back-to-back GETs and POSTs on kept-alive connections.
      const client = async (i: number) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        for (let n = 0; !outOfRotation; n++) {
          try {
            const r = await call(
              base,
              agent,
              n % 2 ? 'POST' : 'GET',
              n % 2 ? '/api/auth/logout' : '/api/health',
            );
            if (r.status === 200) answered++;
            else errors.push(`client ${i}: ${r.status}`);
          } catch (err) {
            errors.push(`client ${i}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
          }
          // Idle moments between requests, as real clients have.
          if (n % 3 === 0) await new Promise((res) => setTimeout(res, 5));
        }
        agent.destroy();
      };
      const clients = Promise.all([0, 1, 2, 3].map(client));
      await new Promise((res) => setTimeout(res, 300));
      const stopped = control.shutdown('SIGTERM');
      await Promise.all([probe, clients, stopped]);
      expect(answered).toBeGreaterThan(20);
      expect(errors).toEqual([]);
    },
    DRAIN_TEST_TIMEOUT_MS,
  );
});

/**
 * Issue 29 item 8: clients that do NOT stop at /api/ready's 503 (a load generator, a proxy slow to
 * notice) keep sending through the drain's end, on kept-alive connections and new ones. Near the
 * end the server stops accepting, answers what already arrived, and only then closes what is idle:
 * no kept-alive connection is cut with a request on it. (A connection still in the kernel's accept
 * queue when the port closes is reset by the kernel, whatever the server does: counted apart.)
 */
async function drainUnderLoad(clients: number, drainMs: number) {
  const { control, base } = await start(drainMs);
  const resets: string[] = [];
  let answered = 0;
  let refused = 0;
  let queued = 0;
  let done = false;
  const client = async (i: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; !done; n++) {
      // Half the clients leave their kept-alive connection idle a while between requests.
      if (i % 2) await new Promise((res) => setTimeout(res, (n * 37 + i * 11) % 300));
      try {
        const r = await call(
          base,
          agent,
          n % 2 ? 'POST' : 'GET',
          n % 2 ? '/api/auth/logout' : '/api/health',
        );
        if (r.status === 200 || r.status === 503) answered++;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        if (code === 'ECONNREFUSED') {
          refused++;
          await new Promise((res) => setTimeout(res, 2));
        } else if ((err as { reused?: boolean }).reused) resets.push(code);
        else queued++;
      }
    }
    agent.destroy();
  };
  const running = Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  await new Promise((res) => setTimeout(res, 200));
  await control.shutdown('SIGTERM');
  // A little after the close: every client has met the refused port.
  await new Promise((res) => setTimeout(res, 100));
  done = true;
  await running;
  return { resets, answered, refused, queued };
}

describe('SIGTERM under load from clients that ignore /api/ready', () => {
  it.each([1, 2, 3])(
    'no kept-alive connection is reset at the end of the drain (run %i)',
    async () => {
      const run = await drainUnderLoad(8, 400);
      expect(run.answered).toBeGreaterThan(50);
      if (process.env.DRAIN_REPORT) console.log(JSON.stringify(run));
      expect(run.resets).toEqual([]);
    },
    DRAIN_TEST_TIMEOUT_MS,
  );
});
