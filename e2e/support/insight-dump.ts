/**
 * Prints every stored journey-insight event as JSON (e2e/insight.spec.ts' personal-data scan), by
 * the operator commands' route to the database: safe while the server runs (server/cli/db.ts).
 */
import { loadConfig } from '../../server/config';
import { openCliDatabase } from '../../server/cli/db';

const db = await openCliDatabase(loadConfig(process.env));
try {
  const { rows } = await db.query('SELECT * FROM insight_events ORDER BY id');
  console.log(JSON.stringify(rows));
} finally {
  await db.close();
}
