/** A stub identity engine for HTTP-layer tests: real config and work queues, the given methods. */
import Fastify, { type FastifyInstance } from 'fastify';
import { openDb, type Db } from '../../server/db/client';
import { installErrorHandling } from '../../server/http/errors';
import { loadIdentityConfig } from '../../server/identity/config';
import type { IdentityEngine } from '../../server/identity/engine';
import { createWorkQueue } from '../../server/identity/queue';
import { identityPlugin } from '../../server/identity/plugin';
import { identityRoutes } from '../../server/identity/routes';

export function stubEngine(
  methods: Partial<Record<keyof IdentityEngine, unknown>>,
  env: Record<string, string> = {},
): IdentityEngine {
  const config = loadIdentityConfig({ IDENTITY_POOL_SIZE: '1', ...env });
  return {
    config,
    queues: {
      face: createWorkQueue({ name: 'face', ...config.bounds.face }),
      document: createWorkQueue({ name: 'document', ...config.bounds.document }),
    },
    ...methods,
  } as unknown as IdentityEngine;
}

/** The identity routes alone, on the stub engine and a real in-memory database. */
export async function stubApp(engine: IdentityEngine): Promise<{
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}> {
  const db = await openDb({ memory: true });
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(identityPlugin, { env: 'test', identity: engine });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db } });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
