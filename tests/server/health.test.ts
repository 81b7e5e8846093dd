import { describe, expect, it } from 'vitest';
import { createTestApp, useTestApp, testSecrets } from './helpers';

describe('GET /api/health and /api/ready', () => {
  const h = useTestApp();

  it('health: 200, JSON, no-store, nothing but the status', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('ready: database reachable, migrations applied, identity on demand in tests', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      status: 'ready',
      checks: {
        database: { ok: true, state: 'reachable' },
        migrations: { ok: true, state: 'applied' },
        identity: { ok: true, state: 'on-demand' },
      },
    });
    for (const secret of Object.values(testSecrets)) expect(res.body).not.toContain(secret);
  });

  it('ready: 503 when a migration is missing, and again 200 once it is applied', async () => {
    const { rows } = await h.t.ctx.db.query<{ name: string }>(
      'DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name',
    );
    try {
      const res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toEqual({ ok: false, state: 'pending' });
    } finally {
      await h.t.ctx.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [rows[0]!.name]);
    }
    expect((await h.t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('ready: 503 while a component starts, fails or does not answer in time', async () => {
    let state = { ok: false, state: 'starting' };
    h.t.app.readiness.register('worker', () => state);
    let res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe('not_ready');
    expect(res.json().checks.worker).toEqual({ ok: false, state: 'starting' });
    state = { ok: true, state: 'ready' };
    res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);

    h.t.app.readiness.register('worker', () => Promise.reject(new Error('no models')));
    res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.worker).toEqual({ ok: false, state: 'error' });
    expect(res.body).not.toContain('no models');

    h.t.app.readiness.register('worker', () => new Promise(() => {}));
    res = await h.t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.worker).toEqual({ ok: false, state: 'timeout' });
    h.t.app.readiness.register('worker', () => ({ ok: true, state: 'ready' }));
  }, 10_000);
});

describe('ready while shutting down', () => {
  it('is not ready once the app is closing', async () => {
    const t = await createTestApp();
    await t.app.close();
    const { ready, checks } = await t.app.readiness.report(1000);
    expect(ready).toBe(false);
    expect(checks.process).toEqual({ ok: false, state: 'stopping' });
    expect(checks.database).toEqual({ ok: true, state: 'reachable' });
    await t.ctx.db.close();
  }, 120_000);
});
