import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/errors';
import type { IdentityEngine } from './engine';
import { identityMessages } from './errors';

export type EngineHolder = {
  /** The engine, or a 503 'El servicio está iniciando' (Retry-After) while it warms up in the background. */
  get(): Promise<IdentityEngine>;
  /** True once the engine answers (for readiness checks). */
  isReady(): boolean;
};

/** Seconds a client is asked to wait while the engine starts. */
const STARTING_RETRY_AFTER_SECONDS = 5;
const RETRY_START_MS = 10_000;

/**
 * Owns the identity engine's life in the app (issue 11 item 8). Loading and warming the models can take
 * longer than Fastify's 10 s plugin timeout on a busy 2-core machine, so with `background` the warm-up
 * starts when the app is ready but is NOT awaited by it: the server listens at once, identity calls
 * answer 503 'El servicio está iniciando...' with Retry-After until the engine is ready, and a failed
 * start is logged and retried. Without `background` (tests, an injected engine) the first call waits.
 * The engine is closed with the app.
 */
export function holdEngine(
  app: FastifyInstance,
  create: () => Promise<IdentityEngine>,
  options: { background: boolean; owned: boolean },
): EngineHolder {
  let ready: IdentityEngine | null = null;
  let starting: Promise<IdentityEngine> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const start = (): Promise<IdentityEngine> =>
    (starting ??= create().then(
      async (engine) => {
        if (closed) {
          if (options.owned) await engine.close();
          throw new HttpError(503, identityMessages.starting);
        }
        ready = engine;
        return engine;
      },
      (err: unknown) => {
        starting = null;
        app.log.error({ event: 'identity_start_failed', error: String(err) });
        if (options.background && !closed && !retry) {
          retry = setTimeout(() => {
            retry = null;
            void start().catch(() => {});
          }, RETRY_START_MS);
          retry.unref();
        }
        throw new HttpError(503, identityMessages.busy);
      },
    ));

  if (options.background) app.addHook('onReady', async () => void start().catch(() => {}));
  app.addHook('onClose', async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    const engine = ready ?? (await starting?.catch(() => null));
    if (options.owned && engine) await engine.close();
  });

  return {
    isReady: () => ready !== null,
    async get() {
      if (ready) return ready;
      if (!options.background) return start();
      void start().catch(() => {});
      throw new HttpError(503, identityMessages.starting, {
        'retry-after': String(STARTING_RETRY_AFTER_SECONDS),
      });
    },
  };
}
