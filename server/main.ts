import { buildApp, createContext } from './app';
import { loadConfig, ConfigError } from './config';
import { DEMO_PATIENT, upsertPatient } from './patients/service';

async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  if (config.demoPatient) {
    const existing = await ctx.db.query('SELECT 1 FROM patients WHERE numero_documento = $1', [
      DEMO_PATIENT.numero_documento,
    ]);
    if (!existing.rows.length) await upsertPatient(ctx, DEMO_PATIENT);
  }
  const app = await buildApp(ctx);
  const close = async () => {
    await app.close();
    await ctx.db.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ host: config.host, port: config.port });
  if (config.demoPatient) {
    app.log.info(`Demo patient: documento ${DEMO_PATIENT.numero_documento} (PIN in the README)`);
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
