import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, readdir, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * One process at a time opens a PGlite folder (two would each keep their own copy in memory and
 * overwrite each other's writes). The holder writes `<dataDir>/pglite.lock` with its pid, created
 * atomically (O_EXCL); a lock whose pid is gone (a crash) is taken over. The lock file is not the
 * only sign of a holder: one that answers on the folder's socket holds it too, lock file or not
 * (server/db/client.ts), and a holder writes its lock file again when it is deleted (`ensure`).
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    /** The holder's pid, or null when only its socket answered (its lock file was deleted). */
    readonly pid: number | null,
  ) {
    super(
      `The embedded database in ${path.resolve(dataDir)} is in use by ${pid === null ? 'a running process (it answers on the socket; its lock file is missing)' : `process ${pid}`} ` +
        `(a running server or operator command). Stop it first, or point DATA_DIR elsewhere. Nothing was written.`,
    );
  }
}

export type DataDirLock = {
  readonly file: string;
  /**
   * Writes the lock file again if it was deleted: 'held' (it is there), 'restored' (written again),
   * 'taken' (another process wrote its own meanwhile; left alone).
   */
  ensure(): Promise<'held' | 'restored' | 'taken'>;
  release(): Promise<void>;
};

export const lockFileOf = (dataDir: string) => path.join(dataDir, 'pglite.lock');

/** Locks this process holds (by body): the same pid in a lock file after a restart is not us. */
const held = new Set<string>();

function alive(pid: number, body?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return body !== undefined && held.has(body);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding the folder, or null when nobody (or a dead process) does. */
export async function lockHolder(dataDir: string): Promise<number | null> {
  const text = await readFile(lockFileOf(dataDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const pid = Number((JSON.parse(text) as { pid?: unknown }).pid);
    return alive(pid, text) ? pid : null;
  } catch {
    return null;
  }
}

/** The data folder with mode 0700, created when missing. */
async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * Takes the folder's lock or throws DatabaseInUseError. Creates the data folder (0700) if needed;
 * writes nothing else when refused.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await ensurePrivateDir(dataDir);
  const file = lockFileOf(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      const body = JSON.stringify({
        pid: process.pid,
        host: os.hostname(),
        since: Date.now(),
        token: randomBytes(6).toString('hex'),
      });
      held.add(body);
      await handle.writeFile(body);
      await handle.close();
      let released = false;
      return {
        file,
        async ensure() {
          const now = await readFile(file, 'utf8').catch(() => null);
          if (now === body) return 'held';
          if (now !== null || released) return 'taken';
          try {
            const again = await open(file, 'wx', 0o600);
            await again.writeFile(body);
            await again.close();
            return 'restored';
          } catch {
            return 'taken';
          }
        },
        async release() {
          if (released) return;
          released = true;
          held.delete(body);
          const now = await readFile(file, 'utf8').catch(() => '');
          if (now === body) await unlink(file).catch(() => {});
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) continue; // released meanwhile: try again
    let pid = NaN;
    try {
      pid = Number((JSON.parse(text) as { pid?: unknown }).pid);
    } catch {
      // A half-written lock: its writer is between open and write. Give it a moment.
      const age = Date.now() - (await stat(file).catch(() => ({ mtimeMs: 0 }))).mtimeMs;
      if (age < 2000) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
    }
    if (alive(pid, text)) throw new DatabaseInUseError(dataDir, pid);
    // Stale (its process is gone): remove it only if it is still the same lock, then retry.
    const again = await readFile(file, 'utf8').catch(() => null);
    if (again === text) await unlink(file).catch(() => {});
  }
  throw new DatabaseInUseError(dataDir, await lockHolder(dataDir));
}

/** Folders 0700, files 0600 under `dir` (PGlite's initial files are created 0666). */
export async function restrictTree(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await restrictTree(p);
    else if (entry.isFile()) await chmod(p, 0o600).catch(() => {});
  }
}
