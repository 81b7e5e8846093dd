/** The real server serving dist/, for the browser benches (not a bench: the runner skips '_' files). */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('the server exited before answering');
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
}

/** Fails early with the command to run when there is no build. */
export function requireBuild(): void {
  if (!existsSync(path.join(root, 'dist', 'index.html')))
    throw new Error(
      'dist/index.html is missing: run `npm run build` first (this bench builds nothing).',
    );
}

/**
 * server/main.ts on a free port with a throwaway data folder, serving dist/; of this checkout, or of
 * `checkout` (another checkout built with its own `npm run build`, for a side-by-side comparison).
 */
export async function startServer(
  name: string,
  checkout: string = root,
): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['server/main.ts'], {
    cwd: checkout,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      DEMO_PATIENT: 'false',
      LOG_LEVEL: 'warn',
      STATIC_DIR: 'dist',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(`${baseURL}/api/auth/session`, child, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, stop };
}
