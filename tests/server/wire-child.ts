/**
 * A process that serves an in-memory PGlite on a Unix socket (server/db/pglite-socket.ts), for
 * tests that must survive a socket bug that would freeze the process holding the database: the
 * test process only talks to it. Argument: the socket path. Prints `ready` once listening.
 */
import { PGlite } from '@electric-sql/pglite';
import { serveWire } from '../../server/db/pglite-socket';

const socketPath = process.argv[2];
if (!socketPath) throw new Error('usage: wire-child.ts SOCKET_PATH');
const pg = new PGlite();
await pg.waitReady;
const wire = await serveWire(pg, socketPath);
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void wire.close().then(() => process.exit(0));
});
