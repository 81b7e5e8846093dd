import path from 'node:path';
import type { Config } from '../config';
import { openDb, openPostgres, pendingMigrations, type Db } from '../db/client';
import { DatabaseInUseError } from '../db/pglite-lock';
import { socketAnswers, socketPathOf, WIRE_PORT } from '../db/pglite-socket';

/** How an operator command reached the database. */
type CliDbRoute = 'postgres' | 'pglite-files' | 'pglite-server';
type CliDatabase = Db & { readonly via: CliDbRoute };

class CliDatabaseError extends Error {}

/**
 * The database for an operator command (`patients`, `kiosk`, ...), safe while the server runs:
 * - `DATABASE_URL`: PostgreSQL, shared with any number of servers;
 * - PGlite, folder free: the command opens the files itself (and holds the folder's lock, serving
 *   it on the socket, until `close()`);
 * - PGlite held by a running server (or another command): the command connects through that
 *   process's socket `<DATA_DIR>/.s.PGSQL.5432`, so what it writes is the server's data at once.
 * Never two processes on one PGlite folder. Close it when done.
 */
export async function openCliDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> &
    Partial<Pick<Config, 'pgliteSocketTransactionMs'>>,
  options: { waitMs?: number } = {},
): Promise<CliDatabase> {
  if (config.databaseUrl) {
    const db = await openDb({ databaseUrl: config.databaseUrl });
    return Object.assign(db, { via: 'postgres' as const });
  }
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    try {
      const db = await openDb({
        dataDir: config.dataDir,
        socket: { transactionMs: config.pgliteSocketTransactionMs },
      });
      return Object.assign(db, { via: 'pglite-files' as const });
    } catch (err) {
      if (!(err instanceof DatabaseInUseError)) throw err;
      const served = await throughSocket(config.dataDir);
      if (served) return served;
      // The holder is starting (its socket is not up yet), finishing, or binding its deleted
      // socket again (within a second): wait.
      if (Date.now() > deadline)
        throw new CliDatabaseError(
          `${err.message} It does not answer on ${socketPathOf(config.dataDir)}.`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Through the holder's socket, when a process answers on it (whatever its lock file says). */
async function throughSocket(dataDir: string): Promise<CliDatabase | null> {
  if (!(await socketAnswers(socketPathOf(dataDir)))) return null;
  const url = `postgres://postgres@localhost:${WIRE_PORT}/postgres?host=${encodeURIComponent(path.resolve(dataDir))}`;
  const db = await openPostgres(url, 2);
  try {
    const pending = await pendingMigrations(db);
    if (pending.length)
      throw new CliDatabaseError(
        `The running server has not applied ${pending.join(', ')}: restart it with this version first. Nothing was written.`,
      );
  } catch (err) {
    await db.close();
    if (err instanceof CliDatabaseError) throw err;
    return null; // the socket is not answering (yet)
  }
  return Object.assign(db, { via: 'pglite-server' as const });
}
