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

  it(
    "a hand-held patient's head shakes a few pixels: its open frames are skipped, and every blink counts",
    { timeout: T },
    async () => {
      // In px of the 160 px frame: a hand's tremor, caught at every capture on the other side (3.5 px
      // across, 2 px down), on a sway of +-2 px and sensor noise of 3.5 grey levels.
      const plans = ['oooooo', 'oooooo', 'oocooo', 'oooooo', 'ooooco', 'oooooo', 'oocooo'];
      const requests = await Promise.all(
        plans.map((plan, r) =>
          Promise.all(
            [...plan].map((k, i) => {
              const n = r * 6 + i;
              const side = n % 2 ? 1 : -1;
              const sway = 2 * Math.sin((n * policy.captureEveryMs) / 1300);
              const [x, y] = [1.75 * side + sway, -side + sway * 0.75];
              return ovalFrame({
                seed: 600 + n,
                closed: k === 'c' ? 1 : 0,
                width: policy.maxWidth,
                quality: Math.round(policy.quality * 100),
                offset: [(x * 8) / 3, (y * 8) / 3],
                noise: 3.5,
                greyNoise: true,
                still: true,
              });
            }),
          ),
        ),
      );
      const { sessionId: sid } = await h.engine.startSession(h.db);
      let skipped = 0;
      let open = 0;
      const answers = [];
      for (const [r, frames] of requests.entries()) {
        h.clock.now += policy.pollEveryMs;
        logged.length = 0;
        answers.push(await h.engine.livenessFrames(h.db, sid, frames));
        const steps = logged.find((l) => l.event === 'liveness_frames')!.frames as Array<{
          skipped?: unknown;
        }>;
        // After the baseline (the first request), the open frames not next to a blink.
        if (r > 0)
          for (const [i, k] of [...plans[r]!].entries())
            if (k === 'o' && plans[r]![i - 1] !== 'c') {
              open++;
              if (steps[i]?.skipped) skipped++;
            }
      }
      // Every blink counted: live at the third.
      expect(answers.map((a) => a.liveness_detected).indexOf(true)).toBe(plans.length - 1);
      expect(answers[2]!.feedback).toEqual([hints.blink(1, 3)]);
      expect(answers[4]!.feedback).toEqual([hints.blink(2, 3)]);
      // And the open frames cost no model time (with a +-2 px search, 5 of these 30 were skipped).
      expect(skipped / open).toBeGreaterThan(0.8);
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
