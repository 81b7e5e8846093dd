/** One engine and one in-memory database per test file (the models load once per worker). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { openDb, type Db } from '../../server/db/client';
import { loadIdentityConfig, type IdentityConfig } from '../../server/identity/config';
import {
  createIdentityEngine,
  getCompletedKyc,
  type IdentityEngine,
  type ScanAnswer,
  type EngineOptions,
  type IdentityLog,
} from '../../server/identity/engine';
import { installErrorHandling } from '../../server/http/errors';
import { identityPlugin } from '../../server/identity/plugin';
import { identityRoutes } from '../../server/identity/routes';
import { blinkSequence } from './frames';

export type Harness = {
  engine: IdentityEngine;
  db: Db;
  config: IdentityConfig;
  clock: { now: number };
};

export async function startEngine(
  env: Record<string, string> = {},
  opts: {
    ocr?: boolean;
    log?: IdentityLog;
    spawnFaceWorker?: EngineOptions['spawnFaceWorker'];
    /** Keeps KYC evidence sealed with it (issue 30). */
    sealer?: EngineOptions['sealer'];
    /** Opens the database (in-memory PGlite by default). */
    openDb?: () => Promise<Db>;
  } = {},
): Promise<Harness> {
  // The fixture frames blink at fixed times, not on cue: the harness runs the blink decider
  // without a challenge ('none') unless a test asks for one (tests/identity/liveness-challenge*.test.ts).
  const config = loadIdentityConfig({
    IDENTITY_POOL_SIZE: '1',
    IDENTITY_LIVENESS_CHALLENGE: 'none',
    ...env,
  });
  const clock = { now: Date.now() };
  const [db, engine] = await Promise.all([
    opts.openDb ? opts.openDb() : openDb({ memory: true }),
    createIdentityEngine(config, {
      ocr: opts.ocr ?? false,
      now: () => clock.now,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.spawnFaceWorker ? { spawnFaceWorker: opts.spawnFaceWorker } : {}),
      ...(opts.sealer ? { sealer: opts.sealer } : {}),
    }),
  ]);
  return { engine, db, config, clock };
}

/** Sends frames in order, advancing the fake clock 700 ms per frame as the browser polls. */
export async function sendFrames(h: Harness, sessionId: string, frames: Buffer[]) {
  const answers = [];
  for (const f of frames) {
    h.clock.now += 700;
    answers.push(await h.engine.livenessFrame(h.db, sessionId, f));
  }
  return answers;
}

/** A session that passed the blink challenge, with fresh frames from `seed` (replays would be refused). */
export async function liveSession(h: Harness, seed: number): Promise<string> {
  const { sessionId } = await h.engine.startSession(h.db);
  const answers = await sendFrames(h, sessionId, await blinkSequence(3, seed));
  if (!answers.at(-1)!.liveness_detected) throw new Error('liveness not reached');
  return sessionId;
}

/**
 * A session that passed liveness with the face described by `selfie` (set in the database: for
 * suites where liveness is not under test).
 */
export async function liveSessionWithSelfie(h: Harness, selfie: number[]): Promise<string> {
  const { sessionId } = await h.engine.startSession(h.db);
  await h.db.query(
    "UPDATE kyc_sessions SET status = 'live', selfie_embedding = $2::real[] WHERE id = $1",
    [sessionId, selfie],
  );
  return sessionId;
}

/** The identity routes alone (prefix /api/onboarding) on the harness' engine, for app.inject. */
export async function identityApp(h: Harness): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(identityPlugin, { env: 'test', identity: h.engine });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db: h.db } });
  await app.ready();
  return app;
}

/**
 * A document-scan suite's engine (with the OCR, `harness()`) and its `scan`: each scan in a session of its own
 * that passed the blink challenge (blink seeds from `firstSeed` on); a refused scan must leave no
 * completed KYC behind.
 */
export function useScanEngine(firstSeed: number, timeoutMs: number) {
  let h: Harness;
  let seed = firstSeed;
  beforeAll(async () => {
    h = await startEngine({}, { ocr: true });
  }, timeoutMs);
  afterAll(async () => {
    await h?.engine.close();
    await h?.db.close();
  });
  return {
    harness: () => h,
    async scan(front: Buffer, back: Buffer): Promise<ScanAnswer> {
      const sid = await liveSession(h, seed++);
      const r = await h.engine.scanDocument(h.db, sid, { front, back });
      if (!r.success) expect(await getCompletedKyc(h.db, sid)).toBeNull();
      return r;
    },
  };
}
