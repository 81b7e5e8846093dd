import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { devKycExpirePath } from '../../server/identity/dev-routes';
import { insertSession, loadSession } from '../../server/identity/store';
import { createTestApp, testOnboardingSettings, useTestApp } from './helpers';

/** POST /api/dev/kyc-sessions/:id/expire: the e2e's way to an expired identity session. */
describe('development: expire a KYC session', () => {
  const h = useTestApp();

  it('expires the session now: loading it then answers session expired', async () => {
    const id = randomUUID();
    await insertSession(h.t.ctx.db, id, 'test', {}, 30 * 60_000);
    await expect(loadSession(h.t.ctx.db, id)).resolves.toMatchObject({ id });
    const res = await h.t.app.inject({ method: 'POST', url: devKycExpirePath(id) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    await expect(loadSession(h.t.ctx.db, id)).rejects.toMatchObject({ code: 'session_expired' });
  });

  it('answers 404 for an unknown session and 400 for a malformed id, in Spanish JSON', async () => {
    const unknown = await h.t.app.inject({ method: 'POST', url: devKycExpirePath(randomUUID()) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: 'No existe esa sesión.' });
    const bad = await h.t.app.inject({ method: 'POST', url: devKycExpirePath("1' OR '1'='1") });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
  });
});

describe('in production', () => {
  it('the expire route does not exist', async () => {
    const t = await createTestApp({
      env: { NODE_ENV: 'production' },
      deps: { onboarding: testOnboardingSettings() },
    });
    try {
      const id = randomUUID();
      await insertSession(t.ctx.db, id, 'test', {}, 30 * 60_000);
      const res = await t.app.inject({ method: 'POST', url: devKycExpirePath(id) });
      expect(res.statusCode).toBe(404);
      expect(t.app.printRoutes()).not.toContain('kyc-sessions');
      await expect(loadSession(t.ctx.db, id)).resolves.toMatchObject({ id });
    } finally {
      await t.close();
    }
  }, 60_000);
});
