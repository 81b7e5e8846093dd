import { buildApp, createContext } from './app';
import { loadConfig, startupWarnings, type Config } from './config';
import { ConfigError } from './env';
import type { AppContext } from './context';
import { DatabaseInUseError } from './db/pglite-lock';
import { installGracefulShutdown } from './lifecycle/shutdown';
import { DEMO_PATIENT, upsertPatient } from './patients/service';

async function main(): Promise<void> {
  // The only place the server reads its environment (the CLIs read their own).
  const config = loadConfig(process.env);
  const ctx = await createContext(config, {}, process.env);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    if (config.demoPatient) {
      const existing = await ctx.db.query('SELECT 1 FROM patients WHERE numero_documento = $1', [
        DEMO_PATIENT.numero_documento,
      ]);
      if (!existing.rows.length) await upsertPatient(ctx, DEMO_PATIENT);
    }
    app = await buildApp(ctx);
    installGracefulShutdown(app, {
      graceMs: config.shutdownGraceMs,
      drainMs: config.shutdownDrainMs,
      closeResources: () => ctx.db.close(),
    });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    // Nothing half-started stays behind: workers stopped, database closed (its lock released).
    await app?.close().catch(() => {});
    await ctx.db.close().catch(() => {});
    throw err;
  }
  announce(app, config, ctx);
}

function announce(
  app: Awaited<ReturnType<typeof buildApp>>,
  config: Config,
  ctx: AppContext,
): void {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const database = ctx.db.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  app.log.info({ event: 'listening', url, database, env: config.env }, `Listening on ${url}`);
  for (const w of startupWarnings(config)) app.log.warn({ event: w.event }, w.message);
  if (config.demoPatient)
    app.log.info(
      { event: 'demo_patient' },
      `Demo patient: documento ${DEMO_PATIENT.numero_documento} (${DEMO_PATIENT.nombre}; PIN in the README)`,
    );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DatabaseInUseError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
