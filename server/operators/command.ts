import { parseArgs } from 'node:util';
import { OPERATOR_ENROL_PATH } from '../../contract/operators';
import type { Config } from '../config';
import { systemClock, type AppContext } from '../context';
import type { Db } from '../db/client';
import {
  createOperator,
  listOperators,
  OperatorInputError,
  renewEnrolment,
  revokeOperator,
} from './accounts';
import type { OperatorsConfig } from './config';

export const OPERADORES_USAGE = `Usage:
  npm run operadores -- add --usuario U --nombre "NOMBRE" --rol revisor|supervisor
  npm run operadores -- list
  npm run operadores -- revoke --usuario U
  npm run operadores -- enlace --usuario U`;

type Output = { log(line: string): void; error(line: string): void };
type Deps = {
  /** Opened only for a well-formed command (the caller closes it). */
  db: () => Promise<Db & { via?: string }>;
  config: Pick<Config, 'host' | 'port'>;
  operators: Pick<OperatorsConfig, 'publicUrl'>;
  clock?: AppContext['clock'];
  out?: Output;
};

/**
 * `npm run operadores` (server/cli/operadores.ts opens the database and calls this): one JSON line
 * on standard output, a Spanish note for the person on standard error; exit code 0 done, 1 refused
 * (unknown usuario, duplicate, bad value), 2 usage.
 */
export async function runOperatorsCommand(argv: string[], deps: Deps): Promise<number> {
  const out = deps.out ?? console;
  const clock = deps.clock ?? systemClock;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        usuario: { type: 'string' },
        nombre: { type: 'string' },
        rol: { type: 'string' },
      },
    });
  } catch {
    out.error(OPERADORES_USAGE);
    return 2;
  }
  const { positionals, values } = parsed;
  const [command, ...extra] = positionals;
  const given = Object.keys(values).sort().join(',');
  const valid =
    extra.length === 0 &&
    ((command === 'add' && given === 'nombre,rol,usuario') ||
      (command === 'list' && given === '') ||
      ((command === 'revoke' || command === 'enlace') && given === 'usuario'));
  if (!valid) {
    out.error(OPERADORES_USAGE);
    return 2;
  }
  const db = await deps.db();
  const via = db.via;
  const linkOf = (token: string) => {
    const base = (
      deps.operators.publicUrl ?? `http://${deps.config.host}:${deps.config.port}`
    ).replace(/\/$/, '');
    return `${base}${OPERATOR_ENROL_PATH}#${token}`;
  };
  const printLink = (
    fields: Record<string, unknown>,
    usuario: string,
    token: string,
    expiresAt: Date,
  ) => {
    const link = linkOf(token);
    out.log(JSON.stringify({ ok: true, ...fields, link, expiresAt: expiresAt.toISOString(), via }));
    out.error(
      `Enviá este enlace solo a ${usuario}: lo abre una vez para registrar su llave de acceso ` +
        `(vence en 24 h):\n${link}`,
    );
  };
  const usuario = values.usuario ?? '';
  try {
    if (command === 'add') {
      const input = { usuario, nombre: values.nombre ?? '', rol: values.rol as 'revisor' };
      const created = await createOperator(db, input, clock);
      const fields = { id: created.id, usuario, nombre: input.nombre.trim(), rol: input.rol };
      printLink(fields, usuario, created.enrolToken, created.expiresAt);
      return 0;
    }
    if (command === 'list') {
      out.log(JSON.stringify({ ok: true, operators: await listOperators(db, clock), via }));
      return 0;
    }
    if (command === 'revoke') {
      const revoked = await revokeOperator(db, usuario, clock);
      out.log(JSON.stringify({ ok: revoked, usuario, via }));
      if (!revoked) out.error(`No hay un operador activo ${usuario}.`);
      return revoked ? 0 : 1;
    }
    const renewed = await renewEnrolment(db, usuario, clock);
    if (!renewed) {
      out.log(JSON.stringify({ ok: false, usuario, via }));
      out.error(`No existe el operador ${usuario}.`);
      return 1;
    }
    printLink(
      { id: renewed.id, usuario, reinstated: renewed.reinstated },
      usuario,
      renewed.enrolToken,
      renewed.expiresAt,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof OperatorInputError)) throw err;
    out.log(JSON.stringify({ ok: false, error: err.message }));
    out.error(err.message);
    return 1;
  }
}
