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
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDb } from '../server/db/client';
import { upsertPatient } from '../server/patients/service';
import { createPinHasher } from '../server/security/pin';

const SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_LOGIN_CLIENTS ?? 8);
const PATIENTS = CLIENTS * 2;
const PIN = '739154';
const secrets = {
  PIN_PEPPER: 'bench-pepper-bench-pepper-bench-pepper-01',
  OTP_SECRET: 'bench-otp-secret-bench-otp-secret-012345',
};

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

async function seed(where: { dataDir?: string; databaseUrl?: string }) {
  const db = await openDb(where);
  const pins = await createPinHasher(secrets.PIN_PEPPER);
  for (let i = 0; i < PATIENTS; i++)
    await upsertPatient(
      { db, pins },
      { numero_documento: String(4_000_000 + i), pin: PIN, nombre: 'B', apellido: 'B' },
    );
  await db.close();
}

async function measure(label: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: '0',
      STATIC_DIR: '/nonexistent',
      ...secrets,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /"url":"(http:[^"]+)"/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  child.stdout.resume();
  const login = async (i: number) => {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numero_documento: String(4_000_000 + (i % PATIENTS)), pin: PIN }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  };
  for (let i = 0; i < CLIENTS; i++) await login(i); // warm-up
  const cpu0 = cpuSeconds(child.pid!);
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
  const cpu = cpuSeconds(child.pid!) - cpu0;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const line =
    `  ${label.padEnd(10)} ${(done / wall).toFixed(1)} logins/s with ${CLIENTS} clients, ` +
    `${(done / cpu).toFixed(1)} logins per CPU-second of the server (${cpu.toFixed(1)} CPU-s in ${wall.toFixed(1)} s)`;
  console.log(line);
}

/** A throwaway cluster (scripts/pg-test-cluster.sh) kept alive while stdin is open. */
async function throwawayPostgres(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const child = spawn(
    'bash',
    ['-c', 'source scripts/pg-test-cluster.sh >&2 || exit 1; echo "$TEST_DATABASE_URL"; read _'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string | null>((resolve) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', () => resolve(null));
  });
  if (!url) return null;
  return {
    url,
    async stop() {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function main(): Promise<void> {
  console.log(
    `login-throughput: one server process, ${SECONDS} s of right-PIN logins, Argon2id 19 MiB t=2 p=1, ${os.cpus().length} cores on the machine`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-login-'));
  try {
    const dataDir = path.join(dir, 'data');
    await seed({ dataDir });
    await measure('PGlite', { DATA_DIR: dataDir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const cluster = given ? null : await throwawayPostgres();
  const url = given ?? cluster?.url;
  if (!url) {
    console.log('  PostgreSQL skipped: set BENCH_DATABASE_URL or install postgresql');
    return;
  }
  try {
    await seed({ databaseUrl: url });
    await measure('PostgreSQL', { DATABASE_URL: url });
  } finally {
    await cluster?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
