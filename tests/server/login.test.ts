import { beforeEach, describe, expect, it } from 'vitest';
import { errorResponse } from '../../contract/common';
import { failureDelayMs } from '../../server/login/service';
import { upsertPatient } from '../../server/patients/service';
import { useTestApp, type TestApp } from './helpers';

const PATIENT = {
  numero_documento: '4567890',
  pin: '739154',
  nombre: 'ANA',
  apellido: 'RUIZ',
  celular: '0981555111',
};
const login = (t: TestApp, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: body as object, headers });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'sid');

describe('POST /api/auth/login', () => {
  // One app for the file (opening PGlite is the slow part), emptied and its clock rewound per test.
  const h = useTestApp({
    env: { LOGIN_DELAY_BASE_MS: '1000', LOGIN_DELAY_MAX_MS: '8000', LOGIN_IP_MAX_FAILURES: '30' },
  });
  let t: TestApp;
  beforeEach(async () => {
    t = h.t;
    await upsertPatient(t.ctx, PATIENT);
  });

  it('logs in with the right PIN and sets an HttpOnly, SameSite=Strict session cookie', async () => {
    const res = await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Sesión iniciada.' });
    const sid = cookieOf(res);
    expect(sid?.value).toMatch(/^[\w-]{40,}$/);
    expect(res.headers['set-cookie']).toMatch(/HttpOnly/);
    expect(res.headers['set-cookie']).toMatch(/SameSite=Strict/);
    expect(res.headers['cache-control']).toBe('no-store');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { sid: sid!.value },
    });
    expect(session.json()).toMatchObject({ authenticated: true, patient: { nombre: 'ANA' } });
  });

  it('answers a wrong PIN and an unknown document with the same 401 and message', async () => {
    const wrong = await login(t, { numero_documento: PATIENT.numero_documento, pin: '111222' });
    const unknown = await login(t, { numero_documento: '9999999', pin: '111222' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Número de documento o PIN incorrectos.');
    expect(cookieOf(wrong)).toBeUndefined();
  });

  it('never stores the PIN in clear', async () => {
    const { rows } = await t.ctx.db.query<{ pin_hash: string }>('SELECT pin_hash FROM patients');
    expect(rows[0]?.pin_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0]?.pin_hash).not.toContain(PATIENT.pin);
  });

  it('delays from the 5th consecutive failure, doubling, and locks after the 10th until recovery', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await login(t, { numero_documento: PATIENT.numero_documento, pin: '000111' });
      // The 10th failure locks the account and is answered as locked (issue 29 item 9).
      expect(res.statusCode).toBe(i === 10 ? 429 : 401);
    }
    expect(t.clock.sleeps).toEqual([0, 0, 0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
    // Locked: the right PIN is not compared, and the answer says why, not that the PIN is wrong.
    const locked = await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Demasiados intentos con este número de documento\./);
    // The operator command (or PIN recovery) sets a PIN and lifts the lock.
    await upsertPatient(t.ctx, PATIENT);
    const after = await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin });
    expect(after.statusCode).toBe(200);
  });

  it('a success resets the consecutive failure count', async () => {
    for (let i = 0; i < 4; i++)
      await login(t, { numero_documento: PATIENT.numero_documento, pin: '000111' });
    expect(
      (await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin })).statusCode,
    ).toBe(200);
    await login(t, { numero_documento: PATIENT.numero_documento, pin: '000111' });
    expect(t.clock.sleeps.at(-1)).toBe(0);
  });

  it('delays and locks an unknown document number exactly like a known one', async () => {
    for (let i = 0; i < 6; i++) await login(t, { numero_documento: '8888888', pin: '000111' });
    expect(t.clock.sleeps).toEqual([0, 0, 0, 0, 1000, 2000]);
  });

  it('caps failures per client address across document numbers with 429 and Retry-After', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await login(t, { numero_documento: String(1000000 + i), pin: '000111' });
      expect(res.statusCode).toBe(401);
    }
    const capped = await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin });
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect(capped.json().message).toMatch(
      /^Demasiados intentos\. Esperá \d+ minutos? e intentá de nuevo\.$/,
    );
    // Another address is not affected.
    const other = await login(
      t,
      { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin },
      {
        'x-forwarded-for': '10.0.0.9',
      },
    );
    expect(other.statusCode).toBe(429); // no proxy trusted: the header is ignored, same address
    // After the window the cap lifts.
    t.clock.advance(15 * 60_000 + 1000);
    expect(
      (await login(t, { numero_documento: PATIENT.numero_documento, pin: PATIENT.pin })).statusCode,
    ).toBe(200);
  });

  it.each([
    [{ numero_documento: '1234', pin: '123456' }],
    [{ numero_documento: '12345678901234', pin: '123456' }],
    [{ numero_documento: '1234567', pin: '12345' }],
    [{ numero_documento: '1234567', pin: 'abcdef' }],
    [{ numero_documento: 1234567, pin: '123456' }],
    [{}],
  ])('rejects malformed input %j with 400 and a Spanish message', async (body) => {
    const res = await login(t, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Ingresá tu número de documento y tu PIN de 6 dígitos.',
    });
  });

  it('accepts JSON only (415) and limits the body size (413)', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: 'numero_documento=1234567&pin=123456',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.statusCode).toBe(415);
    expect(errorResponse.safeParse(text.json()).success).toBe(true);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: 'hola',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.statusCode).toBe(415);
    const big = await login(t, {
      numero_documento: '1234567',
      pin: '123456',
      pad: 'x'.repeat(64 * 1024),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('La solicitud es demasiado grande.');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"numero_documento":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.ts/);
  });
});

describe('security headers and API errors', () => {
  const h = useTestApp();
  let t: TestApp;
  beforeEach(() => {
    t = h.t;
  });

  it('sends CSP without inline scripts, frame-ancestors none and camera=(self)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['permissions-policy']).toContain('camera=(self)');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown API routes with a Spanish JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nada' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'No encontramos lo que buscás.' });
  });
});

describe('failureDelayMs', () => {
  const cfg = { delayAfter: 5, delayBaseMs: 1000, delayMaxMs: 8000 };
  it.each([
    [1, 0],
    [4, 0],
    [5, 1000],
    [6, 2000],
    [8, 8000],
    [20, 8000],
  ])('failure %i waits %i ms', (n, ms) => expect(failureDelayMs(cfg, n)).toBe(ms));
});
