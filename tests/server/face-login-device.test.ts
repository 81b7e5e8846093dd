import { PassThrough } from 'node:stream';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceLoginPaths } from '../../contract/face-login';
import { createContext } from '../../server/app';
import type { Db } from '../../server/db/client';
import { loadFaceLoginConfig } from '../../server/face-login/config';
import { faceLoginRoutes } from '../../server/face-login/routes';
import { installErrorHandling } from '../../server/http/errors';
import { loggerOptions } from '../../server/http/logging';
import { identityPlugin } from '../../server/identity/plugin';
import { FakeClock, openTestDb, testConfig, testOnboardingSettings } from './helpers';
import { stubEngine } from './identity-stub';

// Issue 29 item 17: a kiosk never activated shows patients 'Este equipo no está habilitado. Avisá
// al personal.'; the shell command that activates it goes to the operator's log, never to the
// answer the screen shows.

describe('a device that is not an activated kiosk', () => {
  const lines: string[] = [];
  let db: Db;
  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    db = await openTestDb();
    const faceLogin = loadFaceLoginConfig({ FACE_AUTH_REQUIRE_DEVICE: 'true' }, 'test');
    const ctx = await createContext(testConfig(), {
      db,
      clock: new FakeClock(),
      onboarding: testOnboardingSettings(),
      faceLogin,
    });
    const out = new PassThrough();
    out.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    app = Fastify({ logger: loggerOptions({ level: 'info', format: 'json' }, out) });
    installErrorHandling(app);
    await app.register(cookie);
    await app.register(identityPlugin, { env: 'test', identity: stubEngine({}) });
    await app.register(faceLoginRoutes, { prefix: faceLogin.prefix, ctx, faceLogin });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('answers patients in plain words and logs the activation command for the staff', async () => {
    const res = await app.inject({ method: 'POST', url: faceLoginPaths().start, payload: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      message: 'Este equipo no está habilitado. Avisá al personal.',
    });
    expect(res.body).not.toMatch(/npm|kiosk/i);
    const refusal = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'kiosk_not_activated');
    expect(refusal?.level).toBe(40); // warn
    expect(refusal?.msg).toContain('npm run kiosk -- add "NOMBRE DEL DISPOSITIVO"');
  });
});
