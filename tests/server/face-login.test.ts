import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  faceLoginFrameResponse,
  faceLoginPaths,
  faceLoginStartResponse,
  faceLoginStopResponse,
  KIOSK_DEVICE_COOKIE,
  kioskActivateResponse,
  kioskPaths,
  NOT_RECOGNISED,
  type FaceLoginFrameResponse,
} from '../../contract/face-login';
import { createContext } from '../../server/app';
import type { AppContext } from '../../server/context';
import { loadFaceLoginConfig, type FaceLoginConfig } from '../../server/face-login/config';
import { createDevice, revokeDevice } from '../../server/face-login/devices';
import { enrollFromPhoto } from '../../server/face-login/enroll';
import { faceLoginRoutes, kioskRoutes } from '../../server/face-login/routes';
import { installErrorHandling } from '../../server/http/errors';
import { identityPlugin } from '../../server/identity/plugin';
import { upsertPatient } from '../../server/patients/service';
import { blinkSequence, cameraFrame, fixture, multipart } from '../identity/frames';
import { startEngine, type Harness } from '../identity/engine';
import { FakeClock, testConfig, testOnboardingSettings } from './helpers';

/** Face authentication through HTTP (app.inject) on the real engine and an in-memory database. */
const T = 180_000;
let h: Harness;
let ctx: AppContext;
const clock = new FakeClock();
const apps: FastifyInstance[] = [];
const paths = faceLoginPaths();

async function appWith(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const faceLogin: FaceLoginConfig = loadFaceLoginConfig(env, 'test');
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(cookie);
  const c = { ...ctx, faceLogin };
  await app.register(identityPlugin, { env: 'test', identity: h.engine });
  await app.register(faceLoginRoutes, { prefix: faceLogin.prefix, ctx: c, faceLogin });
  await app.register(kioskRoutes, { prefix: '/api/kiosk', ctx: c, faceLogin });
  await app.ready();
  apps.push(app);
  return app;
}

let app: FastifyInstance;
beforeAll(async () => {
  h = await startEngine();
  ctx = await createContext(testConfig(), {
    db: h.db,
    clock,
    onboarding: testOnboardingSettings(),
    faceLogin: loadFaceLoginConfig({}, 'test'),
  });
  app = await appWith();
}, T);
afterAll(async () => {
  for (const a of apps) await a.close();
  await h?.engine.close();
  await h?.db.close();
});
beforeEach(async () => {
  await h.db.query(
    'TRUNCATE face_auth_sessions, kiosk_devices, face_enrollments, patients, kyc_sessions, liveness_frames, rate_limit_events RESTART IDENTITY CASCADE',
  );
  clock.reset();
});

type Cookie = string | undefined;
const start = (a = app, device?: Cookie) =>
  a.inject({
    method: 'POST',
    url: paths.start,
    payload: {},
    cookies: device ? { [KIOSK_DEVICE_COOKIE]: device } : {},
  });
const sendFrame = (sid: string, frame: Buffer, a = app, device?: Cookie) =>
  a.inject({
    method: 'POST',
    url: paths.frame,
    ...multipart([
      { name: 'session_id', value: sid },
      { name: 'frame', value: frame, filename: 'frame.jpg' },
    ]),
    cookies: device ? { [KIOSK_DEVICE_COOKIE]: device } : {},
  });
const startSession = async (a = app, device?: Cookie) => {
  const res = await start(a, device);
  expect(res.statusCode).toBe(200);
  return faceLoginStartResponse.parse(res.json());
};
/** Sends frames until a decision (or the frames run out); every answer must match the contract. */
async function run(sid: string, frames: Buffer[], a = app, device?: Cookie) {
  const answers: FaceLoginFrameResponse[] = [];
  for (const f of frames) {
    const res = await sendFrame(sid, f, a, device);
    expect(res.statusCode).toBe(200);
    const body = faceLoginFrameResponse.parse(res.json());
    answers.push(body);
    if (body.stage !== 'liveness') break;
  }
  return answers;
}

/** The patient the blink fixtures show, enrolled from a photo as the operator command does. */
async function enrolBlinkPatient() {
  const { id } = await upsertPatient(ctx, {
    numero_documento: '4321987',
    pin: '482915',
    nombre: 'EILEEN MARIE',
    apellido: 'COLLINS',
  });
  const outcome = await enrollFromPhoto(h.engine, h.db, id, fixture('faces', 'blink-open.jpg'));
  expect(outcome.ok).toBe(true);
  return id;
}

async function activatedDevice(a: FastifyInstance, name = 'Recepción central') {
  const { activationToken, id } = await createDevice(h.db, name, 60_000);
  const res = await a.inject({
    method: 'POST',
    url: kioskPaths.activate,
    payload: { token: activationToken },
  });
  expect(res.statusCode).toBe(200);
  const set = res.cookies.find((c) => c.name === KIOSK_DEVICE_COOKIE)!;
  return { id, token: activationToken, cookie: set.value, set };
}

describe('contract', () => {
  it('start answers a session, the interval and the kiosk profile; stop answers success', async () => {
    const body = await startSession();
    expect(body).toEqual({
      success: true,
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      recommended_interval_ms: 300,
      profile: 'kiosk',
    });
    const stop = await app.inject({
      method: 'POST',
      url: paths.stop,
      payload: { session_id: body.session_id },
    });
    expect(faceLoginStopResponse.parse(stop.json())).toEqual({ success: true });
    // The stopped session takes no more frames.
    const res = await sendFrame(body.session_id, await cameraFrame('blink-open.jpg', { seed: 3 }));
    expect(res.statusCode).toBe(400);
  });

  it('the prefix and the interval come from configuration', { timeout: T }, async () => {
    const other = await appWith({
      FACE_AUTH_PREFIX: '/api/kiosco/rostro',
      FACE_AUTH_INTERVAL_MS: '450',
    });
    const res = await other.inject({
      method: 'POST',
      url: '/api/kiosco/rostro/start',
      payload: {},
    });
    expect(faceLoginStartResponse.parse(res.json()).recommended_interval_ms).toBe(450);
    expect((await other.inject({ method: 'POST', url: paths.start, payload: {} })).statusCode).toBe(
      404,
    );
  });

  it('bad input is a Spanish 4xx, never a 500', { timeout: T }, async () => {
    const sid = (await startSession()).session_id;
    const noSession = await app.inject({
      method: 'POST',
      url: paths.frame,
      ...multipart([{ name: 'frame', value: Buffer.from('x'), filename: 'frame.jpg' }]),
    });
    expect(noSession.statusCode).toBe(400);
    expect(noSession.json()).toMatchObject({ success: false, message: expect.any(String) });
    const json = await app.inject({
      method: 'POST',
      url: paths.frame,
      payload: { session_id: sid },
    });
    expect(json.statusCode).toBe(415);
    const unknown = await sendFrame(
      '8f0e0d3c-0000-4000-8000-000000000000',
      fixture('faces', 'blink-open.jpg'),
    );
    expect(unknown.statusCode).toBe(400);
    const garbage = await sendFrame(sid, Buffer.from('not an image at all'));
    expect(garbage.statusCode).toBeGreaterThanOrEqual(400);
    expect(garbage.statusCode).toBeLessThan(500);
    const badStop = await app.inject({ method: 'POST', url: paths.stop, payload: { id: 1 } });
    expect(badStop.statusCode).toBe(400);
    const extra = await app.inject({ method: 'POST', url: paths.start, payload: { profile: 'x' } });
    expect(extra.statusCode).toBe(400);
  });
});

describe('decisions', () => {
  it(
    'a live, enrolled face is recognised by name and document number',
    { timeout: T },
    async () => {
      await enrolBlinkPatient();
      const logged = async () =>
        (
          await h.db.query<{ kind: string; result: string }>(
            `SELECT kind, result FROM patient_access_log WHERE kind IN ('face_login', 'kiosk') ORDER BY id`,
          )
        ).rows;
      const before = (await logged()).length;
      const { session_id } = await startSession();
      const answers = await run(session_id, await blinkSequence(1, 11));
      const last = answers.at(-1)!;
      // 'Quién vio mis datos' (issue 45): the recognition is in the patient's access log.
      expect((await logged()).slice(before)).toEqual([{ kind: 'face_login', result: 'ok' }]);
      expect(answers.slice(0, -1).every((a) => a.stage === 'liveness' && a.result === null)).toBe(
        true,
      );
      expect(last.stage).toBe('authenticated');
      expect(last.result).toMatchObject({
        success: true,
        user: {
          full_name: 'EILEEN MARIE COLLINS',
          given_names: 'EILEEN MARIE',
          document_number: '4321987',
        },
        authentication: { threshold_used: 0.7 },
      });
      expect(last.result!.authentication!.confidence).toBeGreaterThanOrEqual(0.7);
      expect(last.result!.user!.face_match_confidence).toBe(
        last.result!.authentication!.confidence,
      );
      // Once stopped, the decision (who it was) is gone from the database.
      await app.inject({ method: 'POST', url: paths.stop, payload: { session_id } });
      const { rows } = await h.db.query(
        'SELECT 1 FROM face_auth_sessions UNION ALL SELECT 1 FROM kyc_sessions WHERE selfie_embedding IS NOT NULL',
      );
      expect(rows).toHaveLength(0);
    },
  );

  it('a still photo of an enrolled patient never authenticates', { timeout: T }, async () => {
    await enrolBlinkPatient();
    const { session_id } = await startSession();
    // The photo held to the camera: every capture differs by sensor noise, the eyes never close.
    const held = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        cameraFrame('blink-open.jpg', { seed: 500 + i, still: true }),
      ),
    );
    const answers = await run(session_id, held);
    expect(answers).toHaveLength(10);
    expect(answers.every((a) => a.stage === 'liveness' && a.result === null)).toBe(true);
    // The same picture sent again is a duplicate, and does not count.
    const again = await run(session_id, [held[9]!]);
    expect(again[0]!.feedback.join(' ')).toContain('frame duplicado');
  });

  it(
    'frames replayed from an earlier success do not authenticate again',
    { timeout: T },
    async () => {
      await enrolBlinkPatient();
      const frames = await blinkSequence(1, 21);
      const first = await startSession();
      expect((await run(first.session_id, frames)).at(-1)!.stage).toBe('authenticated');
      const second = await startSession();
      const replay = await run(second.session_id, frames);
      expect(replay.every((a) => a.stage === 'liveness')).toBe(true);
      expect(replay.some((a) => a.feedback.join(' ').includes('frame duplicado'))).toBe(true);
    },
  );

  it("an unknown live face gets 'No reconocido' and no one's data", { timeout: T }, async () => {
    // Someone else is enrolled: the live face must not match them.
    const { id } = await upsertPatient(ctx, {
      numero_documento: '7654321',
      pin: '482915',
      nombre: 'OTRA',
      apellido: 'PERSONA',
    });
    expect((await enrollFromPhoto(h.engine, h.db, id, fixture('faces', 'person-05.jpg'))).ok).toBe(
      true,
    );
    const { session_id } = await startSession();
    const last = (await run(session_id, await blinkSequence(1, 31))).at(-1)!;
    expect(last.stage).toBe('failed');
    expect(last.result).toEqual({
      success: false,
      message: NOT_RECOGNISED,
      time_up: false,
      user: null,
      authentication: { confidence: null, threshold_used: 0.7 },
    });
  });

  it(
    'nobody blinking within the liveness time is a failure marked time_up (issue 29 item 17)',
    { timeout: T },
    async () => {
      const { session_id } = await startSession();
      const frame = await cameraFrame('blink-open.jpg', { seed: 61 });
      expect((await sendFrame(session_id, frame)).json().stage).toBe('liveness');
      h.clock.now += 31_000;
      const res = await sendFrame(session_id, await cameraFrame('blink-open.jpg', { seed: 62 }));
      expect(res.json().result).toMatchObject({
        success: false,
        message: 'Se terminó el tiempo. Volvé a iniciar la validación.',
        time_up: true,
        user: null,
      });
    },
  );

  it(
    'a kiosk session is no KYC selfie session (the onboarding engine refuses it)',
    { timeout: T },
    async () => {
      const { session_id } = await startSession();
      await expect(
        h.engine.livenessFrame(h.db, session_id, await cameraFrame('blink-open.jpg', { seed: 41 })),
      ).rejects.toMatchObject({ code: 'session_invalid' });
    },
  );
});

describe('kiosk devices', () => {
  it(
    'where required, only an activated device may call; revoking shuts it out',
    { timeout: T },
    async () => {
      const prod = await appWith({ FACE_AUTH_REQUIRE_DEVICE: 'true' });
      const denied = await start(prod);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({
        success: false,
        message: expect.stringContaining('no está habilitado'),
      });
      expect(
        (await prod.inject({ method: 'POST', url: paths.stop, payload: { session_id: 'x' } }))
          .statusCode,
      ).toBe(403);
      expect((await start(prod, 'forged-cookie-value')).statusCode).toBe(403);

      const device = await activatedDevice(prod);
      expect(device.set).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      const { rows } = await h.db.query<{ token_hash: string }>(
        'SELECT token_hash FROM kiosk_devices',
      );
      expect(rows[0]!.token_hash).not.toBe(device.cookie);
      expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      const ok = await startSession(prod, device.cookie);
      // Another device cannot drive this device's session.
      const other = await activatedDevice(prod, 'Guardia');
      const stolen = await sendFrame(
        ok.session_id,
        await cameraFrame('blink-open.jpg', { seed: 51 }),
        prod,
        other.cookie,
      );
      expect(stolen.statusCode).toBe(400);

      expect(await revokeDevice(h.db, device.id)).toBe(true);
      expect((await start(prod, device.cookie)).statusCode).toBe(403);
    },
  );

  it('an activation link works once, even when used twice at the same time', async () => {
    const { activationToken } = await createDevice(h.db, 'Recepción central', 60_000);
    const use = () =>
      app.inject({ method: 'POST', url: kioskPaths.activate, payload: { token: activationToken } });
    const [a, b] = await Promise.all([use(), use()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const winner = a.statusCode === 200 ? a : b;
    expect(kioskActivateResponse.parse(winner.json()).device).toBe('Recepción central');
    const again = await use();
    expect(again.statusCode).toBe(400);
    expect(again.cookies).toHaveLength(0);
    expect(again.json().message).toContain('enlace de activación');
  });

  it('an expired or revoked link does not activate', async () => {
    const expired = await createDevice(h.db, 'Vieja', 1);
    await new Promise((r) => setTimeout(r, 20));
    const a = await app.inject({
      method: 'POST',
      url: kioskPaths.activate,
      payload: { token: expired.activationToken },
    });
    expect(a.statusCode).toBe(400);
    const revoked = await createDevice(h.db, 'Revocada', 60_000);
    await revokeDevice(h.db, revoked.id);
    const b = await app.inject({
      method: 'POST',
      url: kioskPaths.activate,
      payload: { token: revoked.activationToken },
    });
    expect(b.statusCode).toBe(400);
  });

  it('sessions and frames are rate-limited per device', { timeout: T }, async () => {
    const limited = await appWith({
      FACE_AUTH_REQUIRE_DEVICE: 'true',
      FACE_AUTH_SESSIONS_PER_MINUTE: '2',
      FACE_AUTH_FRAMES_PER_MINUTE: '3',
    });
    const one = await activatedDevice(limited, 'Uno');
    const two = await activatedDevice(limited, 'Dos');
    const s = await startSession(limited, one.cookie);
    await startSession(limited, one.cookie);
    const third = await start(limited, one.cookie);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json().message).toMatch(/^Demasiados intentos/);
    // The other device is not affected.
    await startSession(limited, two.cookie);
    const frame = await cameraFrame('blink-open.jpg', { seed: 61 });
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push((await sendFrame(s.session_id, frame, limited, one.cookie)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    // A minute later the device may go on.
    clock.advance(61_000);
    expect((await start(limited, one.cookie)).statusCode).toBe(200);
  });
});
