/**
 * How many concurrent selfie liveness sessions this machine sustains with the browser's frame policy
 * (contract/frame-policy.ts): each session captures a frame every `captureEveryMs` from a
 * simulated patient (bench/_patient.ts: blinks, jitter, noise) and polls every 700 ms with
 * `select(buffer)`, one request in flight (the next poll waits for the answer). A session that
 * passes, or runs 15 s, is replaced by a new one, as the next patient would start.
 *
 * Every session is a NEW patient (its own `makePatient` seed): the server refuses frames already
 * seen in another session as replays (server/identity/duplicates.ts), so sessions replaying a few
 * recorded patients would measure refusals, not liveness. The captures are the client's JPEG work,
 * not the server's: each level's patients are made BEFORE that level's clock starts (in this
 * process, then the level runs), per concurrent slot as many patients as the level can use (until
 * the sum of their earliest possible pass times, the N-th blink's end, covers the level).
 *
 * A level is sustained when the request p95 stays <= 400 ms, the sessions keep their rate (>= 95% of
 * the polls they should have sent) and genuine patients pass (>= 95% of the sessions that ended, as
 * bench/liveness-sampling.ts asks: a level where genuine patients fail is not sustained). Prints per
 * level: requests, p50/p95, passed/started (failed = ran 15 s without passing; unfinished = cut by
 * the level's end), CPU time per request of the whole process (main thread with PGlite, face
 * workers; on PostgreSQL the database server's own CPU is not included: it is another process),
 * the replay search's share, and the load average (the machine is shared). Figures, not a test.
 *   npx tsx bench/identity-sustained.ts [seconds per level=20] [pglite|postgres] [levels, e.g. 4,8]
 * Given levels run all (for the CPU time per request at each); by default 2, 4, ... 16 until one
 * is not sustained.
 * postgres: BENCH_DATABASE_URL / TEST_DATABASE_URL, else a throwaway cluster (scripts/pg-test-cluster.sh).
 */
import os from 'node:os';
import {
  bufferFrame,
  selfieFramePolicy as policy,
  type SampledFrame,
} from '../contract/frame-policy';
import { percentile, runIfMain, startBench } from './_identity';
import { capture, makePatient, type Patient } from './_patient';
import { benchPostgres } from './_process';

const P95_TARGET = 400;
const SESSION_MS = 15_000;
const LEVELS = [2, 4, 6, 8, 10, 12, 14, 16];

type Recorded = { patient: Patient; frames: Buffer[] };

export async function main() {
  const seconds = Number(process.argv[2] ?? 20);
  const onPostgres = process.argv[3] === 'postgres';
  const levels = process.argv[4]?.split(',').map(Number) ?? LEVELS;
  const postgres = onPostgres ? await benchPostgres() : null;
  if (onPostgres && !postgres) throw new Error('PostgreSQL asked for, none available');
  let analysed = 0;
  let received = 0;
  const replayCheckMs: number[] = [];
  const b = await startBench(
    {},
    false,
    {
      info(obj) {
        if (obj.event !== 'liveness_frames') return;
        replayCheckMs.push((obj.ms as { replayCheck: number }).replayCheck);
        for (const s of obj.frames as Array<{ skipped?: unknown; duplicate?: boolean }>) {
          received++;
          if (!s.skipped && !s.duplicate) analysed++;
        }
      },
      warn() {},
    },
    postgres?.url,
  );
  const captures = Math.ceil(SESSION_MS / policy.captureEveryMs) + 8;
  const required = b.config.liveness.blinksRequired;
  let seed = 20_000;
  /** A new patient (a seed never used in this run) and all the captures a 15 s session can take. */
  async function record(): Promise<Recorded> {
    const patient = makePatient(seed++, SESSION_MS);
    const frames = await Promise.all(
      Array.from({ length: captures }, (_, k) =>
        capture(patient, k * policy.captureEveryMs, policy),
      ),
    );
    return { patient, frames };
  }
  /** The earliest a patient can pass: the N-th blink's eyes reopen (or the 15 s limit). */
  const earliestPass = (p: Patient) =>
    Math.min(SESSION_MS, p.blinks[required - 1]?.[1] ?? SESSION_MS);

  const results: Array<Record<string, unknown>> = [];
  let best = 0;
  try {
    for (const sessions of levels) {
      // Off the clock: each slot's patients for this level.
      const tGen = performance.now();
      const slots: Recorded[][] = [];
      for (let k = 0; k < sessions; k++) {
        const queue: Recorded[] = [];
        let covered = (k * policy.pollEveryMs) / sessions;
        while (covered < seconds * 1000) {
          const r = await record();
          queue.push(r);
          covered += earliestPass(r.patient);
        }
        slots.push(queue);
      }
      const made = slots.reduce((n, q) => n + q.length, 0);
      const genSeconds = Math.round((performance.now() - tGen) / 1000);

      const latencies: number[] = [];
      let polls = 0;
      let expected = 0;
      let started = 0;
      let passed = 0;
      let failed = 0;
      analysed = 0;
      received = 0;
      replayCheckMs.length = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const end = t0 + seconds * 1000;
      await Promise.all(
        slots.map(async (queue, k) => {
          // Stagger the sessions over one poll interval: patients do not start together.
          await new Promise((r) => setTimeout(r, (k * policy.pollEveryMs) / sessions));
          expected += Math.max(0, end - performance.now()) / policy.pollEveryMs;
          // A new patient only when there is time for a request before the level ends.
          while (performance.now() + policy.pollEveryMs < end) {
            const next = queue.shift();
            if (!next) throw new Error('a slot ran out of patients (earliestPass is wrong)');
            const { frames } = next;
            const { sessionId } = await b.engine.startSession(b.db);
            started++;
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
                  data: frames[Math.min(captured, frames.length - 1)]!,
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
            else if (poll - start >= SESSION_MS) failed++;
          }
        }),
      );
      const elapsed = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const rate = polls / Math.max(1, Math.floor(expected));
      const p95 = percentile(latencies, 95);
      const passRate = passed / Math.max(1, passed + failed);
      const ok = rate >= 0.95 && p95 <= P95_TARGET && passRate >= 0.95;
      results.push({
        sessions,
        requests: polls,
        ratePct: Math.round(rate * 100),
        p50: Math.round(percentile(latencies, 50)),
        p95: Math.round(p95),
        passed: `${passed}/${started}`,
        failed,
        unfinished: started - passed - failed,
        cpuMsPerRequest: Math.round((cpu.user + cpu.system) / 1000 / Math.max(1, polls)),
        replayCheckMs: {
          p50: Math.round(percentile(replayCheckMs, 50)),
          p95: Math.round(percentile(replayCheckMs, 95)),
        },
        framesPerSecond: Math.round(received / elapsed),
        analysedPerSecond: Math.round(analysed / elapsed),
        load: os.loadavg().map((l) => Number(l.toFixed(1))),
        patientsMade: `${made} in ${genSeconds} s before the clock`,
        sustained: ok,
      });
      console.log(JSON.stringify(results.at(-1)));
      if (ok) best = Math.max(best, sessions);
      else if (!process.argv[4]) break;
    }
    console.log(
      `sustained selfie sessions on ${b.dbKind} (capture every ${policy.captureEveryMs} ms, poll ${policy.pollEveryMs} ms, request p95 <= ${P95_TARGET} ms, genuine pass >= 95%): ${best} (pool of ${b.config.poolSize} workers, ${os.cpus().length} cores; target >= 8)`,
    );
    return { best, results };
  } finally {
    await b.close();
    await postgres?.stop();
  }
}

runIfMain(import.meta.url, main);
