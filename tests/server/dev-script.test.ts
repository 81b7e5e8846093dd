import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/dev.ts (issue 20, item 12): it refuses to start while the embedded database is in use
// (`npm start` holds it), and SIGTERM stops every process it started, grandchildren included.

const dirs: string[] = [];
const others: ChildProcess[] = [];
afterEach(() => {
  for (const p of others.splice(0)) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dev-script-'));
  dirs.push(dir);
  return dir;
}

function runDev(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A stand-in for tsx watch or Vite: starts a grandchild, writes both pids, runs until stopped. */
const standIn = (file: string) => ({
  name: path.basename(file),
  cmd: process.execPath,
  args: [
    '-e',
    `const g = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
     require('fs').writeFileSync(${JSON.stringify(file)}, process.pid + ' ' + g.pid);
     setInterval(() => {}, 1000);`,
  ],
});

describe('npm run dev (scripts/dev.ts)', () => {
  it('refuses clearly, starting nothing, while another process holds the embedded database', async () => {
    const dataDir = tmp();
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    others.push(holder);
    writeFileSync(path.join(dataDir, 'pglite.lock'), JSON.stringify({ pid: holder.pid }));
    const marker = path.join(dataDir, 'started');
    const dev = runDev({ DATA_DIR: dataDir, DEV_COMMANDS: JSON.stringify([standIn(marker)]) });
    expect(await dev.exited).toBe(1);
    expect(dev.stderr()).toContain(`is in use by process ${holder.pid}`);
    expect(dev.stderr()).toContain('npm start');
    expect(dev.stderr()).toContain('Nothing was started.');
    expect(existsSync(marker)).toBe(false);
  });

  it('SIGTERM stops every process it started, the children of its children too', async () => {
    const dir = tmp();
    const files = [path.join(dir, 'api'), path.join(dir, 'web')];
    const dev = runDev({ DATA_DIR: dir, DEV_COMMANDS: JSON.stringify(files.map(standIn)) });
    await until(() => files.every((f) => existsSync(f) && readFileSync(f, 'utf8').includes(' ')));
    const pids = files.flatMap((f) => readFileSync(f, 'utf8').split(' ').map(Number));
    expect(pids.every(alive)).toBe(true);
    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
    await until(() => !pids.some(alive), 10_000);
  });

  it('one SIGTERM reaches the server once: tsx watch relays it, so it is not sent to its group too (issue 43 item 11)', async () => {
    const dir = tmp();
    const log = path.join(dir, 'signals');
    const ready = path.join(dir, 'ready');
    // Like tsx watch: the server is its child in its process group, and it relays a SIGTERM to
    // it and exits when it has. The server writes each signal it gets and stops a moment later.
    const server = `const fs = require('fs');
      process.on('SIGTERM', () => { fs.appendFileSync(${JSON.stringify(log)}, 'SIGTERM\\n'); setTimeout(() => process.exit(0), 300); });
      fs.writeFileSync(${JSON.stringify(ready)}, String(process.pid));
      setInterval(() => {}, 1000);`;
    const tsxWatch = {
      name: 'api',
      cmd: process.execPath,
      args: [
        '-e',
        `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(server)}], { stdio: 'inherit' });
         process.on('SIGTERM', () => { c.kill('SIGTERM'); c.on('exit', () => process.exit(0)); });
         setInterval(() => {}, 1000);`,
      ],
    };
    const dev = runDev({ DATA_DIR: dir, DEV_COMMANDS: JSON.stringify([tsxWatch]) });
    await until(() => existsSync(ready) && readFileSync(ready, 'utf8').length > 0);
    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('SIGTERM\n');
  });

  it('when one of its processes stops, it stops the other', async () => {
    const dir = tmp();
    const files = [path.join(dir, 'api'), path.join(dir, 'web')];
    const dev = runDev({ DATA_DIR: dir, DEV_COMMANDS: JSON.stringify(files.map(standIn)) });
    await until(() => files.every((f) => existsSync(f) && readFileSync(f, 'utf8').includes(' ')));
    const pids = files.flatMap((f) => readFileSync(f, 'utf8').split(' ').map(Number));
    process.kill(pids[0]!, 'SIGKILL');
    await dev.exited;
    expect(dev.stderr()).toContain('stopping the rest');
    await until(() => !pids.slice(2).some(alive), 10_000);
  });
});
