/**
 * Issue 29, item 2: one session cannot hold the card reader. The outside probe sent one live KYC
 * session's 5 scan attempts at once from 5 addresses (a photo of the attacker's own face as the
 * front): they ran one after another for a full budget each, and a genuine patient's scan from a
 * sixth address waited 119 s. Now a second scan of a session in flight is refused at once (409,
 * Spanish, not queued behind the first) and a front with no card is refused before any OCR: the
 * genuine patient waits at most one scan budget.
 */
import type { FastifyInstance } from 'fastify';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths, scanIdResponse } from '../../contract/identity';
import { identityMessages } from '../../server/identity/errors';
import { identityApp, liveSessionWithSelfie, startEngine, type Harness } from './engine';
import { fixture, multipart } from './frames';

let h: Harness;
let app: FastifyInstance;
let selfie: number[];
const T = 240_000;

beforeAll(async () => {
  h = await startEngine({}, { ocr: true });
  app = await identityApp(h);
  selfie = (await h.engine.analyze(fixture('faces', 'blink-open.jpg'))).faces[0]!.embedding!;
}, T);
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});

/** A session that passed liveness with the selfie's face (liveness is not under test here). */
const liveSession = () => liveSessionWithSelfie(h, selfie);

const scan = (sid: string, front: Buffer, back: Buffer, ip: string) =>
  app.inject({
    method: 'POST',
    url: identityPaths.scanId,
    remoteAddress: ip,
    ...multipart([
      { name: 'session_id', value: sid },
      { name: 'image_front', value: front, filename: 'front.jpg' },
      { name: 'image_back', value: back, filename: 'back.jpg' },
    ]),
  });

const card = (side: string) => fixture('cedulas', 'templates', `clasica-${side}.jpg`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

describe('one scan per session at a time', () => {
  it(
    "the probe's sequence: 5 scans of one session at once from 5 addresses, then a genuine patient",
    { timeout: T },
    async () => {
      // The genuine patient's scan alone, for the comparison.
      let t0 = performance.now();
      const alone = await scan(await liveSession(), card('front'), card('back'), '198.51.100.9');
      const aloneMs = performance.now() - t0;
      expect(scanIdResponse.parse(alone.json())).toMatchObject({ success: true });

      // The attacker: a live session (their own selfie), their own face as the 'front', a real back.
      const attacker = await liveSession();
      const face = fixture('faces', 'blink-open.jpg');
      const back = fixture('cedulas', 'card-1-back.jpg');
      let answered = 0;
      const attacks = Array.from({ length: 5 }, (_, i) =>
        scan(attacker, face, back, `203.0.113.${i + 1}`).then((res) => (answered++, res)),
      );
      // The patient, from a sixth address, once every attack is running, waiting or answered.
      const queue = h.engine.queues.document;
      while (queue.stats().running + queue.stats().waiting + answered < 5)
        await new Promise((r) => setTimeout(r, 5));
      const patient = await liveSession();
      t0 = performance.now();
      const genuine = await scan(patient, card('front'), card('back'), '198.51.100.10');
      const genuineMs = performance.now() - t0;
      const answers = await Promise.all(attacks);

      console.log(
        `scan-concurrency: genuine scan alone ${Math.round(aloneMs)} ms, behind the 5 attacks ${Math.round(
          genuineMs,
        )} ms; attacks ${answers.map((a) => a.statusCode).join(' ')}; load ${load()}`,
      );
      expect(scanIdResponse.parse(genuine.json())).toMatchObject({ success: true });
      // One attack ran, and was refused before any OCR: its front shows no card.
      const ran = answers.filter((a) => a.statusCode === 200);
      expect(ran).toHaveLength(1);
      expect(ran[0]!.json()).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.notADocument,
        reason: 'not_a_document',
      });
      // The other four were refused at once: 409 in Spanish, not queued behind it.
      const refused = answers.filter((a) => a.statusCode !== 200);
      expect(refused).toHaveLength(4);
      for (const r of refused) {
        expect(r.statusCode).toBe(409);
        expect(r.json()).toEqual({
          success: false,
          message: identityMessages.scanInProgress,
          reason: 'scan_in_progress',
        });
      }
      // Refused scans took no attempt of the session: only the one that ran.
      const { rows } = await h.db.query<{ scan_attempts: number }>(
        'SELECT scan_attempts FROM kyc_sessions WHERE id = $1',
        [attacker],
      );
      expect(rows[0]!.scan_attempts).toBe(1);
      // The patient waited at most one scan budget.
      expect(genuineMs).toBeLessThan(aloneMs + h.config.scanBudgetMs);
    },
  );
});
