import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCliDatabase } from '../../server/cli/db';
import { openDb, type Db } from '../../server/db/client';
import { DatabaseInUseError, lockFileOf } from '../../server/db/pglite-lock';
import { socketPathOf } from '../../server/db/pglite-socket';

/**
 * Files of a running PGlite holder deleted by hand (issue 21, item 9): without its lock file the
 * holder is still found by its socket (a command goes through it, a second opener is refused) and
 * writes the lock again; without its socket file it binds the socket again, so commands do not
 * wait for a restart. PGlite only.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-deleted-'));
const dataDir = path.join(root, 'data');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const waitFor = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe.skipIf(process.env.TEST_DATABASE_URL)('deleting a running holder’s files', () => {
  let server: Db;
  beforeAll(async () => {
    server = await openDb({ dataDir });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  let cli: Awaited<ReturnType<typeof openCliDatabase>> | undefined;
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
  });

  it('after `rm pglite.lock` a command still goes through the socket, a second opener is refused, and the lock comes back', async () => {
    const lock = lockFileOf(dataDir);
    const body = readFileSync(lock, 'utf8');
    unlinkSync(lock);
    const second = await openDb({ dataDir }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(DatabaseInUseError);
    cli = await openCliDatabase({ dataDir, databaseUrl: undefined }, { waitMs: 5000 });
    expect(cli.via).toBe('pglite-server');
    await cli.query(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ('5551001', 'A', 'B', 'x')`,
    );
    const { rows } = await server.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM patients WHERE numero_documento = '5551001'`,
    );
    expect(rows[0]!.n).toBe(1);
    // Created empty (O_EXCL), then written: wait for the holder's own body, not the file alone (read
    // between the two, it was '' once in CI with two test files at a time).
    const written = () => existsSync(lock) && readFileSync(lock, 'utf8') === body;
    expect(await waitFor(written, 3000)).toBe(true);
  });

  it('after `rm` of the socket the holder binds it again and a command gets through in seconds', async () => {
    unlinkSync(socketPathOf(dataDir));
    const t0 = Date.now();
    cli = await openCliDatabase({ dataDir, databaseUrl: undefined }, { waitMs: 5000 });
    expect(cli.via).toBe('pglite-server');
    expect(Date.now() - t0).toBeLessThan(5000);
    const { rows } = await cli.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM patients WHERE numero_documento = '5551001'`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});
