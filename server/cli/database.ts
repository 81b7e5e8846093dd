/**
 * The database's schema and the application's role on PostgreSQL (issue 42, L2;
 * docs/production.md#database-roles):
 *
 *   DATABASE_URL=postgres://OWNER@host/db npm run database -- migrate --app-role APP
 *
 * applies the migrations as OWNER (who owns every table) and grants APP, the role the servers run
 * as, only what the application needs (server/db/roles.ts). Run it at each release, before the
 * servers start.
 */
import { openDb } from '../db/client';
import { runDatabaseCommand } from '../db/roles';

runDatabaseCommand(process.argv.slice(2), {
  databaseUrl: process.env.DATABASE_URL,
  open: (databaseUrl) => openDb({ databaseUrl }),
  out: console,
}).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
