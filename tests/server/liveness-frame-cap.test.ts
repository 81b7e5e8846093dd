/**
 * Issue 7: one liveness session cannot make the server analyse frames without bound. The frames a
 * session sends are counted atomically before any analysis (IDENTITY_MAX_FRAMES_PER_SESSION); past
 * the cap the request is a Spanish 429 carrying the 'session expired' mark (the browser starts a new
 * session) and costs no model time; two concurrent requests cannot both get past it. Real engine
 * (models) and the real database: PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths } from '../../contract/identity';
import type { Db } from '../../server/db/client';
import {
  defaultFramesPerSession,
  loadIdentityConfig,
  type IdentityConfig,
} from '../../server/identity/config';
import { createIdentityEngine, type IdentityEngine } from '../../server/identity/engine';
import { IdentityError, identityMessages } from '../../server/identity/errors';
import { createEngineRecorder } from '../../server/insight/engine-recorder';
import type { EngineDecision } from '../../contract/insight';
import { selfieFramePolicy } from '../../contract/frame-policy';
import { identityApp } from '../identity/engine';
import { multipart, ovalFrame } from '../identity/frames';
import { openTestDb } from './helpers';

const CAP = 10;
/** Frames are analysed by the real models: generous on a loaded 2-core machine. */
const T = 180_000;
let db: Db;
let engine: IdentityEngine;
/** The engine's journey-insight decisions (given to it as an option, as the app does). */
const decisions: EngineDecision[] = [];
let config: IdentityConfig;
let app: FastifyInstance;
const clock = { now: Date.now() };
let seed = 1;

beforeAll(async () => {
  config = loadIdentityConfig({
    IDENTITY_POOL_SIZE: '1',
    IDENTITY_MAX_FRAMES_PER_SESSION: String(CAP),
    // The blink decider's frames, posted without the challenge's tags.
    IDENTITY_LIVENESS_CHALLENGE: 'none',
  });
  [db, engine] = await Promise.all([
    openTestDb(),
    createIdentityEngine(config, {
      ocr: false,
      now: () => clock.now,
      insight: createEngineRecorder((d) => decisions.push(d)),
    }),
  ]);
  app = await identityApp({ engine, db, config, clock });
});
afterAll(async () => {
  await app?.close();
  await engine?.close();
  await db?.close();
});

/** `n` new captures (each different: none is a duplicate of another). */
const frames = (n: number) =>
  Promise.all(
    Array.from({ length: n }, () => ovalFrame({ seed: 70_000 + seed++, width: 160, quality: 60 })),
  );
const received = async (sessionId: string) =>
  (
    await db.query<{ frames_received: number }>(
      'SELECT frames_received FROM kyc_sessions WHERE id = $1',
      [sessionId],
    )
  ).rows[0]!.frames_received;
const send = (sessionId: string, images: Buffer[]) => {
  clock.now += selfieFramePolicy.pollEveryMs;
  return engine.livenessFrames(db, sessionId, images);
};
const tasks = () => engine.stats().pool.submitted;

describe('per-session frame cap', () => {
  it('by default, more than a genuine patient can send: frames per request x polls in the time limit, twice', () => {
    const p = selfieFramePolicy;
    const genuine = p.maxFramesPerRequest * Math.ceil(120_000 / p.pollEveryMs);
    expect(loadIdentityConfig({}).bounds.framesPerSession).toBe(2 * genuine);
    expect(loadIdentityConfig({}).bounds.framesPerSession).toBe(2752);
    // It follows the challenge's time limit, and can be set.
    expect(loadIdentityConfig({ IDENTITY_LIVENESS_SECONDS: '60' }).bounds.framesPerSession).toBe(
      defaultFramesPerSession(60_000),
    );
    expect(defaultFramesPerSession(60_000)).toBeLessThan(2 * genuine);
    expect(
      loadIdentityConfig({ IDENTITY_MAX_FRAMES_PER_SESSION: '500' }).bounds.framesPerSession,
    ).toBe(500);
    expect(() => loadIdentityConfig({ IDENTITY_MAX_FRAMES_PER_SESSION: '-1' })).toThrow();
  });

  it(
    'counts every frame; a request that would pass the cap is refused whole, before any analysis',
    async () => {
      decisions.length = 0;
      const { sessionId } = await engine.startSession(db);
      await send(sessionId, await frames(8));
      expect(await received(sessionId)).toBe(8);
      const before = tasks();
      const over = send(sessionId, await frames(3));
      await expect(over).rejects.toBeInstanceOf(IdentityError);
      // Journey insight: the engine recorded the cap as a selfie failure (issue 17).
      expect(decisions).toContainEqual({
        flow: 'onboarding',
        step: 'selfie',
        outcome: 'failed',
        error: 'frame_cap',
      });
      await expect(over).rejects.toMatchObject({
        code: 'frames_exhausted',
        status: 429,
        message: identityMessages.framesExhausted,
      });
      expect(tasks()).toBe(before); // no model time
      expect(await received(sessionId)).toBe(8); // nothing counted for a refused request
      // Up to the cap exactly, then nothing more.
      await send(sessionId, await frames(2));
      expect(await received(sessionId)).toBe(CAP);
      expect(tasks()).toBe(before + 1);
      await expect(send(sessionId, await frames(1))).rejects.toMatchObject({
        code: 'frames_exhausted',
      });
      expect(tasks()).toBe(before + 1);
      // Another session has its own count.
      const other = await engine.startSession(db);
      await send(other.sessionId, await frames(1));
      expect(await received(other.sessionId)).toBe(1);
    },
    T,
  );

  it(
    'two concurrent requests of one session cannot both get past the cap',
    async () => {
      const { sessionId } = await engine.startSession(db);
      const [a, b] = await Promise.all([frames(6), frames(6)]);
      const before = tasks();
      const results = await Promise.allSettled([send(sessionId, a), send(sessionId, b)]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'frames_exhausted' });
      expect(await received(sessionId)).toBe(6);
      expect(tasks()).toBe(before + 1);
    },
    T,
  );

  it(
    'answers POST /liveness past the cap with a Spanish 429 carrying the session-expired mark',
    async () => {
      const { sessionId } = await engine.startSession(db);
      await send(sessionId, await frames(8));
      await send(sessionId, await frames(CAP - 8));
      const before = tasks();
      const res = await app.inject({
        method: 'POST',
        url: identityPaths.liveness,
        ...multipart([
          { name: 'session_id', value: sessionId },
          ...(await frames(2)).map((value) => ({ name: 'frame', value, filename: 'frame.jpg' })),
        ]),
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({
        success: false,
        message: identityMessages.framesExhausted,
        reason: 'frames_exhausted',
      });
      expect(res.json().message).toMatch(/session expired/);
      expect(tasks()).toBe(before);
    },
    T,
  );
});
