import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import {
  acquireDataDirLock,
  DatabaseInUseError,
  restrictTree,
  type DataDirLock,
} from './pglite-lock';
import {
  serveWire,
  socketAnswers,
  socketPathOf,
  type WireOptions,
  type WireServer,
} from './pglite-socket';

/** A unique constraint refused a row (PostgreSQL and PGlite alike: SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: string } | null)?.code === '23505';

type Row = Record<string, unknown>;
export type Db = {
  query<T = Row>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs fn inside one transaction; tx is a Db bound to it. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
};

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

type DbOptions = {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  memory?: boolean;
  /**
   * In memory only: start from this image of a PGlite database (`pgliteImage()`) instead of an
   * empty one. Migrations still run (those the image already has are skipped).
   */
  image?: Blob | undefined;
  /** The operator commands' socket (PGlite in a folder): transaction cap and other limits. */
  socket?: WireOptions;
};

/**
 * PostgreSQL when `databaseUrl` is set; otherwise PGlite, in memory or in `<dataDir>/pglite`.
 * A folder-backed PGlite is held by this process alone (lock file `<dataDir>/pglite.lock`, or
 * DatabaseInUseError; a process answering on the socket holds it too, even when its lock file was
 * deleted) and served to the operator commands on `<dataDir>/.s.PGSQL.5432`; the holder writes a
 * deleted lock file or socket again within a second. The folder is 0700 and its files 0600.
 */
export async function openDb(options: DbOptions): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(
        options.memory ? undefined : (options.dataDir ?? '.data'),
        options.socket,
        options.memory ? options.image : undefined,
      );
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {}); // a database that cannot start is not left open
    throw err;
  }
  return db;
}

/**
 * A migrated, empty in-memory PGlite database as an image (a tar of its folder) for
 * `openDb({ memory: true, image })`: opening one skips PostgreSQL's initdb and the migrations,
 * about a fifth of the time of a fresh one (the server tests open one per file).
 */
export async function pgliteImage(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite();
  try {
    await migrate(pgliteDb(pg, () => pg.close()));
    return await pg.dumpDataDir('none');
  } finally {
    await pg.close();
  }
}

async function openPglite(
  dataDir: string | undefined,
  socket: WireOptions = {},
  image?: Blob,
): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let lock: DataDirLock | null = null;
  let wire: WireServer | null = null;
  let watch: NodeJS.Timeout | null = null;
  const dir = dataDir ? path.join(dataDir, 'pglite') : undefined;
  if (dataDir) {
    lock = await acquireDataDirLock(dataDir);
    // Someone answering on the socket holds the folder, lock file or not (it may have been deleted).
    if (await socketAnswers(socketPathOf(dataDir))) {
      await lock.release();
      throw new DatabaseInUseError(dataDir, null);
    }
  }
  let pg: PgliteInstance;
  try {
    pg = dir ? new PGlite(dir) : new PGlite(image ? { loadDataDir: image } : {});
    await pg.waitReady;
    if (dataDir && dir) {
      await restrictTree(dir);
      wire = await serveWire(pg, socketPathOf(dataDir), socket);
      // A deleted lock file is written again (the socket watches its own file).
      const held = lock!;
      watch = setInterval(() => void held.ensure().catch(() => {}), socket.watchMs || 1000);
      watch.unref();
    }
  } catch (err) {
    await lock?.release();
    throw err;
  }
  return pgliteDb(pg, async () => {
    try {
      if (watch) clearInterval(watch);
      await wire?.close();
      if (!pg.closed) await pg.close();
      if (dir) await restrictTree(dir);
    } finally {
      await lock?.release();
    }
  });
}

type PgliteInstance = InstanceType<(typeof import('@electric-sql/pglite'))['PGlite']>;

/** A PGlite as a Db. PGlite has one connection: transactions are serialised by PGlite itself. */
function pgliteDb(pg: PgliteInstance, close: () => Promise<void>): Db {
  const wrap = (q: Pick<PgliteInstance, 'query'>): Omit<Db, 'transaction' | 'close'> => ({
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await q.query<T>(sql, params);
      return { rows: r.rows };
    },
  });
  return {
    ...wrap(pg),
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      return pg.transaction(async (tx) => {
        const txDb: Db = { ...wrap(tx), transaction: (f) => f(txDb), close: async () => {} };
        return fn(txDb);
      });
    },
    close,
  };
}

/** A pool on PostgreSQL (or on a PGlite served by another process); no migrations applied. */
export async function openPostgres(url: string, max = 10): Promise<Db> {
  const pgModule = await import('pg');
  const pool = new pgModule.default.Pool({ connectionString: url, max });
  const wrapClient = (c: {
    query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;
  }) => ({
    kind: 'postgres' as const,
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await c.query(sql, params);
      return { rows: r.rows as T[] };
    },
  });
  const db: Db = {
    ...wrapClient(pool),
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Db = { ...wrapClient(client), transaction: (f) => f(tx), close: async () => {} };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}

/**
 * Applies every migrations/*.sql not yet applied, in file-name order, each in its own transaction.
 * A role that owns nothing (the application's on PostgreSQL, docs/production.md#database-roles)
 * starts when nothing is pending, and stops with a message naming the command when something is.
 */
async function migrate(db: Db): Promise<string[]> {
  // Not CREATE TABLE IF NOT EXISTS alone: PostgreSQL checks the schema's CREATE privilege first.
  const table = await db.query<{ t: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS t",
  );
  if (!table.rows[0]?.t)
    await db.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  const done = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
      (r) => r.name,
    ),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    await db
      .transaction(async (tx) => {
        // Serialise concurrent starters on PostgreSQL; PGlite has one connection anyway.
        if (tx.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(424242)');
        const again = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file]);
        if (again.rows.length) return;
        for (const statement of splitSql(sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      })
      .catch((err: unknown) => {
        // 42501 insufficient_privilege: the application's role, which owns nothing.
        if ((err as { code?: string } | null)?.code !== '42501') throw err;
        throw new Error(
          `Migration ${file} is not applied and this database role may not apply it: run ` +
            '`npm run database -- migrate --app-role <this role>` as the role that owns the tables ' +
            '(docs/production.md#database-roles).',
          { cause: err },
        );
      });
    applied.push(file);
  }
  return applied;
}

/** Migration files not yet applied to `db` (empty when its schema is current). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  const done = await db
    .query<{ name: string }>('SELECT name FROM schema_migrations')
    .then((r) => new Set(r.rows.map((row) => row.name)))
    .catch(() => new Set<string>());
  return files.filter((f) => !done.has(f));
}

function splitSql(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
