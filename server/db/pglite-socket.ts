import { chmod, stat, unlink } from 'node:fs/promises';
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
 * A client that stays inside a transaction without sending anything for `idleMs`, or holds the
 * database longer than `transactionMs` in all however chatty it is, is rolled back and
 * disconnected (FATAL 25P04), so it cannot stall the server. Malformed message lengths (a start-up
 * packet shorter than its own header or over 10,000 bytes, a message length below 4 or over
 * `maxMessageBytes`) close that connection only. A socket file deleted while the server runs is
 * created again (checked every `watchMs`).
 */
export const WIRE_PORT = 5432;
export const socketPathOf = (dataDir: string) => path.join(dataDir, `.s.PGSQL.${WIRE_PORT}`);

export type WireServer = {
  readonly path: string;
  /** Binds the socket again if its file is gone (also done every `watchMs`); true when it did. */
  ensureListening(): Promise<boolean>;
  close(): Promise<void>;
};

export type WireOptions = {
  /** Silence inside a transaction before the client is rolled back and disconnected. */
  idleMs?: number;
  /** The longest a client may hold the database (from its first message to idle again). */
  transactionMs?: number;
  /** Largest message a client may send (PostgreSQL's own start-up limit applies to start-up). */
  maxMessageBytes?: number;
  /** How often the socket file's presence is checked (0: never). */
  watchMs?: number;
};

/** PostgreSQL's MAX_STARTUP_PACKET_LENGTH. */
const MAX_STARTUP_BYTES = 10_000;
const DEFAULT_WIRE_TRANSACTION_MS = 2_000;

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

/**
 * Whether a process listens on the socket (a connection is accepted within `timeoutMs`): the sign
 * of a live holder that does not depend on its lock file. A stale socket file refuses.
 */
export function socketAnswers(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The transaction status of the last ReadyForQuery in a backend reply ('I', 'T', 'E'), or null. */
function readyStatus(out: Uint8Array): string | null {
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let status: string | null = null;
  for (let i = 0; i + 5 <= view.length;) {
    const len = view.readInt32BE(i + 1);
    if (view[i] === 0x5a && i + 5 < view.length) status = String.fromCharCode(view[i + 5]!);
    i += 1 + len;
  }
  return status;
}

/** An ErrorResponse (severity FATAL) a client library shows as the reason it was disconnected. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0, 'ascii');
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export async function serveWire(
  pg: PGlite,
  socketPath: string,
  options: WireOptions = {},
): Promise<WireServer> {
  const idleMs = options.idleMs ?? 10_000;
  const transactionMs = options.transactionMs ?? DEFAULT_WIRE_TRANSACTION_MS;
  const maxMessageBytes = options.maxMessageBytes ?? 64 * 1024 * 1024;
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

    // A malformed length ends this connection, never the parser loop: every message consumes
    // at least its own header, and nothing waits for more than the limits allow.
    const malformed = () => {
      buf = Buffer.alloc(0);
      closed = true;
      socket.destroy();
      wake?.();
    };
    socket.on('data', (chunk) => {
      if (closed) return;
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 8) break;
          const len = buf.readInt32BE(0);
          if (len < 8 || len > MAX_STARTUP_BYTES) return malformed();
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
          const declared = buf.readInt32BE(1);
          if (declared < 4 || declared > maxMessageBytes) return malformed();
          const len = 1 + declared;
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
          // The database is this client's from here until it is idle again, for transactionMs at most.
          const deadline = performance.now() + transactionMs;
          let msg: Buffer | null = first;
          for (;;) {
            const out = await exec(msg);
            if (!socket.destroyed && out.length) socket.write(out);
            if (readyStatus(out) === 'I') return;
            const left = deadline - performance.now();
            msg = left > 0 ? await nextMessage(Math.min(idleMs, left)) : null;
            if (!msg || msg[0] === 0x58) {
              // Gone, silent or too long inside a transaction: undo it and free the database.
              await exec(SYNC);
              await exec(simpleQuery('ROLLBACK'));
              if (!socket.destroyed && msg === null && !closed)
                socket.write(
                  fatal('25P04', 'transaction held the embedded database too long; rolled back'),
                );
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

  const onConnection = (socket: net.Socket) => {
    sockets.add(socket);
    const done = handle(socket).finally(() => {
      sockets.delete(socket);
      connections.delete(done);
    });
    connections.add(done);
  };
  const servers: net.Server[] = [];
  let boundIno: number | null = null;
  let closing = false;

  const listen = async () => {
    // A previous listener (its file deleted) stops accepting first: closing a Unix socket server
    // unlinks its path, which would remove the new file. Its connections carry on.
    for (const old of servers.splice(0)) old.close();
    await unlink(socketPath).catch(() => {}); // a socket file left by a crash (we hold the lock)
    const server = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o600);
    boundIno = (await stat(socketPath)).ino;
    servers.push(server);
  };

  let rebinding: Promise<boolean> | null = null;
  /** Binds again when our socket file is gone; leaves a file someone else bound alone. */
  const ensureListening = (): Promise<boolean> =>
    (rebinding ??= (async () => {
      try {
        if (closing) return false;
        const now = await stat(socketPath).catch(() => null);
        if (now && now.ino === boundIno) return false;
        if (now) return false; // another process's socket: not ours to remove
        await listen();
        return true;
      } finally {
        rebinding = null;
      }
    })());

  await listen();
  const watchMs = options.watchMs ?? 1000;
  const watch =
    watchMs > 0 ? setInterval(() => void ensureListening().catch(() => {}), watchMs) : null;
  watch?.unref();
  return {
    path: socketPath,
    ensureListening,
    async close() {
      closing = true;
      if (watch) clearInterval(watch);
      const stopped = Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
      for (const s of sockets) s.destroy();
      await Promise.allSettled([...connections]);
      await stopped;
      // Our file only (another holder may have bound the path since).
      const now = await stat(socketPath).catch(() => null);
      if (now && now.ino === boundIno) await unlink(socketPath).catch(() => {});
    },
  };
}
