import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLiveFace, releaseLiveFace } from '../../e2e/support/live-face';

// The e2e's live-face lock (e2e/support/live-face.ts): the one-at-a-time journeys' two workers
// never run two live faces at once, and a worker that died holding it does not stop the other.
let dir: string;
const lock = () => path.join(dir, 'live-face.lock');
const holder = () => Number(readFileSync(path.join(lock(), 'pid'), 'utf8'));

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'live-face-'));
  process.env.E2E_DATA_DIR = dir;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.E2E_DATA_DIR;
});

describe('the live-face lock', () => {
  it('is this process while held, re-entrant, and gone after the last release', async () => {
    expect(await acquireLiveFace()).toBe(true);
    expect(holder()).toBe(process.pid);
    expect(await acquireLiveFace()).toBe(true);
    releaseLiveFace();
    expect(existsSync(lock())).toBe(true);
    releaseLiveFace();
    expect(existsSync(lock())).toBe(false);
  });

  it('waits while another live process holds it, and gives up when the asker is gone', async () => {
    mkdirSync(lock());
    writeFileSync(path.join(lock(), 'pid'), String(process.ppid));
    let asked = 0;
    // The page that asked closes after a few polls: nothing is held, the other's lock stands.
    expect(await acquireLiveFace(() => ++asked > 3)).toBe(false);
    expect(asked).toBe(4);
    expect(holder()).toBe(process.ppid);
    releaseLiveFace();
    expect(holder()).toBe(process.ppid);
  });

  it('takes a lock whose maker died before writing its pid, after a second', async () => {
    mkdirSync(lock());
    const started = Date.now();
    expect(await acquireLiveFace()).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(holder()).toBe(process.pid);
    releaseLiveFace();
  });

  it('lets a second task of this worker join while the first waits no more', async () => {
    mkdirSync(lock());
    writeFileSync(path.join(lock(), 'pid'), String(process.ppid));
    const first = acquireLiveFace();
    const second = acquireLiveFace();
    rmSync(lock(), { recursive: true });
    expect(await Promise.all([first, second])).toEqual([true, true]);
    releaseLiveFace();
    expect(holder()).toBe(process.pid);
    releaseLiveFace();
    expect(existsSync(lock())).toBe(false);
  });

  it('takes the lock of a process that died holding it', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    mkdirSync(lock());
    writeFileSync(path.join(lock(), 'pid'), dead.stdout);
    expect(await acquireLiveFace(() => false)).toBe(true);
    expect(holder()).toBe(process.pid);
    releaseLiveFace();
  });
});
