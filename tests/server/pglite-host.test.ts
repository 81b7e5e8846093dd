import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCliDatabase } from '../../server/cli/db';
import { openDb, type Db } from '../../server/db/client';
import { DatabaseInUseError, lockFileOf } from '../../server/db/pglite-lock';
import { socketPathOf } from '../../server/db/pglite-socket';

/**
 * A folder-backed PGlite is held by one process (lock file), served to operator commands on a Unix
 * socket, and kept private (0700/0600). "Server" here is the holder, opened as the server opens it.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-host-'));
const dataDir = path.join(root, 'data');

function walk(dir: string): { path: string; mode: number; dir: boolean }[] {
  const out: { path: string; mode: number; dir: boolean }[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    out.push({ path: p, mode: st.mode & 0o777, dir: st.isDirectory() });
    if (st.isDirectory()) out.push(...walk(p));
  }
  return out;
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

const privateModes = (entries: ReturnType<typeof walk>) => ({
  dirs: entries.filter((e) => e.dir && e.mode !== 0o700),
  files: entries.filter((e) => !e.dir && e.mode !== 0o600),
});

// One folder for the whole file (creating a PGlite folder takes seconds): opened as the server
// opens it, with umask 0 (the worst case), then closed and reopened after a simulated crash.
// PGlite only: skipped in the PostgreSQL pass of the server tier.
describe.skipIf(process.env.TEST_DATABASE_URL)(
  'a PGlite folder held by one process, served on a socket, private',
  () => {
    let server: Db;
    let previousUmask: number;
    beforeAll(async () => {
      previousUmask = process.umask(0);
      server = await openDb({ dataDir });
    }, 180_000);
    afterAll(async () => {
      process.umask(previousUmask);
      await server?.close();
    });

    let cli: Awaited<ReturnType<typeof openCliDatabase>> | undefined;
    afterEach(async () => {
      await cli?.close();
      cli = undefined;
    });

    it('folders 0700, files 0600 and the socket 0600, whatever the umask', async () => {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const entries = walk(dataDir).filter((e) => !e.path.endsWith('.s.PGSQL.5432'));
      expect(entries.length).toBeGreaterThan(100);
      expect(privateModes(entries)).toEqual({ dirs: [], files: [] });
      expect(statSync(socketPathOf(dataDir)).mode & 0o777).toBe(0o600);
    });

    it('refuses a second opener with a clear message and writes nothing', async () => {
      const before = walk(dataDir).map((e) => e.path);
      const err = await openDb({ dataDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseInUseError);
      expect((err as Error).message).toContain(`in use by process ${process.pid}`);
      expect(walk(dataDir).map((e) => e.path)).toEqual(before);
    });

    it('an operator command writes through the socket and the server sees it at once', async () => {
      cli = await openCliDatabase({ dataDir, databaseUrl: undefined });
      expect(cli.via).toBe('pglite-server');
      await cli.query(
        `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ('5550001', 'A', 'B', 'x')`,
      );
      const { rows } = await server.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM patients WHERE numero_documento = '5550001'`,
      );
      expect(rows[0]!.n).toBe(1);
    });

    it("a command's statement waits for the server's open transaction", async () => {
      cli = await openCliDatabase({ dataDir, databaseUrl: undefined });
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let begun!: () => void;
      const inside = new Promise<void>((r) => (begun = r));
      const serverTx = server.transaction(async (tx) => {
        await tx.query('SELECT 1');
        order.push('server-begin');
        begun();
        await gate;
        order.push('server-commit');
      });
      await inside;
      const cliQuery = cli.query('SELECT 1').then(() => order.push('cli'));
      await new Promise((r) => setTimeout(r, 200));
      expect(order).toEqual(['server-begin']);
      release();
      await Promise.all([serverTx, cliQuery]);
      expect(order).toEqual(['server-begin', 'server-commit', 'cli']);
    });

    it("a command's open transaction holds the server off; its disconnect rolls it back", async () => {
      const client = new pg.Client({ host: path.resolve(dataDir), user: 'postgres' });
      await client.connect();
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ('5550002', 'A', 'B', 'x')`,
      );
      let seen: number | undefined;
      const serverRead = server
        .query<{ n: number }>(
          `SELECT count(*)::int AS n FROM patients WHERE numero_documento = '5550002'`,
        )
        .then((r) => (seen = r.rows[0]!.n));
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toBeUndefined(); // never inside the command's uncommitted transaction
      await client.end(); // gone without COMMIT
      await serverRead;
      expect(seen).toBe(0);
    });

    it("after close: still private; a crashed holder's lock is taken over; the data is there", async () => {
      await server.close();
      expect(privateModes(walk(dataDir))).toEqual({ dirs: [], files: [] });
      // A crashed holder: its pid no longer exists (Linux pids stay below 2^22).
      writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: 2 ** 22 + 7 }), { mode: 0o600 });
      server = await openDb({ dataDir });
      const { rows } = await server.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM patients WHERE numero_documento = '5550001'`,
      );
      expect(rows[0]!.n).toBe(1);
    }, 120_000);
  },
);
