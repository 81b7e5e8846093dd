/**
 * Issue 11, item 8: the engine's warm-up runs outside Fastify's plugin timeout. The app is ready at
 * once even when the engine takes longer than the timeout; identity calls answer 503 'El servicio
 * está iniciando' with Retry-After until the engine is ready; a failed start is retried.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths } from '../../contract/identity';
import { installErrorHandling } from '../../server/http/errors';
import { openDb, type Db } from '../../server/db/client';
import type { IdentityEngine } from '../../server/identity/engine';
import { identityMessages } from '../../server/identity/errors';
import { identityPlugin } from '../../server/identity/plugin';
import { identityRoutes } from '../../server/identity/routes';
import { stubEngine } from './identity-stub';

let db: Db;
beforeAll(async () => {
  db = await openDb({ memory: true });
});
afterAll(() => db?.close());

const fakeEngine = (closed: string[]) =>
  stubEngine({
    startSession: async () => ({ sessionId: '11111111-1111-4111-8111-111111111111' }),
    close: async () => void closed.push('closed'),
  });

async function appWith(createEngine: () => Promise<IdentityEngine>) {
  // A plugin timeout far shorter than the warm-up: the old onReady hook awaited the engine and failed.
  const app = Fastify({ logger: false, pluginTimeout: 200 });
  installErrorHandling(app);
  await app.register(identityPlugin, { env: 'development', createEngine });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db } });
  return app;
}

describe('identity engine start-up', () => {
  it('the app is ready before a slow engine; identity calls answer 503 until it is', async () => {
    let finish!: (e: IdentityEngine) => void;
    const created: number[] = [];
    const closed: string[] = [];
    const app = await appWith(() => {
      created.push(1);
      return new Promise((r) => (finish = r));
    });
    await app.ready();
    expect(created).toHaveLength(1); // the warm-up began when the app became ready
    for (const [method, url] of [
      ['GET', identityPaths.identityStatus],
      ['POST', identityPaths.startKyc],
      ['POST', identityPaths.liveness],
      ['POST', identityPaths.scanId],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ success: false, message: identityMessages.starting });
    }
    expect(created).toHaveLength(1); // calls while starting do not start another engine
    finish(fakeEngine(closed));
    await new Promise((r) => setImmediate(r));
    const res = await app.inject({ method: 'POST', url: identityPaths.startKyc });
    expect(res.statusCode).toBe(200);
    const status = await app.inject({ method: 'GET', url: identityPaths.identityStatus });
    expect(status.json()).toEqual({ success: true, ready: true });
    await app.close();
    expect(closed).toEqual(['closed']);
  });

  it('a failed start is answered 503 and started again by the next call', async () => {
    let attempts = 0;
    const app = await appWith(async () => {
      attempts++;
      if (attempts === 1) throw new Error('models failed to load');
      return fakeEngine([]);
    });
    await app.ready();
    await new Promise((r) => setImmediate(r));
    const first = await app.inject({ method: 'POST', url: identityPaths.startKyc });
    expect(first.statusCode).toBe(503);
    await new Promise((r) => setImmediate(r));
    expect(attempts).toBe(2);
    const second = await app.inject({ method: 'POST', url: identityPaths.startKyc });
    expect(second.statusCode).toBe(200);
    await app.close();
  });

  it('the engine is the app decoration app.identity, shared by plugins registered after identityPlugin', async () => {
    const engine = fakeEngine([]);
    const app = Fastify({ logger: false });
    await app.register(identityPlugin, { env: 'development', createEngine: async () => engine });
    let seen: IdentityEngine | null = null;
    // Another area's plugin (encapsulated, with a prefix) reads the same engine.
    await app.register(
      async (child) => {
        child.get('/engine', async () => ((seen = await child.identity.get()), { ok: true }));
      },
      { prefix: '/api/other' },
    );
    await app.ready();
    await new Promise((r) => setImmediate(r));
    expect(app.identity.isReady()).toBe(true);
    expect(await app.identity.get()).toBe(engine);
    expect((await app.inject({ method: 'GET', url: '/api/other/engine' })).statusCode).toBe(200);
    expect(seen).toBe(engine);
    await app.close();
  });

  it('the identity routes need identityPlugin registered before them', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db } }).ready(),
    ).rejects.toThrow(/register identityPlugin before it/);
    await app.close();
  });
});
