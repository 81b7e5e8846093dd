import type { FastifyInstance } from 'fastify';

export type ShutdownOptions = {
  /** In-flight requests get this long to finish; then their connections are cut. */
  graceMs: number;
  /** Closes what the app does not own (the database), after the app has closed. */
  closeResources: () => Promise<void>;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
};

/**
 * SIGTERM/SIGINT: stop accepting connections (new requests on kept-alive ones answer 503), let
 * in-flight requests finish within `graceMs`, close the app (its onClose hooks stop the identity
 * workers), then the database (PGlite waits for running transactions and writes its files), and
 * exit 0. A second signal, or a close that hangs past twice the grace period, exits 1 at once.
 * Returns `shutdown` for callers that stop the server themselves.
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
    app.log.info({ event: 'shutdown', reason, graceMs: options.graceMs }, 'shutting down');
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
    stopping = (async () => {
      let code = await step(() => app.close(), 'shutdown_app_error');
      clearTimeout(cut);
      code |= await step(options.closeResources, 'shutdown_db_error');
      clearTimeout(hard);
      app.log.info({ event: 'stopped', ms: Date.now() - t0 }, 'stopped');
      exit(code);
    })();
    return stopping;
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
