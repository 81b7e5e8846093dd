import type { FastifyInstance } from 'fastify';
import { pendingMigrations, type Db } from '../db/client';
import { TimeoutError, withTimeout } from '../timeout';

type CheckResult = {
  ok: boolean;
  state: string;
  /** Which implementation serves the component (identity: what runs the face models). */
  backend?: string | null;
  /** identity: the KYC selfie's liveness challenge (IDENTITY_LIVENESS_CHALLENGE). */
  challenge?: string;
};
type Check = () => CheckResult | Promise<CheckResult>;

/**
 * What `GET /api/ready` asks: named checks registered by the areas (database and migrations here,
 * the identity workers by their plugin). Each answers `{ ok, state }` with no secrets.
 */
export class Readiness {
  private readonly checks = new Map<string, Check>();
  stopping = false;
  /** Shutting down but still serving: every answer carries `Connection: close`. */
  draining = false;

  /** The drain before a shutdown: /api/ready answers 503, connections close after their answer. */
  drain(): void {
    this.stopping = true;
    this.draining = true;
  }

  register(name: string, check: Check): void {
    this.checks.set(name, check);
  }

  async report(
    timeoutMs: number,
  ): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        const result = await withTimeout(Promise.resolve().then(check), timeoutMs).catch(
          (err: unknown): CheckResult => ({
            ok: false,
            state: err instanceof TimeoutError ? 'timeout' : 'error',
          }),
        );
        return [name, result] as const;
      }),
    );
    const checks = Object.fromEntries(entries);
    if (this.stopping) checks.process = { ok: false, state: 'stopping' };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/**
 * `GET /api/health`: the process answers (liveness). `GET /api/ready`: database reachable,
 * migrations applied, registered components (identity workers) up, and not shutting down; 503
 * otherwise. JSON, no secrets, `Cache-Control: no-store`. Call before registering the areas.
 */
export function installHealth(app: FastifyInstance, db: Db, options: { timeoutMs?: number } = {}) {
  const readiness = new Readiness();
  app.decorate('readiness', readiness);
  readiness.register('database', async () => {
    await db.query('SELECT 1');
    return { ok: true, state: 'reachable' };
  });
  readiness.register('migrations', async () => {
    const pending = await pendingMigrations(db);
    return pending.length ? { ok: false, state: 'pending' } : { ok: true, state: 'applied' };
  });
  app.addHook('preClose', async () => {
    readiness.stopping = true;
  });
  // While draining, each kept-alive connection ends cleanly after its current answer.
  app.addHook('onRequest', async (_request, reply) => {
    if (readiness.draining) reply.header('connection', 'close');
  });
  app.get('/api/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/api/ready', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { ready, checks } = await readiness.report(options.timeoutMs ?? 2000);
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not_ready', checks };
  });
}
