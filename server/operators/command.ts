import { isIP } from 'node:net';
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

/**
 * The enrolment link's base without a configured URL: http://HOST:PORT, where a loopback or
 * wildcard HOST (127.x, ::1, 0.0.0.0, ::) is written `localhost`, since browsers refuse passkeys
 * on an IP address and the server then refuses the page (issue 43 item 3). Another IP address
 * stays as it is, and `ipHost` says so.
 */
function defaultLinkBase(config: Pick<Config, 'host' | 'port'>): {
  base: string;
  ipHost: string | null;
} {
  const host = config.host.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const local = /^127\./.test(host) || ['::1', '0.0.0.0', '::'].includes(host);
  if (family === 0 || local)
    return { base: `http://${family === 0 ? host : 'localhost'}:${config.port}`, ipHost: null };
  return { base: `http://${family === 6 ? `[${host}]` : host}:${config.port}`, ipHost: host };
}

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
  const fallback = defaultLinkBase(deps.config);
  const base = (deps.operators.publicUrl ?? fallback.base).replace(/\/$/, '');
  const ipHost = deps.operators.publicUrl === undefined ? fallback.ipHost : null;
  const linkOf = (token: string) => `${base}${OPERATOR_ENROL_PATH}#${token}`;
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
    if (ipHost)
      out.error(
        `Las llaves de acceso no funcionan en una dirección IP (${ipHost}): definí ` +
          'OPERATOR_ORIGIN o PUBLIC_URL con el nombre del sitio y volvé a pedir el enlace ' +
          `(npm run operadores -- enlace --usuario ${usuario}).`,
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
