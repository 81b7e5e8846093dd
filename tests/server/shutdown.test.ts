/**
 * Graceful shutdown (issue 10): once the app closes, a request that still arrives on a kept-alive
 * connection (busy when the server stopped accepting, so not reaped as idle) is answered 503 with
 * the Spanish `{ success: false, message }` and `Connection: close`, never Fastify's English body;
 * the request that was in flight still finishes normally.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse } from '../../contract/common';
import { buildApp, createContext } from '../../server/app';
import type { Db } from '../../server/db/client';
import { messages } from '../../server/http/messages';
import { openTestDb, testConfig, testOnboardingSettings } from './helpers';

type Answer = { status: number; headers: IncomingHttpHeaders; body: string; reused: boolean };

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('graceful shutdown on a kept-alive connection', () => {
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  const started = deferred();
  const release = deferred();
  const stopped = deferred();

  beforeAll(async () => {
    db = await openTestDb();
    const ctx = await createContext(testConfig(), { onboarding: testOnboardingSettings(), db });
    app = await buildApp(ctx);
    // A request that stays in flight until the test lets it finish.
    app.get('/api/test/slow', async () => {
      started.resolve();
      await release.promise;
      return { success: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    // The moment the server stops accepting (app.close() calls server.close(), which reaps the
    // connections idle then): a spy that calls through, so the test lets the request in flight
    // finish only after it, as a slow request would.
    const close = app.server.close.bind(app.server);
    app.server.close = ((callback?: (err?: Error) => void) => {
      const server = close(callback);
      stopped.resolve();
      return server;
    }) as typeof app.server.close;
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    release.resolve();
    await app.close();
    await db.close();
  });

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${base}${path}`, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body,
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('the request in flight finishes; the next one on its connection gets a Spanish 503', async () => {
    const inFlight = get('/api/test/slow');
    await started.promise;
    const closed = app.close();
    await stopped.promise;
    release.resolve();
    const first = await inFlight;
    expect(first.status).toBe(200);

    const next = await get('/api/health');
    expect(next.reused).toBe(true);
    expect(next.status).toBe(503);
    expect(next.body).not.toMatch(/Service Unavailable|statusCode|"error"/);
    expect(errorResponse.parse(JSON.parse(next.body))).toEqual({
      success: false,
      message: messages.shuttingDown,
    });
    expect(next.headers.connection).toBe('close');
    expect(next.headers['content-type']).toMatch(/^application\/json/);
    expect(next.headers['cache-control']).toBe('no-store');
    expect(next.headers['retry-after']).toBe('1');
    await closed;
    agent.destroy();
  });
});
