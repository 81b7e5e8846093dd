import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityPaths,
  kycRejectResponse,
  livenessResponse,
  scanIdResponse,
  startKycResponse,
} from '../../contract/identity';
import { blinkSequence, cameraFrame, cardIdData, fixture, multipart, type Part } from './frames';
import { identityApp, startEngine, type Harness } from './engine';

/** The identity endpoints through HTTP (app.inject), on a real engine and an in-memory database. */
let h: Harness;
let app: FastifyInstance;
const T = 180_000;
const MAX = 300 * 1024;

beforeAll(async () => {
  h = await startEngine({ IDENTITY_MAX_UPLOAD_BYTES: String(MAX) }, { ocr: true });
  app = await identityApp(h);
});
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});

const post = (url: string, parts: Part[]) =>
  app.inject({ method: 'POST', url, ...multipart(parts) });
const startKyc = async () =>
  startKycResponse.parse((await app.inject({ method: 'POST', url: identityPaths.startKyc })).json())
    .session_id;
const frame = (sid: string, value: Buffer) =>
  post(identityPaths.liveness, [
    { name: 'session_id', value: sid },
    { name: 'frame', value, filename: 'frame.jpg' },
  ]);

describe('POST /start-kyc and /liveness', () => {
  it('starts a session and answers a frame with Spanish feedback', { timeout: T }, async () => {
    const started = startKycResponse.parse(
      (await app.inject({ method: 'POST', url: identityPaths.startKyc })).json(),
    );
    const sid = started.session_id;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    // The browser's selfie limit follows the server's (IDENTITY_LIVENESS_SECONDS).
    expect(started.liveness_seconds * 1000).toBe(h.config.liveness.timeLimitMs);
    const res = await frame(sid, await cameraFrame('blink-open.jpg', { seed: 1 }));
    expect(res.statusCode).toBe(200);
    const body = livenessResponse.parse(res.json());
    expect(body).toEqual({
      feedback: ['Parpadeá despacio (0 de 3).'],
      liveness_detected: false,
      time_up: false,
    });
  });

  it(
    'upload errors: 415 wrong type, 413 too large, 400 undecodable, each JSON in Spanish',
    { timeout: T },
    async () => {
      const sid = await startKyc();
      const gif = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#888' },
      })
        .gif()
        .toBuffer();
      const wrong = await frame(sid, gif);
      expect(wrong.statusCode).toBe(415);
      expect(wrong.json()).toEqual({
        success: false,
        message: 'Formato de imagen no admitido. Enviá una foto JPEG o PNG.',
      });

      // Random pixels do not compress: a 1200x1200 JPEG at quality 100 is well over the limit.
      const noise = Buffer.from(
        Array.from({ length: 1200 * 1200 * 3 }, () => Math.floor(Math.random() * 256)),
      );
      const big = await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
        .jpeg({ quality: 100 })
        .toBuffer();
      expect(big.length).toBeGreaterThan(MAX);
      const tooLarge = await frame(sid, big);
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json().success).toBe(false);
      expect(tooLarge.json().message).toMatch(/demasiado grande/);

      const jpeg = await cameraFrame('blink-open.jpg', { seed: 2 });
      const broken = await frame(sid, jpeg.subarray(0, 300));
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({
        success: false,
        message: 'No pudimos leer la imagen. Sacá la foto de nuevo.',
      });

      const json = await app.inject({
        method: 'POST',
        url: identityPaths.liveness,
        payload: { session_id: sid },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().success).toBe(false);
    },
  );

  it('missing parts and unknown sessions', { timeout: T }, async () => {
    const jpeg = await cameraFrame('blink-open.jpg', { seed: 3 });
    const noSession = await post(identityPaths.liveness, [
      { name: 'frame', value: jpeg, filename: 'frame.jpg' },
    ]);
    expect(noSession.statusCode).toBe(400);
    const noFrame = await post(identityPaths.liveness, [
      { name: 'session_id', value: await startKyc() },
    ]);
    expect(noFrame.statusCode).toBe(400);
    const unknown = await frame('5b0c1c7e-0000-4000-8000-000000000000', jpeg);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('invalid session');
  });
});

describe('POST /scan-id and /kyc-reject', () => {
  it('the whole KYC through HTTP: 3 blinks, then the document', { timeout: T }, async () => {
    const sid = await startKyc();
    let last;
    for (const f of await blinkSequence(3, 77)) {
      h.clock.now += 700;
      last = livenessResponse.parse((await frame(sid, f)).json());
    }
    expect(last!.liveness_detected).toBe(true);
    const res = await post(identityPaths.scanId, [
      { name: 'session_id', value: sid },
      {
        name: 'image_front',
        value: fixture('cedulas', 'card-1-front.jpg'),
        filename: 'frontal.jpg',
      },
      { name: 'image_back', value: fixture('cedulas', 'card-1-back.jpg'), filename: 'dorso.jpg' },
      { name: 'celular', value: '0981123456' },
      { name: 'pin', value: '482915' },
    ]);
    expect(res.statusCode).toBe(200);
    const body = scanIdResponse.parse(res.json());
    expect(body).toEqual({
      success: true,
      kyc_complete: true,
      id_data: cardIdData('card-1', body.id_data),
    });
  });

  it('unknown or expired session: the error names it', { timeout: T }, async () => {
    const front = {
      name: 'image_front',
      value: fixture('cedulas', 'card-1-front.jpg'),
      filename: 'frontal.jpg',
    };
    const unknown = scanIdResponse.parse(
      (await post(identityPaths.scanId, [{ name: 'session_id', value: 'nope' }, front])).json(),
    );
    expect(unknown.success).toBe(false);
    expect(unknown.error).toContain('invalid session');
    expect(unknown.reason).toBe('session_invalid');
    const sid = await startKyc();
    await h.db.query(
      "UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1",
      [sid],
    );
    const expired = scanIdResponse.parse(
      (await post(identityPaths.scanId, [{ name: 'session_id', value: sid }, front])).json(),
    );
    expect(expired.error).toContain('session expired');
    expect(expired.reason).toBe('session_expired');
    // A session still in its selfie: a 409 that names the code (issue 27 part 3).
    const early = await post(identityPaths.scanId, [
      { name: 'session_id', value: await startKyc() },
      front,
    ]);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      success: false,
      message: 'Primero completá la validación de vida (selfie).',
      reason: 'liveness_missing',
    });
    // /liveness answers a session problem with its code too.
    const noSession = await frame('nope', await cameraFrame('blink-open.jpg', { seed: 9 }));
    expect(noSession.statusCode).toBe(400);
    expect(noSession.json()).toMatchObject({ success: false, reason: 'session_invalid' });
  });

  it(
    "a front whose portrait is not the selfie's face: success false with the mismatch's code",
    { timeout: T },
    async () => {
      const sid = await startKyc();
      for (const f of await blinkSequence(3, 78)) {
        h.clock.now += 700;
        await frame(sid, f);
      }
      // card-3 carries another person's photo (tests/fixtures/cedulas/manifest.json).
      const res = await post(identityPaths.scanId, [
        { name: 'session_id', value: sid },
        { name: 'image_front', value: fixture('cedulas', 'card-3-front.jpg'), filename: 'f.jpg' },
        { name: 'image_back', value: fixture('cedulas', 'card-3-back.jpg'), filename: 'b.jpg' },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: false,
        kyc_complete: false,
        error: 'Face verification failed: la selfie y la foto del documento no coinciden.',
        reason: 'face_mismatch',
      });
    },
  );

  it('kyc-reject records the reason; a bad body is a 400', { timeout: T }, async () => {
    const sid = await startKyc();
    const ok = await app.inject({
      method: 'POST',
      url: identityPaths.kycReject,
      payload: { session_id: sid, reason: 'Usuario no conforme o datos incorrectos.' },
    });
    expect(kycRejectResponse.parse(ok.json())).toEqual({ success: true });
    const { rows } = await h.db.query<{ status: string; reject_reason: string }>(
      'SELECT status, reject_reason FROM kyc_sessions WHERE id = $1',
      [sid],
    );
    expect(rows[0]).toEqual({
      status: 'rejected',
      reject_reason: 'Usuario no conforme o datos incorrectos.',
    });
    const bad = await app.inject({
      method: 'POST',
      url: identityPaths.kycReject,
      payload: { session_id: sid },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
  });
});
