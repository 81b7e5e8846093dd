/**
 * Issue 11, item 9, in the engine: document attempts are capped per KYC session (atomically, also
 * under concurrent attempts) and sessions left idle expire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityMessages } from '../../server/identity/errors';
import { cameraFrame, fixture } from './frames';
import { startEngine, type Harness } from './engine';

let h: Harness;
let selfie: number[];
const T = 120_000;
beforeAll(async () => {
  h = await startEngine({ IDENTITY_SCAN_ATTEMPTS_PER_SESSION: '3' });
  selfie = (await h.engine.analyze(fixture('faces', 'person-01.jpg'))).faces[0]!.embedding!;
}, T);
afterAll(async () => {
  await h?.engine.close();
  await h?.db.close();
});

/** A session that passed liveness with person-01's face (set in the database: liveness is not under test). */
async function liveSession(): Promise<string> {
  const { sessionId } = await h.engine.startSession(h.db);
  await h.db.query(
    "UPDATE kyc_sessions SET status = 'live', selfie_embedding = $2::real[] WHERE id = $1",
    [sessionId, selfie],
  );
  return sessionId;
}

describe('bounded document attempts and idle sessions', () => {
  it(
    'a session gets at most N document attempts, also when they arrive at once',
    { timeout: T },
    async () => {
      const sid = await liveSession();
      // Someone else's face on the front: each attempt is a cheap face mismatch.
      const front = fixture('faces', 'person-02.jpg');
      const answers = await Promise.allSettled(
        Array.from({ length: 6 }, () => h.engine.scanDocument(h.db, sid, { front, back: front })),
      );
      const done = answers.filter((a) => a.status === 'fulfilled');
      const refused = answers.filter((a) => a.status === 'rejected');
      expect(done).toHaveLength(3);
      expect(refused).toHaveLength(3);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          code: 'attempts_exhausted',
          status: 429,
          message: identityMessages.attemptsExhausted,
        });
      expect(identityMessages.attemptsExhausted).toContain('session expired');
    },
  );

  it('a session left idle expires; one in use does not', { timeout: T }, async () => {
    const idle = await h.engine.startSession(h.db);
    const used = await h.engine.startSession(h.db);
    await h.db.query(
      "UPDATE kyc_sessions SET updated_at = now() - interval '11 minutes' WHERE id = $1",
      [idle.sessionId],
    );
    await h.db.query(
      "UPDATE kyc_sessions SET updated_at = now() - interval '9 minutes' WHERE id = $1",
      [used.sessionId],
    );
    const frame = await cameraFrame('blink-open.jpg', { seed: 77 });
    await expect(h.engine.livenessFrame(h.db, idle.sessionId, frame)).rejects.toMatchObject({
      code: 'session_expired',
    });
    const ok = await h.engine.livenessFrame(h.db, used.sessionId, frame);
    expect(ok.liveness_detected).toBe(false);
    // A live session waiting for its documents expires the same way.
    const live = await liveSession();
    await h.db.query(
      "UPDATE kyc_sessions SET updated_at = now() - interval '11 minutes' WHERE id = $1",
      [live],
    );
    await expect(
      h.engine.scanDocument(h.db, live, { front: frame, back: frame }),
    ).rejects.toMatchObject({ code: 'session_expired' });
  });
});
