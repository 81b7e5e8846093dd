import { readdir, readFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export type Row = Record<string, unknown>;
export type Db = {
  query<T = Row>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs fn inside one transaction; tx is a Db bound to it. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
};

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

export type DbOptions = {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  memory?: boolean;
};

export async function openDb(options: DbOptions): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(
        options.memory ? undefined : path.join(options.dataDir ?? '.data', 'pglite'),
      );
  await migrate(db);
  return db;
}

async function openPglite(dir: string | undefined): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (dir) await mkdir(dir, { recursive: true });
  const pg = dir ? new PGlite(dir) : new PGlite();
  await pg.waitReady;
  // PGlite has one connection: transactions are serialised by PGlite itself.
  const wrap = (q: Pick<typeof pg, 'query'>): Omit<Db, 'transaction' | 'close'> => ({
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await q.query<T>(sql, params);
      return { rows: r.rows };
    },
  });
  const db: Db = {
    ...wrap(pg),
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      return pg.transaction(async (tx) => {
        const txDb: Db = { ...wrap(tx), transaction: (f) => f(txDb), close: async () => {} };
        return fn(txDb);
      });
    },
    async close() {
      await pg.close();
    },
  };
  return db;
}

async function openPostgres(url: string): Promise<Db> {
  const pgModule = await import('pg');
  const pool = new pgModule.default.Pool({ connectionString: url, max: 10 });
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

/** Applies every migrations/*.sql not yet applied, in file-name order, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
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
    await db.transaction(async (tx) => {
      // Serialise concurrent starters on PostgreSQL; PGlite has one connection anyway.
      if (tx.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(424242)');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file]);
      if (again.rows.length) return;
      for (const statement of splitSql(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
    applied.push(file);
  }
  return applied;
}

function splitSql(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
