import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadIdentityConfig } from './config';
import { createIdentityEngine, type IdentityEngine } from './engine';
import { holdEngine, type EngineHolder } from './lifecycle';
import type { EngineInsight } from './types';

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
  /**
   * The engine to use (not closed with the app). Without one the plugin creates its own and closes
   * it with the app: warmed in the background once the app is ready (see lifecycle.ts), or, in the
   * test environment, on the first identity call so that other areas' tests do not pay for the models.
   */
  identity?: IdentityEngine | Promise<IdentityEngine>;
  /** How an owned engine is made (default: from IDENTITY_* settings); a seam for the start-up tests. */
  createEngine?: () => Promise<IdentityEngine>;
  /**
   * Where an owned engine reports its decisions (journey insight: the app's recorder over its
   * writer, server/app.ts). An injected engine reports where its maker said.
   */
  insight?: EngineInsight;
  /** IDENTITY_* settings of an owned engine (default: process.env). */
  settings?: Record<string, string | undefined>;
};

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
    const owned = !opts.identity;
    const background = owned && opts.env !== 'test';
    const holder = holdEngine(
      app,
      opts.identity
        ? () => Promise.resolve(opts.identity!)
        : (opts.createEngine ??
            (() =>
              createIdentityEngine(loadIdentityConfig(opts.settings ?? process.env), {
                log: app.log,
                ...(opts.insight ? { insight: opts.insight } : {}),
              }))),
      { owned, background },
    );
    app.decorate('identity', holder);
    // GET /api/ready: warming in the background is 'starting'; in tests the engine starts on demand.
    if (app.hasDecorator('readiness'))
      app.readiness.register('identity', async () =>
        holder.isReady()
          ? { ...identityStates.ready, backend: (await holder.get()).stats().pool.backend }
          : background
            ? identityStates.starting
            : identityStates.onDemand,
      );
  },
  { name: 'identity', fastify: '5.x' },
);

/** The app's identity engine for a plugin that needs it; `identityPlugin` must be registered first. */
export function identityOf(app: FastifyInstance, plugin: string): () => Promise<IdentityEngine> {
  if (!app.hasDecorator('identity'))
    throw new Error(`${plugin} needs the identity engine: register identityPlugin before it`);
  return () => app.identity.get();
}
