/**
 * Login throughput of one real server process (server/main.ts over HTTP), on PGlite (a data folder)
 * and on PostgreSQL: successful logins (Argon2id verify + a session row) from concurrent clients for
 * a fixed time. Prints logins/s and logins per CPU-second of the server process (its user+system
 * time from /proc), the honest per-core figure on a shared machine.
 *
 *   npx tsx bench/login-throughput.ts
 * PostgreSQL: BENCH_DATABASE_URL (or TEST_DATABASE_URL); otherwise a throwaway cluster from
 * scripts/pg-test-cluster.sh when Debian's postgresql is installed; otherwise PGlite only.
 * BENCH_LOGIN_SECONDS (10), BENCH_LOGIN_CLIENTS (8).
 */
import os from 'node:os';
import {
  benchLogin,
  cpuSeconds,
  runIfMain,
  startApiProcess,
  withPgliteFolder,
  withPostgres,
} from './_process';

const SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_LOGIN_CLIENTS ?? 8);
const PATIENTS = CLIENTS * 2;

async function measure(label: string, env: Record<string, string>) {
  const server = await startApiProcess(env);
  const login = (i: number) => benchLogin(server.url, i, PATIENTS);
  for (let i = 0; i < CLIENTS; i++) await login(i); // warm-up
  const cpu0 = cpuSeconds(server.pid);
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; performance.now() < end; i += CLIENTS) {
        await login(i);
        done++;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(server.pid) - cpu0;
  await server.stop();
  const line =
    `  ${label.padEnd(10)} ${(done / wall).toFixed(1)} logins/s with ${CLIENTS} clients, ` +
    `${(done / cpu).toFixed(1)} logins per CPU-second of the server (${cpu.toFixed(1)} CPU-s in ${wall.toFixed(1)} s)`;
  console.log(line);
}

export async function main(): Promise<void> {
  console.log(
    `login-throughput: one server process, ${SECONDS} s of right-PIN logins, Argon2id 19 MiB t=2 p=1, ${os.cpus().length} cores on the machine, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  await withPgliteFolder(PATIENTS, (dataDir) => measure('PGlite', { DATA_DIR: dataDir }));
  await withPostgres(PATIENTS, (url) => measure('PostgreSQL', { DATABASE_URL: url }));
}

runIfMain(import.meta.url, main);
