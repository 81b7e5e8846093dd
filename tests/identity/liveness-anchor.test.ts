/**
 * The eye anchor across requests (issue 16): the session keeps the eye regions of its last analysed
 * frame (kyc_sessions.eye_anchor), the next request's first frame is compared with them and skipped
 * when the eyes did not change, and the anchor (a piece of the patient's eye image) is gone once the
 * session leaves liveness. A real engine and an in-memory database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfieFramePolicy as policy } from '../../contract/frame-policy';
import { hints } from '../../server/identity/hints';
import { startEngine, type Harness } from './engine';
import { ovalFrame } from './frames';

const T = 240_000;
let h: Harness;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  h = await startEngine({}, { log: { info: (o) => logged.push(o), warn: () => {} } });
});
afterAll(async () => {
  await h?.engine.close();
  await h?.db.close();
});

const shot = (seed: number, closed = 0) =>
  ovalFrame({ seed, closed, width: policy.maxWidth, quality: Math.round(policy.quality * 100) });
const frames = (plan: string, seed: number) =>
  Promise.all([...plan].map((k, i) => shot(seed * 100 + i, k === 'c' ? 1 : 0)));
async function send(sid: string, plan: string, seed: number) {
  h.clock.now += policy.pollEveryMs;
  logged.length = 0;
  const answer = await h.engine.livenessFrames(h.db, sid, await frames(plan, seed));
  const line = logged.find((l) => l.event === 'liveness_frames');
  return { answer, steps: (line?.frames ?? []) as Array<{ skipped?: { of: number } }> };
}
const anchorOf = async (sid: string) =>
  (
    await h.db.query<{ eye_anchor: Uint8Array | null }>(
      'SELECT eye_anchor FROM kyc_sessions WHERE id = $1',
      [sid],
    )
  ).rows[0]!.eye_anchor;

describe('the eye anchor across requests', () => {
  it(
    "a request's first frame whose eyes did not change is skipped against the previous request's last analysed frame",
    { timeout: T },
    async () => {
      const { sessionId: sid } = await h.engine.startSession(h.db);
      await send(sid, 'oooooo', 71); // the open baseline: every frame analysed
      expect(await anchorOf(sid)).not.toBeNull();
      const next = await send(sid, 'o', 72);
      expect(next.steps[0]?.skipped?.of).toBe(-1);
      // A request whose frames were all skipped still says where the challenge stands.
      expect(next.answer.feedback).toEqual([hints.blink(0, 3)]);
      // A closing lid is never skipped.
      const closing = await send(sid, 'c', 73);
      expect(closing.steps[0]?.skipped).toBeUndefined();
    },
  );

  it('is dropped once the session is rejected', { timeout: T }, async () => {
    const { sessionId: sid } = await h.engine.startSession(h.db);
    await send(sid, 'oooooo', 81);
    expect(await anchorOf(sid)).not.toBeNull();
    await h.engine.rejectKyc(h.db, sid, 'test');
    expect(await anchorOf(sid)).toBeNull();
  });

  it('is not kept once the challenge is passed', { timeout: T }, async () => {
    const { sessionId: sid } = await h.engine.startSession(h.db);
    const plans = ['oooooo', 'oocooo', 'oocooo', 'oocooo'];
    let live = false;
    for (const [i, plan] of plans.entries())
      live = (await send(sid, plan, 90 + i)).answer.liveness_detected;
    expect(live).toBe(true);
    expect(await anchorOf(sid)).toBeNull();
  });
});
