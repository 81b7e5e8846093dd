import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IdentityEngine } from './engine';
import { holdEngine, type EngineHolder } from './lifecycle';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The identity engine of this app, one per process (one model load): `get()` answers the engine
     * or a 503 'El servicio está iniciando' while it warms up, `isReady()` says whether it answers.
     * Decorated by `identityPlugin`; the identity and face authentication routes read it.
     */
    identity: EngineHolder;
  }
}

type IdentityPluginOptions = {
  /** The app's environment: under 'test' the engine starts on the first identity call. */
  env: string;
} & (
  | {
      /** The engine to use (not closed with the app): tests and benches. */
      identity: IdentityEngine | Promise<IdentityEngine>;
    }
  | {
      /**
       * How the app's own engine is made (server/app.ts: from its IDENTITY_* settings, reporting
       * to its journey insight). The plugin closes it with the app: warmed in the background once
       * the app is ready (see lifecycle.ts), or, in the test environment, on the first identity
       * call so that other areas' tests do not pay for the models.
       */
      createEngine: () => Promise<IdentityEngine>;
    }
);

const identityStates = {
  ready: { ok: true, state: 'ready' },
  starting: { ok: false, state: 'starting' },
  onDemand: { ok: true, state: 'on-demand' },
};

/**
 * Decorates the app with its identity engine (`app.identity`), shared by every plugin registered
 * after it (fastify-plugin: the decoration is not encapsulated), and reports it in GET /api/ready.
 */
export const identityPlugin = fp(
  async (app: FastifyInstance, opts: IdentityPluginOptions) => {
    const owned = !('identity' in opts);
    const background = owned && opts.env !== 'test';
    const holder = holdEngine(
      app,
      'identity' in opts ? () => Promise.resolve(opts.identity) : opts.createEngine,
      { owned, background },
    );
    app.decorate('identity', holder);
    // GET /api/ready: warming in the background is 'starting'; in tests the engine starts on demand.
    // Once ready it names the backend and the KYC selfie's challenge (IDENTITY_LIVENESS_CHALLENGE).
    if (app.hasDecorator('readiness'))
      app.readiness.register('identity', async () => {
        if (holder.isReady()) {
          const engine = await holder.get();
          return {
            ...identityStates.ready,
            backend: engine.stats().pool.backend,
            challenge: engine.config.liveness.challenge,
          };
        }
        return background ? identityStates.starting : identityStates.onDemand;
      });
  },
  { name: 'identity', fastify: '5.x' },
);

/** The app's identity engine for a plugin that needs it; `identityPlugin` must be registered first. */
export function identityOf(app: FastifyInstance, plugin: string): () => Promise<IdentityEngine> {
  if (!app.hasDecorator('identity'))
    throw new Error(`${plugin} needs the identity engine: register identityPlugin before it`);
  return () => app.identity.get();
}
