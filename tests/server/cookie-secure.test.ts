import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startupWarnings } from '../../server/config';
import { upsertPatient } from '../../server/patients/service';
import { createTestApp, testSecrets, type TestApp } from './helpers';

/**
 * Production over plain http (issue 21, item 12): cookies are Secure by default in production;
 * running without takes COOKIE_SECURE=false, and the start-up log says so.
 */
const production = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'production', ...testSecrets, ...env });

describe('COOKIE_SECURE', () => {
  it('defaults to Secure in production, by protocol elsewhere; false only when set', () => {
    expect(production().session.cookieSecure).toBe(true);
    expect(production({ COOKIE_SECURE: 'false' }).session.cookieSecure).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).session.cookieSecure).toBeUndefined();
    expect(startupWarnings(production())).toEqual([]);
    expect(startupWarnings(production({ COOKIE_SECURE: 'false' }))).toEqual([
      expect.objectContaining({ event: 'cookies_not_secure' }),
    ]);
    expect(startupWarnings(loadConfig({ NODE_ENV: 'development' }))).toEqual([]);
  });

  describe.each([
    [{ NODE_ENV: 'production' }, true],
    [{ NODE_ENV: 'production', COOKIE_SECURE: 'false' }, false],
  ] as const)('a production login over plain http with %j', (env, secure) => {
    // The app (PGlite and its migrations) opens in the hook, not in the test's own time.
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env });
    });
    afterAll(() => t.close());

    it(`sets ${secure ? 'a Secure' : 'no Secure'} session cookie`, async () => {
      await upsertPatient(t.ctx, {
        numero_documento: '4400001',
        pin: '739154',
        nombre: 'A',
        apellido: 'B',
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { numero_documento: '4400001', pin: '739154' },
      });
      expect(res.statusCode).toBe(200);
      const sid = res.cookies.find((c) => c.name === 'sid');
      expect(Boolean(sid?.secure)).toBe(secure);
    });
  });
});
