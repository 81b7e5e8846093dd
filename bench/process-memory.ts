/**
 * What one API process needs in memory (the README's "Several API processes" section): server/main.ts
 * as `npm run serve` runs it (NODE_ENV=production, identity workers warmed at start), on PGlite (a
 * data folder, in the process) and on PostgreSQL (a separate server, not counted). Resident set size
 * (VmRSS from /proc, MiB) of the API process:
 *   - idle: after start-up and a warm-up (the identity workers ready, a few logins and one liveness
 *     session served), sampled for BENCH_MEMORY_IDLE_SECONDS;
 *   - load: BENCH_MEMORY_LOGIN_CLIENTS clients logging in back to back (Argon2id, 19 MiB each) and
 *     BENCH_MEMORY_LIVENESS_CLIENTS patients doing the selfie liveness check at the browser's pace
 *     (contract/frame-policy.ts: a poll every 700 ms, one request in flight; a new patient
 *     from a new address when one passes), for BENCH_MEMORY_SECONDS; mean and peak of the samples;
 *   - idle again after the load, and the process's own peak (VmHWM).
 * The API's child processes (tsx's esbuild service) are printed apart. Figures, not a test.
 *
 *   npx tsx bench/process-memory.ts
 * PostgreSQL: BENCH_DATABASE_URL (or TEST_DATABASE_URL), else a throwaway cluster
 * (scripts/pg-test-cluster.sh), else PGlite only. BENCH_MEMORY_SECONDS (20),
 * BENCH_MEMORY_IDLE_SECONDS (5), BENCH_MEMORY_LOGIN_CLIENTS (4), BENCH_MEMORY_LIVENESS_CLIENTS (4),
 * IDENTITY_POOL_SIZE (the server's default: every core).
 */
import os from 'node:os';
import { identityParts } from '../contract/identity';
import { selfieFramePolicy as policy } from '../contract/frame-policy';
import { capture, makePatient, runClient } from './_patient';
import {
  benchLogin,
  descendants,
  memoryOf,
  runIfMain,
  startApiProcess,
  withPgliteFolder,
  withPostgres,
  type ApiProcess,
} from './_process';

const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 5);
const LOGIN_CLIENTS = Number(process.env.BENCH_MEMORY_LOGIN_CLIENTS ?? 4);
const LIVENESS_CLIENTS = Number(process.env.BENCH_MEMORY_LIVENESS_CLIENTS ?? 4);
const PATIENTS = LOGIN_CLIENTS * 2;
/** Simulated time of one selfie session's captures (three blinks come within it). */
const SESSION_MS = 12_000;
const SAMPLE_MS = 200;

const mib = (n: number) => n.toFixed(0).padStart(5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The requests a patient's browser sends (the frame policy's poll groups), made before timing. */
async function recordSessions(count: number): Promise<Buffer[][][]> {
  const sessions: Buffer[][][] = [];
  for (let i = 0; i < count; i++) {
    const patient = makePatient(7000 + i, SESSION_MS);
    const { requests } = await runClient(
      policy,
      (t) => capture(patient, t, policy),
      async () => false,
      SESSION_MS,
      0,
    );
    sessions.push(requests.map((r) => r.frames));
  }
  return sessions;
}

/** RSS samples of the API process every SAMPLE_MS until stopped. */
function sampler(pid: number) {
  const rss: number[] = [];
  const take = () => {
    const m = memoryOf(pid);
    if (m) rss.push(m.rss);
  };
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      take();
      return rss;
    },
  };
}

function traffic(server: ApiProcess, recorded: Buffer[][][]) {
  let nextSession = 0;
  const counts = { logins: 0, livenessRequests: 0, sessions: 0, passed: 0 };
  const livenessMs: number[] = [];
  const login = async (i: number) => {
    await benchLogin(server.url, i, PATIENTS);
    counts.logins++;
  };
  /** One patient (own address, as behind the proxy) from start-kyc to live or out of frames. */
  const session = async (until: number, maxRequests = Infinity) => {
    const n = nextSession++;
    const requests = recorded[n % recorded.length]!;
    const forwarded = { 'x-forwarded-for': `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}` };
    const start = await fetch(`${server.url}/api/onboarding/start-kyc`, {
      method: 'POST',
      headers: forwarded,
    });
    const started = (await start.json()) as { session_id?: string };
    if (start.status !== 200 || !started.session_id)
      throw new Error(`start-kyc answered ${start.status}`);
    counts.sessions++;
    for (const frames of requests.slice(0, maxRequests)) {
      if (performance.now() >= until) return;
      const poll = performance.now() + policy.pollEveryMs;
      const form = new FormData();
      form.append('session_id', started.session_id);
      for (const [k, frame] of frames.entries())
        form.append(
          identityParts.frame,
          new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }),
          `f${k}.jpg`,
        );
      const sent = performance.now();
      const res = await fetch(`${server.url}/api/onboarding/liveness`, {
        method: 'POST',
        headers: forwarded,
        body: form,
      });
      const body = (await res.json()) as { liveness_detected?: boolean };
      if (res.status !== 200) throw new Error(`liveness answered ${res.status}`);
      livenessMs.push(performance.now() - sent);
      counts.livenessRequests++;
      if (body.liveness_detected) {
        counts.passed++;
        return;
      }
      await delay(poll - performance.now()); // the browser's next poll
    }
  };
  return {
    counts,
    livenessMs,
    /** Every path the load takes, once per client (lazy modules, JIT, first allocations). */
    async warmUp(loginClients: number) {
      await Promise.all([
        ...Array.from({ length: loginClients }, (_, c) => login(c)),
        session(Infinity, 3),
      ]);
    },
    async run(seconds: number, loginClients: number, livenessClients: number) {
      const until = performance.now() + seconds * 1000;
      await Promise.all([
        ...Array.from({ length: loginClients }, async (_, c) => {
          for (let i = c; performance.now() < until; i += loginClients) await login(i);
        }),
        ...Array.from({ length: livenessClients }, async () => {
          while (performance.now() < until) await session(until);
        }),
      ]);
    },
  };
}

async function measure(label: string, env: Record<string, string>, recorded: Buffer[][][]) {
  const server = await startApiProcess({
    NODE_ENV: 'production',
    SMS_PROVIDER: 'outbox',
    TRUST_PROXY: '127.0.0.1',
    // Its recorded selfies blink at fixed times and carry no frame tags: the blink-only mode (the
    // challenge's memory is a few hundred bytes of session state; its cost is bench/liveness-challenge.ts').
    IDENTITY_LIVENESS_CHALLENGE: 'none',
    ...env,
  });
  try {
    const atListen = memoryOf(server.pid)!;
    await server.logged('identity_ready');
    const engineReady = memoryOf(server.pid)!;
    const t = traffic(server, recorded);
    await t.warmUp(LOGIN_CLIENTS);
    t.livenessMs.length = 0;
    const idle = sampler(server.pid);
    await delay(IDLE_SECONDS * 1000);
    const idleRss = idle.stop();

    const load = sampler(server.pid);
    const t0 = performance.now();
    await t.run(SECONDS, LOGIN_CLIENTS, LIVENESS_CLIENTS);
    const wall = (performance.now() - t0) / 1000;
    const loadRss = load.stop();

    const after = sampler(server.pid);
    await delay(IDLE_SECONDS * 1000);
    const afterRss = after.stop();
    const end = memoryOf(server.pid)!;
    const children = descendants(server.pid)
      .map((pid) => memoryOf(pid)?.rss ?? 0)
      .reduce((a, b) => a + b, 0);
    const c = t.counts;
    console.log(
      `  ${label.padEnd(label.length > 10 ? 0 : 10)} RSS MiB: at listen ${mib(atListen.rss)} | identity workers ready ${mib(engineReady.rss)} | idle after warm-up ${mib(median(idleRss))}` +
        ` | under load mean ${mib(loadRss.reduce((a, b) => a + b, 0) / loadRss.length)}, peak ${mib(Math.max(...loadRss))}` +
        ` | idle after load ${mib(median(afterRss))} | process peak (VmHWM) ${mib(end.peak)}` +
        ` | ${end.threads} threads; child processes ${mib(children)} MiB`,
    );
    console.log(
      `      load: ${(c.logins / wall).toFixed(1)} logins/s, ${(c.livenessRequests / wall).toFixed(1)} liveness requests/s` +
        ` (p50 ${median(t.livenessMs).toFixed(0)} ms),` +
        ` ${c.sessions} selfie sessions (${c.passed} passed) in ${wall.toFixed(1)} s`,
    );
  } finally {
    await server.stop();
  }
}

export async function main(): Promise<void> {
  const cores = Number(process.env.IDENTITY_POOL_SIZE) || os.cpus().length;
  console.log(
    `process-memory: one API process (NODE_ENV=production), ${cores} identity workers (IDENTITY_POOL_SIZE; default every core), then 1 on PGlite; load ${SECONDS} s of ` +
      `${LOGIN_CLIENTS} login clients + ${LIVENESS_CLIENTS} selfie sessions at the browser's pace; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  // Enough recorded patients that no session replays another's frames (the third blink comes
  // 4.5 s into a session at the earliest), plus the warm-up's.
  const perClient = Math.ceil(SECONDS / 4.5) + 1;
  const t0 = performance.now();
  const recorded = await recordSessions(LIVENESS_CLIENTS * perClient + 1);
  console.log(
    `  ${recorded.length} patients' requests recorded in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  // A fresh data folder per run: a run's counted frames would be replays in the next.
  await withPgliteFolder(PATIENTS, (dataDir) =>
    measure(`PGlite, ${cores} workers`, { DATA_DIR: dataDir }, recorded),
  );
  // What one identity worker costs (each loads its own copy of the models).
  await withPgliteFolder(PATIENTS, (dataDir) =>
    measure('PGlite, 1 worker', { DATA_DIR: dataDir, IDENTITY_POOL_SIZE: '1' }, recorded),
  );
  await withPostgres(PATIENTS, (url) =>
    measure(`PostgreSQL, ${cores} workers`, { DATABASE_URL: url }, recorded),
  );
}

runIfMain(import.meta.url, main);
