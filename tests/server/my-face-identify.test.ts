import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  faceLoginFrameResponse,
  faceLoginPaths,
  faceLoginStartResponse,
  type FaceLoginFrameResponse,
} from '../../contract/face-login';
import { createContext } from '../../server/app';
import type { AppContext } from '../../server/context';
import { loadFaceLoginConfig } from '../../server/face-login/config';
import { enrollFromPhoto } from '../../server/face-login/enroll';
import { faceLoginRoutes } from '../../server/face-login/routes';
import { installErrorHandling } from '../../server/http/errors';
import { identityPlugin } from '../../server/identity/plugin';
import { lockFace, withdrawFace } from '../../server/my-data/face';
import { unlockPatientFace, upsertPatient } from '../../server/patients/service';
import { blinkSequence, fixture, multipart } from '../identity/frames';
import { startEngine, type Harness } from '../identity/engine';
import { FakeClock, testConfig, testOnboardingSettings } from './helpers';

/**
 * 'Mi rostro' (issue 45 item 4) against the real identity engine and the real face-login routes:
 * a locked face is refused like nobody found and logged 'locked'; a lock landing after the decision
 * still keeps the patient's name from the answer; a withdrawn face is not found by identification.
 */
const T = 180_000;
let h: Harness;
let ctx: AppContext;
let app: FastifyInstance;
const clock = new FakeClock();
const paths = faceLoginPaths();
const PATIENT = {
  numero_documento: '4321988',
  pin: '482915',
  nombre: 'EILEEN MARIE',
  apellido: 'COLLINS',
  celular: '0981555400',
};

beforeAll(async () => {
  h = await startEngine();
  ctx = await createContext(testConfig(), {
    db: h.db,
    clock,
    onboarding: testOnboardingSettings(),
    faceLogin: loadFaceLoginConfig({}, 'test'),
  });
  const faceLogin = loadFaceLoginConfig({}, 'test');
  app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(cookie);
  await app.register(identityPlugin, { env: 'test', identity: h.engine });
  await app.register(faceLoginRoutes, { prefix: faceLogin.prefix, ctx, faceLogin });
  await app.ready();
}, T);
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});
beforeEach(async () => {
  await h.db.query(
    `TRUNCATE face_auth_sessions, face_enrollments, patients, kyc_sessions, kyc_evidence,
              liveness_frames, rate_limit_events, patient_access_log, onboarding_registrations,
              login_guards, login_failures RESTART IDENTITY CASCADE`,
  );
  clock.reset();
});

async function enrolled(): Promise<string> {
  const { id } = await upsertPatient(ctx, PATIENT);
  const outcome = await enrollFromPhoto(h.engine, h.db, id, fixture('faces', 'blink-open.jpg'));
  expect(outcome.ok).toBe(true);
  return id;
}

/** One face-login attempt: start, then blink frames until the decision. */
async function attempt(seed: number): Promise<{ sid: string; last: FaceLoginFrameResponse }> {
  const start = await app.inject({ method: 'POST', url: paths.start, payload: {} });
  const sid = faceLoginStartResponse.parse(start.json()).session_id;
  let last: FaceLoginFrameResponse | null = null;
  for (const frame of await blinkSequence(1, seed)) {
    last = await frameOf(sid, frame);
    if (last.stage !== 'liveness') break;
  }
  return { sid, last: last! };
}
async function frameOf(sid: string, frame: Buffer): Promise<FaceLoginFrameResponse> {
  const res = await app.inject({
    method: 'POST',
    url: paths.frame,
    ...multipart([
      { name: 'session_id', value: sid },
      { name: 'frame', value: frame, filename: 'frame.jpg' },
    ]),
  });
  expect(res.statusCode).toBe(200);
  return faceLoginFrameResponse.parse(res.json());
}
const faceLog = async (id: string) =>
  (
    await h.db.query<{ kind: string; result: string }>(
      `SELECT kind, result FROM patient_access_log WHERE patient_id = $1 ORDER BY id`,
      [id],
    )
  ).rows;

/** What a face nobody enrolled gets (face-login.test.ts): the locked answer must equal it. */
const NOBODY = {
  stage: 'failed',
  result: {
    success: false,
    message: 'No reconocido',
    time_up: false,
    user: null,
    authentication: { confidence: null, threshold_used: 0.7 },
  },
};

describe('Mi rostro and recognition (issue 45 item 4)', () => {
  it(
    'a locked face is refused exactly like nobody found, and logged as locked',
    { timeout: T },
    async () => {
      const id = await enrolled();
      await lockFace(ctx, id);
      const { last } = await attempt(31);
      expect(last).toMatchObject(NOBODY);
      expect(last.result?.user).toBeNull();
      expect(await faceLog(id)).toEqual([
        { kind: 'face_lock', result: 'ok' },
        { kind: 'face_login', result: 'locked' },
      ]);
      // Unlocked, the same face is recognised again.
      await unlockPatientFace(h.db, id);
      const again = await attempt(32);
      expect(again.last.stage).toBe('authenticated');
      expect(again.last.result?.user?.document_number).toBe(PATIENT.numero_documento);
    },
  );

  it(
    'a lock landing after the decision: the answer no longer names the patient',
    { timeout: T },
    async () => {
      const id = await enrolled();
      const { sid, last } = await attempt(33);
      expect(last.stage).toBe('authenticated');
      await lockFace(ctx, id);
      // The kiosk asks again (a repeated frame of the decided attempt): not recognised now.
      const after = await frameOf(sid, (await blinkSequence(1, 34))[0]!);
      expect(after).toMatchObject(NOBODY);
    },
  );

  it(
    'a withdrawn face is not found by identification, and its session descriptions go',
    { timeout: T },
    async () => {
      const id = await enrolled();
      const photo = fixture('faces', 'blink-open.jpg');
      expect((await h.engine.identify(h.db, photo)).match?.patientId).toBe(id);
      // The patient's registration session, with a selfie description in it and its evidence.
      const session = randomUUID();
      const vector = `{${Array.from({ length: 1024 }, () => '0.03').join(',')}}`;
      await h.db.query(
        `INSERT INTO kyc_sessions (id, decider, liveness_state, selfie_embedding, expires_at, consumed_at)
       VALUES ($1, 'blink', '{}', $2::real[], now() + interval '1 day', now())`,
        [session, vector],
      );
      await h.db.query(
        'INSERT INTO kyc_evidence (session_id, selfie_embedding, portrait_embedding) VALUES ($1, $2::real[], $2::real[])',
        [session, vector],
      );
      await h.db.query(
        'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, now())',
        [session, id],
      );

      await withdrawFace(ctx, id, { pin: PATIENT.pin, clientIp: '10.0.0.1' });

      const found = await h.engine.identify(h.db, photo);
      expect(found.match).toBeNull();
      expect(found.best?.patientId ?? null).not.toBe(id);
      const { last } = await attempt(35);
      expect(last).toMatchObject(NOBODY);
      const left = await h.db.query(
        `SELECT 1 FROM kyc_sessions WHERE selfie_embedding IS NOT NULL
       UNION ALL SELECT 1 FROM kyc_evidence WHERE selfie_embedding IS NOT NULL OR portrait_embedding IS NOT NULL
       UNION ALL SELECT 1 FROM face_enrollments`,
      );
      expect(left.rows).toHaveLength(0);
      expect(await faceLog(id)).toEqual([{ kind: 'face_withdraw', result: 'ok' }]);
    },
  );
});
