import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves the process's PGlite to local clients (the operator commands) on a Unix socket in the data
 * folder, speaking the PostgreSQL wire protocol, so `pg` connects with `host: <dataDir>`.
 *
 * Why not `@electric-sql/pglite-socket`: it runs each client message under PGlite's query lock
 * only, so the server's own queries can run between a client's BEGIN and COMMIT (inside its
 * transaction) or between its Parse and Bind. Here a client takes PGlite's TRANSACTION lock from its
 * first message until PostgreSQL reports it idle again (ReadyForQuery 'I'), exactly as the server's
 * own `transaction()` does: a client's statement or transaction and the server's never interleave.
 * A client that stays inside a transaction without sending anything for `idleMs` is rolled back
 * and disconnected, so it cannot stall the server.
 */
export const WIRE_PORT = 5432;
export const socketPathOf = (dataDir: string) => path.join(dataDir, `.s.PGSQL.${WIRE_PORT}`);

export type WireServer = { readonly path: string; close(): Promise<void> };

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

function simpleQuery(sql: string): Buffer {
  const body = Buffer.from(`${sql}\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('Q', 0, 'ascii');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** The transaction status of the last ReadyForQuery in a backend reply ('I', 'T', 'E'), or null. */
export function readyStatus(out: Uint8Array): string | null {
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let status: string | null = null;
  for (let i = 0; i + 5 <= view.length;) {
    const len = view.readInt32BE(i + 1);
    if (view[i] === 0x5a && i + 5 < view.length) status = String.fromCharCode(view[i + 5]!);
    i += 1 + len;
  }
  return status;
}

export async function serveWire(
  pg: PGlite,
  socketPath: string,
  options: { idleMs?: number } = {},
): Promise<WireServer> {
  const idleMs = options.idleMs ?? 10_000;
  const connections = new Set<Promise<void>>();
  const sockets = new Set<net.Socket>();

  const exec = (msg: Uint8Array) => pg.runExclusive(() => pg.execProtocolRaw(msg));

  function handle(socket: net.Socket): Promise<void> {
    let buf = Buffer.alloc(0);
    let started = false;
    let closed = false;
    const queue: Buffer[] = [];
    let wake: (() => void) | null = null;

    const nextMessage = async (timeoutMs?: number): Promise<Buffer | null> => {
      let timer: NodeJS.Timeout | undefined;
      while (!queue.length && !closed) {
        const waited = new Promise<boolean>((resolve) => {
          wake = () => resolve(true);
          if (timeoutMs) timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const woke = await waited;
        clearTimeout(timer);
        wake = null;
        if (!woke) return null;
      }
      return queue.shift() ?? null;
    };

    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 8) break;
          const len = buf.readInt32BE(0);
          if (buf.length < len) break;
          const code = buf.readInt32BE(4);
          const msg = buf.subarray(0, len);
          buf = buf.subarray(len);
          if (code === SSL_REQUEST || code === GSS_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.destroy();
            return;
          }
          started = true;
          queue.push(Buffer.from(msg));
        } else {
          if (buf.length < 5) break;
          const len = 1 + buf.readInt32BE(1);
          if (buf.length < len) break;
          queue.push(Buffer.from(buf.subarray(0, len)));
          buf = buf.subarray(len);
        }
      }
      wake?.();
    });
    const end = () => {
      closed = true;
      wake?.();
    };
    socket.on('close', end);
    socket.on('error', end);

    return (async () => {
      for (;;) {
        const first = await nextMessage();
        if (!first || first[0] === 0x58 /* Terminate */) break;
        await pg._runExclusiveTransaction(async () => {
          let msg: Buffer | null = first;
          for (;;) {
            const out = await exec(msg);
            if (!socket.destroyed && out.length) socket.write(out);
            if (readyStatus(out) === 'I') return;
            msg = await nextMessage(idleMs);
            if (!msg || msg[0] === 0x58) {
              // Gone or silent inside a transaction: undo it and free the database.
              await exec(SYNC);
              await exec(simpleQuery('ROLLBACK'));
              socket.destroy();
              return;
            }
          }
        });
        if (socket.destroyed) break;
      }
      socket.end();
    })().catch(() => {
      socket.destroy();
    });
  }

  await unlink(socketPath).catch(() => {}); // a socket file left by a crash (we hold the lock)
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const done = handle(socket).finally(() => {
      sockets.delete(socket);
      connections.delete(done);
    });
    connections.add(done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    path: socketPath,
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await Promise.allSettled([...connections]);
      await stopped;
    },
  };
}
