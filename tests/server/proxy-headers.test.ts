import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createContext } from '../../server/app';
import { parseTrustProxy } from '../../server/config';
import { ConfigError } from '../../server/env';
import type { Db } from '../../server/db/client';
import { openTestDb, testConfig, testOnboardingSettings, FakeClock } from './helpers';

// Issue 11 item 6 (the client address a trusted proxy appended, never a client-written one) and
// item 13 (HSTS whenever the request is known to be https).

let db: Db;
const apps: FastifyInstance[] = [];
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db.close();
});

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const ctx = await createContext(testConfig(env), {
    db,
    clock: new FakeClock(),
    onboarding: testOnboardingSettings(),
  });
  const app = await buildApp(ctx);
  await app.ready();
  apps.push(app);
  return app;
}

/** The client address the server recorded for a failed login (the per-address ledger). */
async function recordedAddress(
  app: FastifyInstance,
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
): Promise<string | undefined> {
  // A fresh ledger: the per-address failures, and the document's own count (its 10th failure
  // would lock it, and a lock answers 429).
  await db.query('DELETE FROM login_failures');
  await db.query('DELETE FROM login_guards');
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { numero_documento: '5550001', pin: '000111' },
    headers,
    remoteAddress,
  });
  expect(res.statusCode).toBe(401);
  const { rows } = await db.query<{ client_ip: string }>('SELECT client_ip FROM login_failures');
  return rows[0]?.client_ip;
}

describe('TRUST_PROXY', () => {
  it.each(['127.0.0.1', 'loopback', '1', 'true'])(
    'TRUST_PROXY=%s takes the address the proxy appended, not a spoofed first hop',
    async (trust) => {
      const app = await appWith({ TRUST_PROXY: trust });
      expect(await recordedAddress(app, { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' })).toBe(
        '198.51.100.7',
      );
      expect(await recordedAddress(app, { 'x-forwarded-for': '198.51.100.8' })).toBe(
        '198.51.100.8',
      );
    },
  );

  it('a spoofed first hop cannot escape the per-address cap', async () => {
    const app = await appWith({ TRUST_PROXY: '127.0.0.1', LOGIN_IP_MAX_FAILURES: '3' });
    await db.query('DELETE FROM login_failures');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { numero_documento: String(5551000 + i), pin: '000111' },
        headers: { 'x-forwarded-for': `10.9.9.${i}, 198.51.100.20` },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429, 429]);
  });

  it('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    const app = await appWith({ TRUST_PROXY: '127.0.0.1' });
    expect(await recordedAddress(app, { 'x-forwarded-for': '198.51.100.9' }, '203.0.113.5')).toBe(
      '203.0.113.5',
    );
    const untrusting = await appWith({});
    expect(await recordedAddress(untrusting, { 'x-forwarded-for': '198.51.100.9' })).toBe(
      '127.0.0.1',
    );
  });

  it('parses false, hop counts and address lists; true means one hop; anything else stops the start', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => parseTrustProxy('proxy.example')).toThrow(ConfigError);
    expect(() => testConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});

describe('Strict-Transport-Security', () => {
  const hstsOf = async (app: FastifyInstance, headers: Record<string, string> = {}, ip?: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers,
        ...(ip ? { remoteAddress: ip } : {}),
      })
    ).headers['strict-transport-security'];

  it('is absent on plain http without a trusted proxy', async () => {
    const app = await appWith({});
    expect(await hstsOf(app)).toBeUndefined();
    expect(await hstsOf(app, { 'x-forwarded-proto': 'https' })).toBeUndefined();
  });

  it('is sent when COOKIE_SECURE says the site is https, with or without a proxy', async () => {
    const app = await appWith({ COOKIE_SECURE: 'true' });
    expect(await hstsOf(app)).toBe('max-age=31536000');
  });

  it('is sent when a trusted proxy says https, not when an untrusted peer does', async () => {
    const app = await appWith({ TRUST_PROXY: '127.0.0.1' });
    expect(await hstsOf(app, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000');
    expect(await hstsOf(app, { 'x-forwarded-proto': 'http' })).toBeUndefined();
    expect(await hstsOf(app, { 'x-forwarded-proto': 'https' }, '203.0.113.5')).toBeUndefined();
  });

  it('adds includeSubDomains when HSTS_INCLUDE_SUBDOMAINS is set', async () => {
    const app = await appWith({ COOKIE_SECURE: 'true', HSTS_INCLUDE_SUBDOMAINS: 'true' });
    expect(await hstsOf(app)).toBe('max-age=31536000; includeSubDomains');
  });
});
