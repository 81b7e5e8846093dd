import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blinkSequence, multipart } from '../identity/frames';
import {
  addPatient,
  login,
  postgresSchema,
  sessionValid,
  startServer,
  type ServerProcess,
} from './processes';

/**
 * Two API processes on one PostgreSQL with the same secrets (PIN_PEPPER, OTP_SECRET), as behind a
 * load balancer: whatever one process does, the other honours. Runs in the PostgreSQL pass of the
 * server tier (TEST_DATABASE_URL, the test command's throwaway cluster).
 */
const SLOW = 300_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('two API processes on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  let env: Record<string, string>;
  const patient = { documento: '7200001', pin: '582046', celular: '0981400001' };
  const other = { documento: '7200002', pin: '613579', celular: '0981400002' };
  const post = (url: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    const pg = (await postgresSchema())!;
    drop = pg.drop;
    env = {
      DATABASE_URL: pg.url,
      // No waiting between failures (the lock count is what is under test), one face worker each.
      LOGIN_DELAY_BASE_MS: '0',
      LOGIN_DELAY_MAX_MS: '0',
      IDENTITY_POOL_SIZE: '1',
      IDENTITY_BLINKS_REQUIRED: '1',
      // Blinks at fixed times, without the challenge's tags: the blink decider across processes.
      IDENTITY_LIVENESS_CHALLENGE: 'none',
    };
    await addPatient(patient, env);
    await addPatient(other, env);
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  }, SLOW);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await drop?.();
  }, SLOW);

  it(
    'a session opened on one is valid on the other, and a logout on the other ends it',
    {
      timeout: SLOW,
    },
    async () => {
      const { status, cookie } = await login(a.url, patient.documento, patient.pin);
      expect(status).toBe(200);
      expect(await sessionValid(b.url, cookie)).toBe(true);
      const out = await fetch(`${b.url}/api/auth/logout`, { method: 'POST', headers: { cookie } });
      expect(out.status).toBeLessThan(300);
      expect(await sessionValid(a.url, cookie)).toBe(false);
    },
  );

  it('failures split across the two lock the account on both', { timeout: SLOW }, async () => {
    // Nine wrong PINs answer 401; the 10th locks the ledger and answers as locked (issue 29 item 9).
    for (let i = 0; i < 10; i++) {
      const r = await login(i % 2 ? b.url : a.url, other.documento, '000000');
      expect(r.status).toBe(i < 9 ? 401 : 429);
    }
    // Locked: the right PIN is refused as locked by either process.
    for (const url of [a.url, b.url]) {
      const r = await login(url, other.documento, other.pin);
      expect(r.status).toBe(429);
    }
  });

  it('a code issued by one is verified once, by the other', { timeout: SLOW }, async () => {
    const celular = '0981400003';
    const start = await post(a.url, '/api/onboarding/start', { phone: celular });
    expect(start.status).toBe(200);
    const outbox = await fetch(`${b.url}/api/dev/sms-outbox?celular=${celular}`);
    const code = /\b(\d{6})\b/.exec(JSON.stringify(await outbox.json()))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const first = await post(b.url, '/api/onboarding/validate-otp', { celular, otp: code });
    expect(first.status).toBe(200);
    const again = await post(a.url, '/api/onboarding/validate-otp', { celular, otp: code });
    expect(again.status).toBe(401);
  });

  it(
    'a liveness session takes frames on both processes and completes',
    async () => {
      const started = await post(a.url, '/api/onboarding/start-kyc', {});
      expect(started.status).toBe(200);
      const { session_id } = (await started.json()) as { session_id: string };
      const frames = await blinkSequence(1, 7);
      let last: { liveness_detected: boolean } | undefined;
      for (const [i, frame] of frames.entries()) {
        const body = multipart([
          { name: 'session_id', value: session_id },
          { name: 'frame', value: frame, filename: `f${i}.jpg` },
        ]);
        const res = await fetch(`${i % 2 ? b.url : a.url}/api/onboarding/liveness`, {
          method: 'POST',
          headers: body.headers,
          body: body.payload,
        });
        expect(res.status).toBe(200);
        last = (await res.json()) as { liveness_detected: boolean };
      }
      expect(last?.liveness_detected).toBe(true);
    },
    SLOW,
  );
});
