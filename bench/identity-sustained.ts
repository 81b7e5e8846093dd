/**
 * How many concurrent selfie liveness sessions this machine sustains with the browser's frame policy
 * (machines/shared/frame-policy.ts): each session captures a frame every `captureEveryMs` from a
 * simulated patient (bench/_patient.ts: blinks, jitter, noise) and polls every 700 ms with
 * `select(buffer)`, one request in flight (the next poll waits for the answer). A level is sustained
 * when the request p95 stays <= 400 ms and the sessions keep their rate (>= 95% of the polls they
 * should have sent). A session that passes, or runs 15 s, is replaced by a new one, as the next
 * patient would start. Figures, not a test.
 *   npx tsx bench/identity-sustained.ts [seconds per level=20]
 */
import os from 'node:os';
import {
  bufferFrame,
  selfieFramePolicy as policy,
  type SampledFrame,
} from '../machines/shared/frame-policy';
import { percentile, runIfMain, startBench } from './_identity';
import { capture, makePatient } from './_patient';

const P95_TARGET = 400;
const SESSION_MS = 15_000;

export async function main() {
  const seconds = Number(process.argv[2] ?? 20);
  let analysed = 0;
  let received = 0;
  const b = await startBench({}, false, {
    info(obj) {
      if (obj.event !== 'liveness_frames') return;
      for (const s of obj.frames as Array<{ skipped?: unknown; duplicate?: boolean }>) {
        received++;
        if (!s.skipped && !s.duplicate) analysed++;
      }
    },
    warn() {},
  });
  // Camera captures of a few patients, made before the clock starts (the client's work is not the
  // server's): each session replays one patient's captures from its own starting point.
  const PATIENTS = 6;
  const captures = Math.ceil(SESSION_MS / policy.captureEveryMs) + 8;
  const tGen = performance.now();
  const recorded: Buffer[][] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const p = makePatient(9000 + i, SESSION_MS);
    recorded.push(
      await Promise.all(
        Array.from({ length: captures }, (_, k) => capture(p, k * policy.captureEveryMs, policy)),
      ),
    );
  }
  console.log(
    `${PATIENTS} x ${captures} captures of ${policy.maxWidth} px made in ${Math.round((performance.now() - tGen) / 1000)} s`,
  );
  const results: Array<Record<string, unknown>> = [];
  let best = 0;
  let patientNo = 0;
  try {
    for (const sessions of [2, 4, 6, 8, 10, 12, 14, 16]) {
      const latencies: number[] = [];
      let polls = 0;
      let expected = 0;
      let passed = 0;
      analysed = 0;
      received = 0;
      const t0 = performance.now();
      const end = t0 + seconds * 1000;
      await Promise.all(
        Array.from({ length: sessions }, async (_, k) => {
          // Stagger the sessions over one poll interval: patients do not start together.
          await new Promise((r) => setTimeout(r, (k * policy.pollEveryMs) / sessions));
          expected += Math.max(0, end - performance.now()) / policy.pollEveryMs;
          while (performance.now() < end) {
            const frames = recorded[patientNo++ % PATIENTS]!;
            const { sessionId } = await b.engine.startSession(b.db);
            const start = performance.now();
            let buffer: SampledFrame<Buffer>[] = [];
            let captured = 0;
            let poll = start + policy.pollEveryMs;
            let live = false;
            while (!live && poll < end && poll - start < SESSION_MS) {
              const wait = poll - performance.now();
              if (wait > 0) await new Promise((r) => setTimeout(r, wait));
              const now = performance.now();
              for (; start + captured * policy.captureEveryMs <= now; captured++)
                buffer = bufferFrame(policy, buffer, {
                  capturedAt: captured * policy.captureEveryMs,
                  data: frames[captured % frames.length]!,
                });
              const sent = policy.select(buffer).map((f) => f.data);
              buffer = [];
              b.clock.now = Date.now();
              const answer = await b.engine.livenessFrames(b.db, sessionId, sent);
              const done = performance.now();
              latencies.push(done - now);
              polls++;
              live = answer.liveness_detected;
              poll = Math.max(now + policy.pollEveryMs, done);
            }
            if (live) passed++;
          }
        }),
      );
      const elapsed = (performance.now() - t0) / 1000;
      const rate = polls / Math.max(1, Math.floor(expected));
      const p95 = percentile(latencies, 95);
      const ok = rate >= 0.95 && p95 <= P95_TARGET;
      results.push({
        sessions,
        requests: polls,
        ratePct: Math.round(rate * 100),
        p50: Math.round(percentile(latencies, 50)),
        p95: Math.round(p95),
        framesPerSecond: Math.round(received / elapsed),
        analysedPerSecond: Math.round(analysed / elapsed),
        passed,
        load: Number(os.loadavg()[0]!.toFixed(1)),
        sustained: ok,
      });
      console.log(JSON.stringify(results.at(-1)));
      if (ok) best = sessions;
      else break;
    }
    console.log(
      `sustained selfie sessions (capture every ${policy.captureEveryMs} ms, poll ${policy.pollEveryMs} ms, request p95 <= ${P95_TARGET} ms): ${best} (pool of ${b.config.poolSize} workers, ${os.cpus().length} cores; target >= 8)`,
    );
    return { best, results };
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, main);
