/**
 * Real API processes for the process benches (login throughput, memory): server/main.ts as
 * `npm run serve` runs it, its CPU time and memory from /proc, seeded patients, and a throwaway
 * PostgreSQL. Not a bench itself (the runner skips files starting with '_').
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDb } from '../server/db/client';
import { upsertPatient } from '../server/patients/service';
import { createPinHasher } from '../server/security/pin';

export const benchSecrets = {
  PIN_PEPPER: 'bench-pepper-bench-pepper-bench-pepper-01',
  OTP_SECRET: 'bench-otp-secret-bench-otp-secret-012345',
  CASES_KEY: 'YmVuY2gtY2FzZXMta2V5LWJlbmNoLWNhc2VzLWtleTA',
};

/** The PIN of every seeded patient; documents are 4000000, 4000001, ... */
export const BENCH_PIN = '739154';
export const benchDocument = (i: number) => String(4_000_000 + i);

/** utime + stime of a process' or a thread's /proc stat file, in clock ticks (100 Hz). */
function statTicks(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU seconds (user + system) a process has used so far. */
export const cpuSeconds = (pid: number): number => statTicks(`/proc/${pid}/stat`) / 100;

/**
 * CPU ticks (user + system, 100 Hz) of each thread of this process now, by thread id and name
 * ('node' for the main thread, the workers, V8's and libuv's threads alike; 'libvips worker' for
 * sharp's). Linux only: empty elsewhere.
 */
export function threadTicks(): Map<string, number> {
  const out = new Map<string, number>();
  const dir = '/proc/self/task';
  if (!existsSync(dir)) return out;
  for (const tid of readdirSync(dir)) {
    try {
      const name = readFileSync(`${dir}/${tid}/comm`, 'utf8').trim();
      out.set(`${tid} ${name}`, statTicks(`${dir}/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** Adds the ticks each thread spent between `before` and now to `into`. */
export function addThreadTicks(into: Map<string, number>, before: Map<string, number>) {
  for (const [thread, ticks] of threadTicks())
    into.set(thread, (into.get(thread) ?? 0) + ticks - (before.get(thread) ?? 0));
}

export type Memory = {
  /** Resident set size now (VmRSS), MiB. */
  rss: number;
  /** Peak resident set size since the process started (VmHWM), MiB. */
  peak: number;
  /** Threads (the main thread, libuv's pool, V8's, the identity workers). */
  threads: number;
};

/** A process's memory from /proc/<pid>/status, or null once it has gone. */
export function memoryOf(pid: number): Memory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: field('VmRSS') / 1024, peak: field('VmHWM') / 1024, threads: field('Threads') };
}

/** Every descendant process of `pid` (tsx's esbuild service, for one). */
export function descendants(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  } catch {
    return [];
  }
  const children = tasks.filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** A right-PIN login of seeded patient `i` (modulo `patients`); throws unless it answers 200. */
export async function benchLogin(url: string, i: number, patients: number): Promise<void> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ numero_documento: benchDocument(i % patients), pin: BENCH_PIN }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
}

/** Patients 0..count-1 (benchDocument(i), BENCH_PIN), hashed with the bench pepper. */
export async function seedPatients(
  where: { dataDir?: string; databaseUrl?: string },
  count: number,
): Promise<void> {
  const db = await openDb(where);
  const pins = await createPinHasher(benchSecrets.PIN_PEPPER);
  for (let i = 0; i < count; i++)
    await upsertPatient(
      { db, pins },
      { numero_documento: benchDocument(i), pin: BENCH_PIN, nombre: 'B', apellido: 'B' },
    );
  await db.close();
}

export type ApiProcess = {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves when a JSON log line with this `event` is printed (or at once if it was). */
  logged(event: string): Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
};

/** server/main.ts on a free port with JSON logs at `info`; resolves once it listens. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: '0',
      STATIC_DIR: '/nonexistent',
      ...benchSecrets,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const events = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  let listening!: (url: string) => void;
  const listened = new Promise<string>((resolve) => (listening = resolve));
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const url = /"url":"(http:[^"]+)"/.exec(line)?.[1];
      if (url) listening(url);
      const event = /"event":"([a-z_]+)"/.exec(line)?.[1];
      if (!event || events.has(event)) continue;
      events.add(event);
      for (const resolve of waiting.get(event) ?? []) resolve();
      waiting.delete(event);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const gone = (what: string) =>
    exited.then((code): never => {
      throw new Error(`server exited (${code}) before ${what}`);
    });
  const logged = (event: string) =>
    events.has(event)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) =>
            waiting.set(event, [...(waiting.get(event) ?? []), resolve]),
          ),
          gone(`logging ${event}`),
        ]);
  const url = await Promise.race([listened, gone('listening')]);
  return {
    url,
    pid: child.pid!,
    child,
    logged,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A throwaway cluster (scripts/pg-test-cluster.sh) kept alive while stdin is open. */
export async function throwawayPostgres(): Promise<{ url: string; stop(): Promise<void> } | null> {
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

/** BENCH_DATABASE_URL / TEST_DATABASE_URL, else a throwaway cluster, else null (PGlite only). */
export async function benchPostgres(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  return throwawayPostgres();
}

/** Runs `fn` with a fresh PGlite data folder holding `patients` seeded patients; removes it after. */
export async function withPgliteFolder(
  patients: number,
  fn: (dataDir: string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-process-'));
  try {
    const dataDir = path.join(dir, 'data');
    await seedPatients({ dataDir }, patients);
    await fn(dataDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `fn` with a PostgreSQL URL holding `patients` seeded patients, or says why it cannot. */
export async function withPostgres(
  patients: number,
  fn: (databaseUrl: string) => Promise<void>,
): Promise<void> {
  const postgres = await benchPostgres();
  if (!postgres) {
    console.log('  PostgreSQL skipped: set BENCH_DATABASE_URL or install postgresql');
    return;
  }
  try {
    await seedPatients({ databaseUrl: postgres.url }, patients);
    await fn(postgres.url);
  } finally {
    await postgres.stop();
  }
}

/** Runs `main` when the file is the one node was started with (not when bench/run.ts imports it). */
export function runIfMain(url: string, main: () => Promise<void>): void {
  if (url !== pathToFileURL(process.argv[1] ?? '').href) return;
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
