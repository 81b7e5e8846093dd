import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWire, type WireServer } from '../../server/db/pglite-socket';

/**
 * The PGlite socket (server/db/pglite-socket.ts) against clients that misbehave (issue 21, items 2
 * and 8): malformed message lengths close that connection and nothing else; a client's
 * transaction may hold the database for a bounded time only, however chatty it stays.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'wire-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A pg query on the socket, or 'timeout' when nothing answers within `ms`. */
async function answers(socketPath: string, ms: number): Promise<unknown> {
  const client = new pg.Client({
    host: path.dirname(socketPath),
    user: 'postgres',
    connectionTimeoutMillis: ms,
  });
  const attempt = (async () => {
    await client.connect();
    const { rows } = await client.query<{ n: number }>('SELECT 41 + 1 AS n');
    return rows[0]!.n;
  })();
  const timer = new Promise((r) => setTimeout(() => r('timeout'), ms));
  const result = await Promise.race([attempt.catch((e: Error) => `error: ${e.message}`), timer]);
  void client.end().catch(() => {});
  return result;
}

/** Writes raw bytes and resolves how the server ended the connection ('closed') or 'open'. */
function sendRaw(socketPath: string, chunks: Buffer[], waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('open');
    }, waitMs);
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
  });
}

/** A start-up packet for user postgres (protocol 3.0). */
function startup(): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0', 'utf8');
  const head = Buffer.alloc(8);
  head.writeInt32BE(body.length + 8, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, body]);
}

describe.skipIf(process.env.TEST_DATABASE_URL)(
  'malformed lengths on the socket (a separate process holds the database)',
  () => {
    let child: ChildProcess;
    const socketPath = path.join(root, 'a', '.s.PGSQL.5432');

    beforeAll(async () => {
      rmSync(path.dirname(socketPath), { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(socketPath)));
      child = spawn(
        process.execPath,
        ['--import', 'tsx', 'tests/server/wire-child.ts', socketPath],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.once('exit', (code) => reject(new Error(`wire child exited ${code}`)));
      });
    }, 60_000);
    afterAll(() => {
      child?.kill('SIGKILL');
    });

    it('a start-up packet of length 0 closes that connection; the server keeps answering', async () => {
      const raw = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x04, 0xd2, 0x16, 0x2f]);
      expect(await sendRaw(socketPath, [raw], 2000)).toBe('closed');
      expect(await answers(socketPath, 3000)).toBe(42);
    });

    it('start-up lengths below 8 or beyond the start-up limit close the connection', async () => {
      for (const len of [-1, 4, 7, 1 << 20]) {
        const raw = Buffer.alloc(8);
        raw.writeInt32BE(len, 0);
        raw.writeInt32BE(196608, 4);
        expect(await sendRaw(socketPath, [raw], 2000), String(len)).toBe('closed');
      }
      expect(await answers(socketPath, 3000)).toBe(42);
    });

    it('a message of length -1 (or below 4) after the start-up closes that connection', async () => {
      for (const len of [-1, 0, 3, -2147483648]) {
        const msg = Buffer.alloc(5);
        msg.write('Q', 0, 'ascii');
        msg.writeInt32BE(len, 1);
        expect(await sendRaw(socketPath, [startup(), msg], 2000), String(len)).toBe('closed');
        expect(await answers(socketPath, 3000)).toBe(42);
      }
    });

    it('a message announcing more than the message limit is refused at once', async () => {
      const msg = Buffer.alloc(5);
      msg.write('Q', 0, 'ascii');
      msg.writeInt32BE(0x7fffffff, 1);
      expect(await sendRaw(socketPath, [startup(), msg], 2000)).toBe('closed');
      expect(await answers(socketPath, 3000)).toBe(42);
    });

    it('the process still ends on SIGTERM', async () => {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      const code = await Promise.race([
        exited,
        new Promise((r) => setTimeout(() => r('hung'), 5000)),
      ]);
      expect(code).toBe(0);
    });
  },
);

describe.skipIf(process.env.TEST_DATABASE_URL)('a socket client holding a transaction', () => {
  let db: PGlite;
  let wire: WireServer;
  const socketPath = path.join(root, 'b', '.s.PGSQL.5432');

  beforeAll(async () => {
    await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(socketPath)));
    db = new PGlite();
    await db.waitReady;
    wire = await serveWire(db, socketPath, { transactionMs: 1500 });
  }, 60_000);
  afterAll(async () => {
    await wire?.close();
    await db?.close();
  });

  it('is rolled back and disconnected after the transaction limit even if it keeps talking', async () => {
    await db.exec('CREATE TABLE t (x int)');
    const client = new pg.Client({ host: path.dirname(socketPath), user: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (1)');
    // Chatty: a statement every 300 ms, far below the idle limit.
    let stop = false;
    let clientError: string | null = null;
    const chatter = (async () => {
      while (!stop) {
        await new Promise((r) => setTimeout(r, 300));
        try {
          await client.query('SELECT 1');
        } catch (err) {
          clientError = (err as Error).message;
          return;
        }
      }
    })();
    // The server's own statement waits for the client's transaction, but not for long.
    const t0 = performance.now();
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t');
    const waited = performance.now() - t0;
    stop = true;
    await chatter;
    await client.end().catch(() => {});
    expect(rows[0]!.n).toBe(0); // rolled back
    expect(waited).toBeLessThan(3000);
    expect(clientError).not.toBeNull();
    // The socket still serves the next client.
    expect(await answers(socketPath, 3000)).toBe(42);
  }, 20_000);

  it('a short transaction commits as usual', async () => {
    const client = new pg.Client({ host: path.dirname(socketPath), user: 'postgres' });
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (2)');
    await client.query('COMMIT');
    await client.end();
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t');
    expect(rows[0]!.n).toBe(1);
  });
});
