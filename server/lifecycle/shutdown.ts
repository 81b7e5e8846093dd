import type { FastifyInstance } from 'fastify';
import { Server as NetServer } from 'node:net';

/**
 * At the drain's end: this long between refusing new connections and closing the idle ones, so a
 * request already on its way on a just-opened (or just-reused) connection is read and answered.
 */
const SETTLE_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ShutdownOptions = {
  /** In-flight requests get this long to finish; then their connections are cut. */
  graceMs: number;
  /**
   * Before closing: this long answering 503 on /api/ready (so the proxy takes the process out of
   * rotation) while serving every other request, each with `Connection: close`.
   */
  drainMs?: number;
  /** Closes what the app does not own (the database), after the app has closed. */
  closeResources: () => Promise<void>;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
};

/**
 * SIGTERM/SIGINT: first drain (`drainMs`: /api/ready answers 503 while everything else is still
 * served, each answer with `Connection: close`, so kept-alive connections end cleanly after their
 * current request instead of being cut; in its last 250 ms no new connection is accepted, what
 * already arrived is answered, then the idle connections are closed); then stop accepting connections (new requests on
 * kept-alive ones answer 503), let in-flight requests finish within `graceMs`, close the app (its
 * onClose hooks stop the identity workers), then the database (PGlite waits for running
 * transactions and writes its files), and exit 0. A second signal, or a close that hangs past
 * twice the grace period, exits 1 at once. Returns `shutdown` for callers that stop the server
 * themselves.
 */
export function installGracefulShutdown(
  app: FastifyInstance,
  options: ShutdownOptions,
): { shutdown(reason: string): Promise<void>; readonly stopping: boolean } {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping: Promise<void> | null = null;

  const shutdown = (reason: string): Promise<void> => {
    if (stopping) return stopping;
    const t0 = Date.now();
    const drainMs = options.drainMs ?? 0;
    app.log.info({ event: 'shutdown', reason, graceMs: options.graceMs, drainMs }, 'shutting down');
    app.readiness?.drain();
    stopping = (async () => {
      if (drainMs > 0) {
        const settleMs = Math.min(SETTLE_MS, drainMs);
        await sleep(drainMs - settleMs);
        // Stop accepting without touching open connections (http.Server#close would also close
        // the idle ones at once, cutting a connection whose first request is still on the wire:
        // the reset the probe saw, issue 29 item 8). A client now meets a refused connection,
        // which sent nothing and is safe to retry.
        if (app.server.listening) NetServer.prototype.close.call(app.server);
        await sleep(settleMs);
        // What is still idle after the settle carries no request: closed before the app closes.
        app.server.closeIdleConnections();
      }
      await close(t0);
    })();
    return stopping;
  };

  const close = async (t0: number): Promise<void> => {
    const cut = setTimeout(() => {
      app.log.warn({ event: 'shutdown_grace_over' }, 'cutting connections still open');
      app.server.closeAllConnections();
    }, options.graceMs);
    const hard = setTimeout(
      () => {
        app.log.error({ event: 'shutdown_stuck' }, 'shutdown did not finish; exiting');
        exit(1);
      },
      options.graceMs * 2 + 10_000,
    );
    hard.unref();
    const step = async (fn: () => Promise<unknown>, event: string): Promise<number> => {
      try {
        await fn();
        return 0;
      } catch (err) {
        app.log.error({ event, error: String(err) });
        return 1;
      }
    };
    let code = await step(() => app.close(), 'shutdown_app_error');
    clearTimeout(cut);
    code |= await step(options.closeResources, 'shutdown_db_error');
    clearTimeout(hard);
    app.log.info({ event: 'stopped', ms: Date.now() - t0 }, 'stopped');
    exit(code);
  };

  for (const signal of options.signals ?? (['SIGTERM', 'SIGINT'] as NodeJS.Signals[])) {
    process.on(signal, () => {
      if (stopping) {
        app.log.warn({ event: 'shutdown_forced', signal }, 'second signal: exiting now');
        exit(1);
        return;
      }
      void shutdown(signal);
    });
  }
  return {
    shutdown,
    get stopping() {
      return stopping !== null;
    },
  };
}
