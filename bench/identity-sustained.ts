/**
 * How many concurrent liveness sessions this machine sustains at one frame per 700 ms each (the
 * browser's polling, one request in flight per session) without falling behind: each session sends
 * its next frame 700 ms after the previous one was sent, or at once if the answer came later than
 * that. A level is sustained when the sessions keep their rate (>= 95% of the frames they should
 * have sent) and the p95 answer time stays under 700 ms. Figures, not a test.
 *   npx tsx bench/identity-sustained.ts [seconds per level]
 */
import os from 'node:os';
import { blinkPlan, cameraFrame } from '../tests/identity/frames';
import { percentile, runIfMain, startBench } from './_identity';

const INTERVAL = 700;

export async function main() {
  const seconds = Number(process.argv[2] ?? 20);
  const b = await startBench();
  // A pool of distinct captures (so no frame is a duplicate): open and closed, as in a blink session.
  const plan = blinkPlan(12);
  const frames = await Promise.all(
    Array.from({ length: 240 }, (_, i) =>
      cameraFrame(plan[i % plan.length] === 'open' ? 'blink-open.jpg' : 'blink-closed.jpg', {
        seed: 70_000 + i,
      }),
    ),
  );
  let next = 0;
  const take = () => frames[next++ % frames.length]!;
  const results: Array<Record<string, unknown>> = [];
  let best = 0;
  try {
    for (const sessions of [2, 4, 6, 8, 10, 12, 14, 16]) {
      const latencies: number[] = [];
      let sent = 0;
      // Frames each session should have sent over its own active time (it starts after its stagger).
      let expected = 0;
      const t0 = performance.now();
      const end = t0 + seconds * 1000;
      await Promise.all(
        Array.from({ length: sessions }, async (_, k) => {
          // Stagger the sessions over one interval, as real users do not start together.
          await new Promise((r) => setTimeout(r, (k * INTERVAL) / sessions));
          expected += Math.max(0, end - performance.now()) / INTERVAL;
          let { sessionId } = await b.engine.startSession(b.db);
          let frameInSession = 0;
          while (performance.now() < end) {
            const started = performance.now();
            b.clock.now = Date.now();
            const answer = await b.engine.livenessFrame(b.db, sessionId, take());
            latencies.push(performance.now() - started);
            sent++;
            // A finished session is replaced by a new one, as the next patient would start.
            if (answer.liveness_detected || ++frameInSession >= 40) {
              ({ sessionId } = await b.engine.startSession(b.db));
              frameInSession = 0;
            }
            const wait = INTERVAL - (performance.now() - started);
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          }
        }),
      );
      const rate = sent / Math.max(1, Math.floor(expected));
      const p95 = percentile(latencies, 95);
      const ok = rate >= 0.95 && p95 < INTERVAL;
      results.push({
        sessions,
        frames: sent,
        ratePct: Math.round(rate * 100),
        p50: Math.round(percentile(latencies, 50)),
        p95: Math.round(p95),
        sustained: ok,
      });
      console.log(JSON.stringify(results.at(-1)));
      if (ok) best = sessions;
      else break;
    }
    console.log(
      `sustained liveness sessions at 1 frame / ${INTERVAL} ms: ${best} (pool of ${b.config.poolSize} workers, ${os.cpus().length} cores; target >= 8)`,
    );
    return { best, results };
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, main);
