/**
 * Issue 29 item 8: the process an operator starts is the one that stops. `npm run serve` (and
 * `npm start` after its build) signalled by npm's own pid must stop the real server: no child left
 * on the port holding the data folder. The scripts exec the server in npm's shell (node --import
 * tsx, no tsx wrapper process in between), and npm forwards the signal to it.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { liveEnvironment, startServer, type ServerProcess } from './processes';

const SLOW = 180_000;
let server: ServerProcess | undefined;
let cleanup: ((s?: ServerProcess) => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.(server);
  server = undefined;
});

/** Whether something accepts connections on the URL's port (a refused connection: false). */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm run serve stopped by npm’s pid', () => {
  it(
    'SIGTERM to npm stops the server: the port is free once npm has exited',
    async () => {
      const live = await liveEnvironment('pglite', 'npm-serve');
      cleanup = live.cleanup;
      server = await startServer(live.env, SLOW, ['npm', ['run', '--silent', 'serve']]);
      expect(await accepts(server.url)).toBe(true);
      const code = await server.stop('SIGTERM');
      expect(code === 0 || code === null).toBe(true);
      // The real server, not only npm, has gone: nothing listens on its port any more.
      let free = false;
      for (let i = 0; i < 50 && !free; i++) {
        free = !(await accepts(server.url));
        if (!free) await new Promise((res) => setTimeout(res, 100));
      }
      expect(free).toBe(true);
    },
    SLOW,
  );
});
