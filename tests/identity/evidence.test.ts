/**
 * Evidence of KYC sessions (issue 30): what a session captured is kept sealed for a person's
 * review; sessions made for a repeat keep one side of the card, sessions made by an approval
 * register as a scanned one does. The real engine (models and OCR) on the fixtures the other
 * suites use; PGlite, or the PostgreSQL of TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths, scanIdResponse } from '../../contract/identity';
import type { IdData } from '../../contract/onboarding';
import { faceMatchThreshold, faceSimilarity, getCompletedKyc } from '../../server/identity/engine';
import { evidenceContext } from '../../server/identity/evidence';
import { purgeExpired, saveLivenessEvidence, sessionSelfie } from '../../server/identity/store';
import { identityKycStore } from '../../server/onboarding/identity-kyc';
import type { KycStore } from '../../server/onboarding/kyc-store';
import { createSealer } from '../../server/security/sealed';
import { openTestDb } from '../server/helpers';
import {
  identityApp,
  liveSessionWithSelfie,
  sendFrames,
  startEngine,
  type Harness,
} from './engine';
import {
  blinkSequence,
  cameraFrame,
  cardIdData,
  cardManifest,
  fixture,
  multipart,
  type Part,
} from './frames';

const T = 240_000;
const card = (name: string, side: string) => fixture('cedulas', `${name}-${side}.jpg`);
const isJpeg = (b: Buffer | null) => Boolean(b && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff);
const sealer = createSealer(randomBytes(32).toString('base64url'));

let h: Harness;
let kyc: KycStore;
let app: FastifyInstance;
/** A real liveness pass (its frames and session), shared: its face is the face of card-1. */
let passed: { sessionId: string; frames: Buffer[]; selfie: number[] };

beforeAll(async () => {
  h = await startEngine({}, { ocr: true, sealer, openDb: openTestDb });
  kyc = identityKycStore(h.db, sealer);
  app = await identityApp(h);
  const frames = await blinkSequence(3, 4242);
  const { sessionId } = await h.engine.startSession(h.db);
  const answers = await sendFrames(h, sessionId, frames);
  if (!answers.at(-1)!.liveness_detected) throw new Error('liveness not reached');
  passed = { sessionId, frames, selfie: (await sessionSelfie(h.db, sessionId))! };
}, T);
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});

const scanId = (parts: Part[]) => {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url: identityPaths.scanId, payload, headers });
};
const side = (name: 'image_front' | 'image_back', value: Buffer): Part => ({
  name,
  value,
  filename: `${name}.jpg`,
});

/** The raw (sealed) column of a session's evidence. */
async function rawEvidence(sessionId: string, column: string): Promise<Buffer | null> {
  const { rows } = await h.db.query<Record<string, Uint8Array | null>>(
    `SELECT ${column} AS v FROM kyc_evidence WHERE session_id = $1`,
    [sessionId],
  );
  return rows[0]?.v ? Buffer.from(rows[0].v) : null;
}

describe('evidence of a liveness pass', () => {
  it(
    'keeps the deciding selfie frame, sealed to its session and column',
    { timeout: T },
    async () => {
      const e = (await kyc.evidenceOf(passed.sessionId))!;
      expect(isJpeg(e.selfie)).toBe(true);
      // The frame whose description became the session's selfie: one of those sent, as sent.
      expect(passed.frames.some((f) => f.equals(e.selfie!))).toBe(true);
      expect(e.selfieEmbedding).toHaveLength(1024);
      expect(faceSimilarity(e.selfieEmbedding!, passed.selfie)).toBeGreaterThan(0.9999);
      expect(e.attempts.liveness).toBeGreaterThan(0);
      expect(e.attempts.scans).toBe(0);
      expect(e.front).toBeNull();
      expect(e.reasons).toEqual([]);

      // At rest only ciphertext: no run of the JPEG's bytes is in the stored value.
      const raw = (await rawEvidence(passed.sessionId, 'selfie'))!;
      expect(raw.length).toBeGreaterThan(e.selfie!.length);
      for (const at of [0, 200, Math.floor(e.selfie!.length / 2)])
        expect(raw.indexOf(e.selfie!.subarray(at, at + 16))).toBe(-1);
      // Bound to its session and column: opened elsewhere, it does not open.
      expect(sealer.open(raw, evidenceContext(passed.sessionId, 'selfie'))).toEqual(e.selfie);
      expect(() => sealer.open(raw, evidenceContext(passed.sessionId, 'front'))).toThrow();
      expect(() =>
        sealer.open(raw, evidenceContext('11111111-1111-4111-8111-111111111111', 'selfie')),
      ).toThrow();
    },
  );

  it(
    'while not passed keeps the best face frame, and the time up as a reason',
    { timeout: T },
    async () => {
      const { sessionId } = await h.engine.startSession(h.db);
      // Too dark to pass the gates, a face all the same: kept while nothing better is seen.
      const dark = await cameraFrame('blink-open.jpg', { seed: 9100, brightness: 0.22 });
      const [a] = await sendFrames(h, sessionId, [dark]);
      expect(a!.liveness_detected).toBe(false);
      expect((await kyc.evidenceOf(sessionId))!.selfie).toEqual(dark);
      // An open-eyed frame that passes the gates replaces it; a darker one after it does not.
      const open = await cameraFrame('blink-open.jpg', { seed: 9101 });
      await sendFrames(h, sessionId, [open]);
      await sendFrames(h, sessionId, [
        await cameraFrame('blink-open.jpg', { seed: 9102, brightness: 0.22 }),
      ]);
      let e = (await kyc.evidenceOf(sessionId))!;
      expect(e.selfie).toEqual(open);
      expect(e.selfieEmbedding).toHaveLength(1024);
      // The challenge's time runs out with no blink: said once, however often asked.
      h.clock.now += h.config.liveness.timeLimitMs;
      for (const seed of [9103, 9104])
        await sendFrames(h, sessionId, [await cameraFrame('blink-open.jpg', { seed })]);
      e = (await kyc.evidenceOf(sessionId))!;
      expect(e.reasons).toEqual(['eyes_never_closed']);
      // Three requests decided; the time-up answers come before any analysis.
      expect(e.attempts.liveness).toBe(3);
    },
  );

  it('keeps nothing for the kiosk: its sessions are not KYC', { timeout: T }, async () => {
    const kiosk = { ...h.engine.decider, name: 'kiosk' };
    const { sessionId } = await h.engine.startSession(h.db, { profile: kiosk });
    for (const f of await blinkSequence(3, 5151)) {
      h.clock.now += 700;
      await h.engine.livenessFrame(h.db, sessionId, f, { profile: kiosk });
    }
    expect(await sessionSelfie(h.db, sessionId)).toHaveLength(1024);
    const { rows } = await h.db.query('SELECT 1 FROM kyc_evidence WHERE session_id = $1', [
      sessionId,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('evidence of a document scan', () => {
  it(
    'a refused scan keeps front, back, portrait, the fields read, the reason and the scores',
    { timeout: T },
    async () => {
      const sid = await liveSessionWithSelfie(h, passed.selfie);
      // card-1's front (the selfie's face) with card-2's back: the fields disagree.
      const r = await h.engine.scanDocument(h.db, sid, {
        front: card('card-1', 'front'),
        back: card('card-2', 'back'),
      });
      expect(r.success).toBe(false);
      expect(r.reason).toBeDefined();
      const e = (await kyc.evidenceOf(sid))!;
      expect(e.reasons).toEqual([r.reason]);
      expect(e.attempts).toEqual({ liveness: 0, scans: 1 });
      // Small JPEG fixtures are kept as sent; the portrait is a crop of the straightened front.
      expect(e.front).toEqual(card('card-1', 'front'));
      expect(e.back).toEqual(card('card-2', 'back'));
      expect(isJpeg(e.portrait)).toBe(true);
      expect(e.portrait!.length).toBeLessThan(e.front!.length);
      // The fields as the back's MRZ gives them: card-2's number and birth date.
      const expected = cardManifest['card-2']!.expected;
      expect(e.idData).toMatchObject({
        DocumentNumber: expected.DocumentNumber,
        DateOfBirth: expected.DateOfBirth,
        Gender: expected.Gender,
      });
      // The portrait matched the selfie: the score the engine used, with its threshold.
      expect(e.faceThreshold).toBeCloseTo(faceMatchThreshold(h.config), 5);
      expect(e.faceSimilarity!).toBeGreaterThanOrEqual(e.faceThreshold!);
      expect(e.portraitEmbedding).toHaveLength(1024);
      expect(faceSimilarity(e.portraitEmbedding!, passed.selfie)).toBeCloseTo(e.faceSimilarity!, 4);
      // Sealed at rest, each column to itself.
      for (const column of ['front', 'back', 'portrait', 'id_data'] as const) {
        const raw = (await rawEvidence(sid, column))!;
        expect(() => sealer.open(raw, evidenceContext(sid, 'selfie'))).toThrow();
      }
      const rawFront = (await rawEvidence(sid, 'front'))!;
      expect(rawFront.indexOf(e.front!.subarray(1000, 1032))).toBe(-1);
      const rawFields = (await rawEvidence(sid, 'id_data'))!.toString('latin1');
      expect(rawFields).not.toContain(expected.DocumentNumber);
    },
  );

  it(
    'faces that differ: the card is read all the same, for the person who reviews it',
    { timeout: T },
    async () => {
      const other = await h.engine.analyze(fixture('faces', 'person-01.jpg'));
      const sid = await liveSessionWithSelfie(h, other.faces[0]!.embedding!);
      const r = await h.engine.scanDocument(h.db, sid, {
        front: card('card-1', 'front'),
        back: card('card-1', 'back'),
      });
      expect(r).toMatchObject({ success: false, reason: 'face_mismatch' });
      expect(r.id_data).toBeUndefined();
      expect(await getCompletedKyc(h.db, sid)).toBeNull();
      const e = (await kyc.evidenceOf(sid))!;
      expect(e.reasons).toEqual(['face_mismatch']);
      expect(e.idData).toEqual(cardIdData('card-1', e.idData));
      expect(e.faceSimilarity!).toBeLessThan(e.faceThreshold!);
      expect(isJpeg(e.portrait)).toBe(true);
    },
  );

  it('keeps the last 20 refusals, oldest first, a repeat of the last one not added', async () => {
    const { sessionId } = await h.engine.startSession(h.db);
    const codes = Array.from({ length: 25 }, (_, i) => (i % 2 ? 'replay' : `code_${i}`));
    for (const reason of codes)
      await saveLivenessEvidence(h.db, sessionId, { selfie: null, reason, attempt: false });
    await saveLivenessEvidence(h.db, sessionId, { selfie: null, reason: 'code_24', attempt: true });
    const e = (await kyc.evidenceOf(sessionId))!;
    expect(e.reasons).toEqual(codes.slice(-20));
    expect(e.attempts.liveness).toBe(1);
  });

  it('is purged with its session', { timeout: T }, async () => {
    const sid = await liveSessionWithSelfie(h, passed.selfie);
    await h.engine.scanDocument(h.db, sid, { front: card('card-1', 'front') });
    expect((await kyc.evidenceOf(sid))!.reasons).toEqual(['back_missing']);
    await h.db.query(
      "UPDATE kyc_sessions SET expires_at = now() - interval '2 days' WHERE id = $1",
      [sid],
    );
    await purgeExpired(h.db, 60_000);
    expect(await kyc.evidenceOf(sid)).toBeNull();
    const { rows } = await h.db.query('SELECT 1 FROM kyc_evidence WHERE session_id = $1', [sid]);
    expect(rows).toEqual([]);
    // Other sessions' evidence stays.
    expect(await kyc.evidenceOf(passed.sessionId)).not.toBeNull();
  });
});

describe('sessions made for a case', () => {
  const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000);
  /** A repeat of the front: the passed selfie's face, card-1's back kept. */
  const repeatOfFront = (store: KycStore = kyc) =>
    store.createLiveSession({
      embedding: passed.selfie,
      keep: { back: card('card-1', 'back') },
      expiresAt: inAWeek(),
    });
  /** scan-id with one side only. */
  const scanOne = (sid: string, name: 'image_front' | 'image_back') =>
    scanId([
      { name: 'session_id', value: sid },
      side(name, card('card-1', name === 'image_front' ? 'front' : 'back')),
    ]);

  it(
    'a repeat of the front: scan-id with only the front reads with the kept back',
    { timeout: T },
    async () => {
      const sid = await repeatOfFront();
      expect(await kyc.progressOf(sid)).toEqual({ stage: 'selfiePassed' });
      // Idle for longer than a patient's session may be: it waits for the patient's SMS.
      await h.db.query(
        "UPDATE kyc_sessions SET updated_at = now() - interval '3 days' WHERE id = $1",
        [sid],
      );
      const res = await scanOne(sid, 'image_front');
      expect(res.statusCode).toBe(200);
      const body = scanIdResponse.parse(res.json());
      expect(body).toEqual({
        success: true,
        kyc_complete: true,
        id_data: cardIdData('card-1', body.id_data),
      });
      const done = await getCompletedKyc(h.db, sid);
      expect(done?.idData).toEqual(body.id_data);
      expect(faceSimilarity(done!.embedding, passed.selfie)).toBeGreaterThan(0.9999);
      const e = (await kyc.evidenceOf(sid))!;
      expect(e.back).toEqual(card('card-1', 'back'));
      expect(e.attempts.scans).toBe(1);
    },
  );

  it('a kept side sealed under another key is as good as none', { timeout: T }, async () => {
    const otherKey = identityKycStore(h.db, createSealer(randomBytes(32).toString('base64url')));
    const sid = await repeatOfFront(otherKey);
    const res = await scanOne(sid, 'image_front');
    expect(scanIdResponse.parse(res.json())).toMatchObject({
      success: false,
      reason: 'back_missing',
    });
  });

  it('a repeat keeps only the side it was given: the front is still needed', async () => {
    const sid = await repeatOfFront();
    const res = await scanOne(sid, 'image_back');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Falta la imagen. Sacá la foto e intentá de nuevo.');
  });

  it('a normal session with one side missing is still refused', { timeout: T }, async () => {
    const sid = await liveSessionWithSelfie(h, passed.selfie);
    const noFront = await scanOne(sid, 'image_back');
    expect(noFront.statusCode).toBe(400);
    expect(noFront.json().message).toBe('Falta la imagen. Sacá la foto e intentá de nuevo.');
    const noBack = await scanOne(sid, 'image_front');
    expect(scanIdResponse.parse(noBack.json())).toMatchObject({
      success: false,
      reason: 'back_missing',
    });
    expect(await getCompletedKyc(h.db, sid)).toBeNull();
  });

  it('an approval: registration reads the identity and the face it was given', async () => {
    const idData = cardManifest['card-3']!.expected as IdData;
    // A face other than the session's (the desk photo's, say): the one given is the one kept.
    const embedding = [...passed.selfie].reverse();
    const sid = await kyc.createVerifiedSession({ idData, embedding, expiresAt: inAWeek() });
    const got = await kyc.getCompletedKyc(sid);
    expect(got?.idData).toEqual(idData);
    expect(got!.embedding).toHaveLength(1024);
    expect(faceSimilarity(got!.embedding, embedding)).toBeGreaterThan(0.99999);
    expect(faceSimilarity(got!.embedding, passed.selfie)).toBeLessThan(0.9);
    expect(await kyc.progressOf(sid)).toEqual({ stage: 'documentRead', idData });
    // Used once, like a scanned session; an operator's session takes no frame and no scan.
    expect(await h.db.transaction((tx) => kyc.consumeKyc(sid, tx))).toBe(true);
    expect(await h.db.transaction((tx) => kyc.consumeKyc(sid, tx))).toBe(false);
    const res = await scanOne(sid, 'image_front');
    expect(scanIdResponse.parse(res.json()).reason).toBe('session_invalid');
  });

  it('needs a face: a session made without one is refused', async () => {
    const expiresAt = inAWeek();
    await expect(
      kyc.createLiveSession({ embedding: [], keep: { back: card('card-1', 'back') }, expiresAt }),
    ).rejects.toThrow(/face description/);
    const idData = cardManifest['card-3']!.expected as IdData;
    await expect(kyc.createVerifiedSession({ idData, embedding: [], expiresAt })).rejects.toThrow(
      /face description/,
    );
  });

  it('evidence of an unknown session is null', async () => {
    expect(await kyc.evidenceOf('11111111-1111-4111-8111-111111111111')).toBeNull();
    expect(await kyc.evidenceOf('nope')).toBeNull();
  });
});
