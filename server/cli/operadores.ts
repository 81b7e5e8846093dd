/**
 * Operators' command for the back office's accounts (issue 30, docs/operators.md).
 *
 *   npm run operadores -- add --usuario U --nombre "N" --rol revisor|supervisor   # prints a one-time link
 *   npm run operadores -- list
 *   npm run operadores -- revoke --usuario U      # every passkey and session stops working
 *   npm run operadores -- enlace --usuario U      # a new enrolment link (older ones die)
 *
 * The link `<base>/operador/alta#<token>` (24 h) registers the operator's passkey; its base is
 * OPERATOR_ORIGIN, else PUBLIC_URL, else http://HOST:PORT. Only SHA-256 of tokens is stored. Safe
 * while the server runs (like `patients` and `kiosk`: server/cli/db.ts).
 */
import { loadConfig } from '../config';
import { loadOperatorsConfig } from '../operators/config';
import { runOperatorsCommand } from '../operators/command';
import { openCliDatabase } from './db';

type CliDatabase = Awaited<ReturnType<typeof openCliDatabase>>;

async function main(argv: string[]): Promise<number> {
  const config = loadConfig(process.env);
  const operators = loadOperatorsConfig(process.env, config.env);
  let db: CliDatabase | undefined;
  try {
    return await runOperatorsCommand(argv, {
      db: async () => (db = await openCliDatabase(config)),
      config,
      operators,
    });
  } finally {
    await db?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
