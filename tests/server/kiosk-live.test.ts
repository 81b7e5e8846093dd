import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  faceLoginPaths,
  KIOSK_ACTIVATION_FRAGMENT,
  KIOSK_DEVICE_COOKIE,
  kioskPaths,
} from '../../contract/face-login';
import { faceLoginMessages } from '../../server/face-login/messages';
import { liveEnvironment, run, startServer, type ServerProcess } from './processes';

/**
 * `npm run kiosk` while the real server runs (it reaches the database like `patients`: through the
 * server's socket on PGlite), and the device credential it issues, with real processes. The server
 * requires a device (as in production) and answers POST stop without the identity engine, so no
 * model is loaded here.
 */
const SLOW = 240_000;
const databases = process.env.TEST_DATABASE_URL ? ['postgres'] : ['pglite'];

describe.each(databases)('kiosk command while the server runs on %s', (kind) => {
  let env: Record<string, string>;
  let cleanup: ((server?: ServerProcess) => Promise<void>) | undefined;
  let server: ServerProcess | undefined;

  const kiosk = async (...args: string[]) => {
    const r = await run(['server/cli/kiosk.ts', ...args], env);
    const last = r.stdout.trim().split('\n').pop() ?? '';
    return { code: r.code, stderr: r.stderr, json: last ? (JSON.parse(last) as unknown) : null };
  };
  const post = (url: string, body: unknown, cookie?: string) =>
    fetch(new URL(url, server!.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const stop = (cookie?: string) =>
    post(faceLoginPaths().stop, { session_id: '00000000-0000-4000-8000-000000000000' }, cookie);

  beforeAll(async () => {
    ({ env, cleanup } = await liveEnvironment(kind, 'kiosk', {
      FACE_AUTH_REQUIRE_DEVICE: 'true',
      PUBLIC_URL: 'https://kiosco.example.org',
    }));
    server = await startServer(env);
  }, SLOW);

  afterAll(() => cleanup?.(server));

  it(
    'add prints a one-time link whose token activates the device; list and revoke act at once',
    async () => {
      expect((await stop()).status).toBe(403);

      const added = await kiosk('add', 'Recepción', 'central');
      expect(added.code).toBe(0);
      const out = added.json as { ok: boolean; id: string; link: string; via: string };
      expect(out).toMatchObject({ ok: true, name: 'Recepción central' });
      expect(out.via).toBe(kind === 'pglite' ? 'pglite-server' : 'postgres');
      const link = new URL(out.link);
      expect(link.origin + link.pathname + link.search).toBe(
        'https://kiosco.example.org/face-login?modo=kiosco',
      );
      const token = new URLSearchParams(link.hash.slice(1)).get(KIOSK_ACTIVATION_FRAGMENT)!;
      expect(token.length).toBeGreaterThanOrEqual(32);

      const activated = await post(kioskPaths.activate, { token });
      expect(activated.status).toBe(200);
      const setCookie = activated.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(new RegExp(`^${KIOSK_DEVICE_COOKIE}=`));
      expect(setCookie).toMatch(/HttpOnly/i);
      const cookie = setCookie.split(';')[0]!;
      expect((await stop(cookie)).status).toBe(200);

      // The link is spent.
      const again = await post(kioskPaths.activate, { token });
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({
        success: false,
        message: faceLoginMessages.activationInvalid,
      });

      const listed = await kiosk('list');
      const devices = (listed.json as { devices: Array<Record<string, unknown>> }).devices;
      const device = devices.find((d) => String(d.id) === String(out.id));
      expect(device).toMatchObject({ name: 'Recepción central' });
      expect(device?.activated_at).toBeTruthy();

      const revoked = await kiosk('revoke', String(out.id));
      expect(revoked).toMatchObject({ code: 0, json: { ok: true } });
      const refused = await stop(cookie);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        success: false,
        message: faceLoginMessages.deviceNotActivated,
      });

      // Bad input to the command: usage, exit 2, nothing written.
      expect((await kiosk('revoke', 'abc')).code).toBe(2);
    },
    SLOW,
  );
});
