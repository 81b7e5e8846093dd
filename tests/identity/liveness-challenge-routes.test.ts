import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityPaths,
  livenessResponse,
  startKycResponse,
  type LivenessMeta,
} from '../../contract/identity';
import { installErrorHandling } from '../../server/http/errors';
import { identityMessages } from '../../server/identity/errors';
import { readEvidence } from '../../server/identity/evidence';
import { LEAD_MS } from '../../server/identity/liveness-cues';
import { identityPlugin } from '../../server/identity/plugin';
import { identityRoutes } from '../../server/identity/routes';
import { installHealth } from '../../server/lifecycle/readiness';
import { createSealer } from '../../server/security/sealed';
import { startEngine, type Harness } from './engine';
import { fixture, multipart, OVAL, ovalFrame } from './frames';

/**
 * The challenge through the routes (issue 31, app.inject on PGlite, the real engine): start-kyc's
 * mode, the challenge in every /liveness answer, 400 for a request without the frames' tags, and
 * /api/ready naming the mode.
 */
let h: Harness;
let app: FastifyInstance;
const sealer = createSealer(randomBytes(32).toString('base64url'));

beforeAll(async () => {
  h = await startEngine({ IDENTITY_LIVENESS_CHALLENGE: 'cues,light' }, { sealer });
  app = Fastify({ logger: false });
  installErrorHandling(app);
  installHealth(app, h.db);
  await app.register(identityPlugin, { env: 'test', identity: h.engine });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db: h.db } });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});

const start = async () => {
  const res = await app.inject({ method: 'POST', url: identityPaths.startKyc });
  expect(res.statusCode).toBe(200);
  return startKycResponse.parse(res.json());
};

let seed = 500;
/** Open-eye frames as the browser sends them (160 px wide, JPEG 0.6). */
const frames = (n: number) =>
  Promise.all(
    Array.from({ length: n }, () => ovalFrame({ seed: seed++, width: 160, quality: 60 })),
  );

async function post(sessionId: string, images: Buffer[], meta?: LivenessMeta | string) {
  const parts = [
    { name: 'session_id', value: sessionId },
    ...(meta === undefined
      ? []
      : [{ name: 'meta', value: typeof meta === 'string' ? meta : JSON.stringify(meta) }]),
    ...images.map((value, i) => ({
      name: 'frame',
      value,
      filename: `f${i}.jpg`,
      type: 'image/jpeg',
    })),
  ];
  const body = multipart(parts);
  return app.inject({
    method: 'POST',
    url: identityPaths.liveness,
    headers: body.headers,
    payload: body.payload,
  });
}

describe('the liveness challenge through the routes', () => {
  it('start-kyc answers the mode', async () => {
    expect((await start()).challenge).toBe('cues,light');
  });

  it('refuses frames without their tags (an old browser) with 400 and a Spanish sentence', async () => {
    const { session_id } = await start();
    const images = await frames(2);
    const none = await post(session_id, images);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(identityMessages.metaMissing);
    // One tag for two frames, and a meta that is not JSON.
    const short = await post(session_id, images, { frames: [{ t: 0, light: -1 }] });
    expect(short.statusCode).toBe(400);
    const garbled = await post(session_id, images, '{"frames": [');
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().message).toBe(identityMessages.metaMissing);
  });

  it('answers the challenge in every answer: nothing before the baseline, then the cue and the colours', async () => {
    const { session_id } = await start();
    const tags = (ts: number[]) => ({ frames: ts.map((t) => ({ t, light: -1 })) });
    let answer = livenessResponse.parse(
      (await post(session_id, await frames(1), tags([0]))).json(),
    );
    expect(answer.challenge).toEqual({ cue: null, next_cue: null, later_cue: null, light: null });
    // More open frames: the baseline is measured, and the challenge starts LEAD_MS after the newest.
    for (let k = 0; k < 4 && !answer.challenge?.cue; k++) {
      const t0 = 700 * (k + 1);
      const res = await post(session_id, await frames(3), tags([t0, t0 + 125, t0 + 250]));
      expect(res.statusCode).toBe(200);
      answer = livenessResponse.parse(res.json());
      if (answer.challenge?.cue) {
        expect(answer.challenge.cue).toMatchObject({ n: 1, of: 3, at: t0 + 250 + LEAD_MS });
        expect(answer.challenge.light?.round).toBe(1);
        expect(answer.challenge.light?.colours[0]?.from).toBe(t0 + 250 + LEAD_MS);
      }
    }
    expect(answer.challenge?.cue).not.toBeNull();
    expect(answer.liveness_detected).toBe(false);
  });

  it('refuses a recording that answers neither the cues nor the colours: 422 with the reason code, and stays refused', async () => {
    const { session_id } = await start();
    const tags = (t0: number) => ({
      frames: [0, 125, 250].map((d) => ({ t: t0 + d, light: -1 })),
    });
    let res = await post(session_id, await frames(3), tags(0));
    // Open eyes only, no colour painted (a recording): each request jumps past the cue's window and
    // the colours; the light's two rounds are unseen before the cues run out.
    for (let k = 1; k < 12 && res.statusCode === 200; k++)
      res = await post(session_id, await frames(3), tags(k * 4000));
    expect(res.statusCode).toBe(422);
    // Which refusal comes first follows the server's draws (the gaps between cues): the third
    // missed cue, or the second unseen colour round. Each comes with its own sentence.
    const { reason, message } = res.json();
    expect(['light_mismatch', 'cues_missed']).toContain(reason);
    expect(message).toBe(
      reason === 'light_mismatch' ? identityMessages.lightMismatch : identityMessages.cuesMissed,
    );
    const again = await post(session_id, await frames(1), { frames: [{ t: 60_000, light: -1 }] });
    expect(again.statusCode).toBe(422);
    expect(again.json().reason).toBe(reason);
  });

  it("frames of face A, then face B blinking, then A again: 422 'face_changed' once the challenge asked, and it stays refused (issue 41)", async () => {
    const { session_id } = await start();
    const tags = (t0: number, n: number) => ({
      frames: Array.from({ length: n }, (_, k) => ({ t: t0 + k * 125, light: -1 })),
    });
    let t = 0;
    let answer = livenessResponse.parse(
      (await post(session_id, await frames(3), tags(t, 3))).json(),
    );
    for (let k = 0; k < 4 && !answer.challenge?.cue; k++) {
      t += 700;
      answer = livenessResponse.parse((await post(session_id, await frames(3), tags(t, 3))).json());
    }
    expect(answer.challenge?.cue).not.toBeNull();
    // Another person's face where the patient's was, blinking: its reopening is described (a face
    // that stays where the last one was with its eyes open is not, until it blinks or moves).
    const other = (eyes: 'open' | 'closed', shift: number) =>
      sharp(fixture('faces', `blink-b-${eyes}.jpg`))
        .extract({
          left: Math.round(OVAL.left) + shift,
          top: 0,
          width: Math.round(OVAL.width),
          height: OVAL.height,
        })
        .resize({ width: 160 })
        .jpeg({ quality: 60 })
        .toBuffer();
    t += 700;
    const swapped = await post(
      session_id,
      await Promise.all([other('open', 0), other('closed', 3), other('open', 6)]),
      tags(t, 3),
    );
    expect(swapped.statusCode).toBe(422);
    expect(swapped.json()).toMatchObject({
      reason: 'face_changed',
      message: identityMessages.faceChanged,
    });
    // Face A again: no fresh cues or colours, the refusal stands.
    t += 700;
    const again = await post(session_id, await frames(3), tags(t, 3));
    expect(again.statusCode).toBe(422);
    expect(again.json().reason).toBe('face_changed');
  });

  it("keeps the session's signals in its evidence (a virtual camera's label), without refusing", async () => {
    const { session_id } = await start();
    const res = await post(session_id, await frames(2), {
      frames: [
        { t: 0, light: -1 },
        { t: 125, light: -1 },
      ],
      camera: { label: 'OBS Virtual Camera', frame_rate: 30 },
    });
    expect(res.statusCode).toBe(200);
    const evidence = await readEvidence(h.db, sealer, session_id);
    expect(evidence?.signals).toEqual({ virtual_camera: 1 });
  });

  it('/api/ready names the challenge', async () => {
    await start(); // the engine answers once asked (test environment)
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.json().checks.identity).toMatchObject({ ok: true, challenge: 'cues,light' });
  });
});
