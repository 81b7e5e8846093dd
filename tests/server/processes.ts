import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestSchema, testSecrets } from './helpers';

/**
 * Real server processes (server/main.ts) and real operator commands for the integration tests:
 * what an operator runs, with the environment they would set.
 */
const TSX = ['--import', 'tsx'];

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** Every log line so far (JSON in the test environment). */
  logs: string[];
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
};

export function baseEnv(env: Record<string, string>): Record<string, string> {
  const { TEST_DATABASE_URL: _unused, ...rest } = process.env as Record<string, string>;
  return {
    ...rest,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    STATIC_DIR: '/nonexistent',
    ...testSecrets,
    ...env,
  };
}

/**
 * Starts server/main.ts (or `command`, e.g. `npm run serve`) and resolves once it logs the URL it
 * listens on.
 */
export function startServer(
  env: Record<string, string>,
  timeoutMs = 120_000,
  command: [string, string[]] = [process.execPath, [...TSX, 'server/main.ts']],
): Promise<ServerProcess> {
  const child = spawn(command[0], command[1], {
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${logs.join('\n')}`));
    }, timeoutMs);
    const onLine = (line: string) => {
      logs.push(line);
      const url = /"url":"(http:[^"]+)"/.exec(line)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          url,
          child,
          logs,
          exited,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    lines(child.stdout!, onLine);
    lines(child.stderr!, onLine);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${logs.join('\n')}`));
    });
  });
}

/**
 * Runs a command to its end: exit code, stdout, stderr. `input` is written to its standard input
 * (a PIN for --pin-stdin); `onSpawn` sees the child as soon as it runs.
 */
export function run(
  args: string[],
  env: Record<string, string>,
  options: { input?: string; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...TSX, ...args], {
    env: baseEnv(env),
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

export type PatientArgs = { documento: string; pin: string; celular: string };

/** The arguments of `patients add` for `p` (the PIN goes to standard input: --pin-stdin). */
export const addPatientArgs = (p: PatientArgs) => [
  'server/cli/patients.ts',
  'add',
  '--documento',
  p.documento,
  '--celular',
  p.celular,
  '--nombre',
  'ANA',
  '--apellido',
  'PRUEBA',
  '--pin-stdin',
];

/** `npm run patients -- add ... --pin-stdin` (the same script, without npm's own start-up). */
export async function addPatient(p: PatientArgs, env: Record<string, string>) {
  const r = await run(addPatientArgs(p), env, { input: `${p.pin}\n` });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code !== 0) throw new Error(`patients add failed (${r.code}): ${r.stderr}`);
  return JSON.parse(last) as { ok: boolean; created: boolean; via: string };
}

export async function login(url: string, documento: string, pin: string) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ numero_documento: documento, pin }),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { status: res.status, cookie };
}

/** Whether the server recognises the session cookie (GET /api/auth/session). */
export async function sessionValid(url: string, cookie: string): Promise<boolean> {
  const res = await fetch(`${url}/api/auth/session`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET /api/auth/session answered ${res.status}`);
  return ((await res.json()) as { authenticated: boolean }).authenticated;
}

/**
 * A fresh schema on TEST_DATABASE_URL for processes to share (their DATABASE_URL), or null
 * without PostgreSQL. `drop()` removes it.
 */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  return base ? createTestSchema(base, 'proc') : null;
}

/**
 * Where a real-process test keeps its data: a temporary PGlite folder (`DATA_DIR`), plus a fresh
 * PostgreSQL schema (`DATABASE_URL`) when `kind` is 'postgres'. `cleanup` kills a server still
 * running, drops the schema and removes the folder.
 */
export async function liveEnvironment(
  kind: string,
  prefix: string,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string>; cleanup(server?: ServerProcess): Promise<void> }> {
  const root = mkdtempSync(path.join(os.tmpdir(), `${prefix}-${kind}-`));
  const env: Record<string, string> = { DATA_DIR: path.join(root, 'data'), ...extra };
  const pg = kind === 'postgres' ? await postgresSchema() : null;
  if (kind === 'postgres' && !pg) throw new Error('postgres asked for without TEST_DATABASE_URL');
  if (pg) env.DATABASE_URL = pg.url;
  return {
    env,
    async cleanup(server) {
      if (server && server.child.exitCode === null) await server.stop('SIGKILL');
      await pg?.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let buf = '';
  stream.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
}
