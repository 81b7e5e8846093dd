import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardingPaths, smsOutboxResponse } from '../../contract/onboarding';
import { createTestApp, testOnboardingSettings, type TestApp } from './helpers';

describe('development SMS outbox (the default provider outside production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stores the SMS in the database and shows it at GET /api/dev/sms-outbox', async () => {
    expect(t.ctx.sms.provider).toBe('outbox');
    const start = await t.app.inject({
      method: 'POST',
      url: onboardingPaths.start,
      payload: { phone: '+595 981 123456' },
    });
    expect(start.statusCode).toBe(200);

    const res = await t.app.inject({
      method: 'GET',
      url: `${onboardingPaths.devSmsOutbox}?celular=0981123456`,
    });
    expect(res.statusCode).toBe(200);
    const outbox = smsOutboxResponse.parse(res.json());
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ celular: '0981123456', purpose: 'onboarding' });
    const code = /(\d{6})/.exec(outbox[0]!.body)![1]!;
    expect(outbox[0]!.body).toBe(
      `Portal del Paciente: tu código de verificación es ${code}. Vence en 5 minutos. No lo compartas con nadie.`,
    );
    const ok = await t.app.inject({
      method: 'POST',
      url: onboardingPaths.validateOtp,
      payload: { celular: '0981123456', otp: code },
    });
    expect(ok.json()).toMatchObject({ success: true });

    const other = await t.app.inject({
      method: 'GET',
      url: `${onboardingPaths.devSmsOutbox}?celular=0991000111`,
    });
    expect(other.json()).toEqual([]);
  });

  it('refuses a missing or bad phone with 400', async () => {
    for (const q of ['', '?celular=123', '?celular=0981123456&celular=0981123457']) {
      const res = await t.app.inject({ method: 'GET', url: `${onboardingPaths.devSmsOutbox}${q}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
  });
});

describe('in production', () => {
  // The app (PGlite and its migrations) opens in the hook, not in the test's own time.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { NODE_ENV: 'production' },
      deps: {
        onboarding: testOnboardingSettings({
          sms: { provider: 'outbox', serviceName: 'Portal del Paciente' },
        }),
      },
    });
  });
  afterAll(() => t.close());

  it('the outbox route does not exist', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${onboardingPaths.devSmsOutbox}?celular=0981123456`,
    });
    expect(res.statusCode).toBe(404);
    expect(t.app.printRoutes()).not.toContain('sms-outbox');
  });
});
