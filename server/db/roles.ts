import type { Db } from './client';

/**
 * The application's database role on PostgreSQL (issue 42, L2): a role that owns nothing, so that
 * neither `TRUNCATE case_audit` nor `ALTER TABLE case_audit DISABLE TRIGGER ...` (both need the
 * owner, or the TRUNCATE privilege) can empty the append-only record. The tables belong to the
 * role that applies the migrations (`npm run database -- migrate`, docs/production.md); the
 * application's role may read and write rows where it needs to, and only insert into and read
 * `case_audit` and read `schema_migrations`. PGlite has one embedded user: nothing to split.
 */

/** Tables the application may only read and insert into (append-only records). */
export const APPEND_ONLY_TABLES = ['case_audit', 'patient_access_log'] as const;
/** Tables the application only reads. */
export const READ_ONLY_TABLES = ['schema_migrations'] as const;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A role the application cannot be given (its message says why, in English). */
export class AppRoleError extends Error {}

/**
 * Grants `role` exactly what the application needs on the current schema's tables and sequences,
 * as their owner (the migration role), and checks that it owns nothing, is no superuser and is not
 * a member of the tables' owner. Idempotent: run it after every migration (new tables).
 */
export async function grantAppRole(
  db: Db,
  role: string,
): Promise<{ schema: string; tables: number }> {
  if (db.kind !== 'postgres')
    throw new AppRoleError(
      'An application role needs PostgreSQL (DATABASE_URL); PGlite has one user.',
    );
  if (!ROLE_NAME.test(role))
    throw new AppRoleError('app role: a PostgreSQL role name of a-z, 0-9 and "_" (not quoted)');
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      schema: string;
      me: string;
      exists: boolean;
      superuser: boolean;
      member_of_owner: boolean;
      owns: string[];
    }>(
      `SELECT current_schema() AS schema, current_user AS me,
              r.oid IS NOT NULL AS exists, coalesce(r.rolsuper, false) AS superuser,
              r.oid IS NOT NULL AND pg_has_role(r.oid, current_user, 'USAGE') AS member_of_owner,
              coalesce((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_class c
                         WHERE c.relnamespace = current_schema()::regnamespace
                           AND c.relowner = r.oid), '{}') AS owns
         FROM (SELECT $1::text AS name) n LEFT JOIN pg_roles r ON r.rolname = n.name`,
      [role],
    );
    const me = rows[0]!;
    if (!me.exists)
      throw new AppRoleError(`role ${role} does not exist: CREATE ROLE ${role} LOGIN`);
    if (me.superuser) throw new AppRoleError(`role ${role} is a superuser: it can do anything`);
    if (role === me.me || me.member_of_owner)
      throw new AppRoleError(`role ${role} is (or acts as) ${me.me}, the tables' owner`);
    if (me.owns.length)
      throw new AppRoleError(
        `role ${role} owns ${me.owns.join(', ')}: ALTER ... OWNER TO ${me.me} (or REASSIGN OWNED BY ${role} TO ${me.me})`,
      );
    const schema = `"${me.schema}"`;
    const r = `"${role}"`;
    const statements = [
      `GRANT USAGE ON SCHEMA ${schema} TO ${r}`,
      `REVOKE CREATE ON SCHEMA ${schema} FROM ${r}`,
      `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${r}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${r}`,
      ...APPEND_ONLY_TABLES.map((t) => `REVOKE UPDATE, DELETE ON ${schema}.${t} FROM ${r}`),
      ...READ_ONLY_TABLES.map((t) => `REVOKE INSERT, UPDATE, DELETE ON ${schema}.${t} FROM ${r}`),
      `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${r}`,
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${r}`,
    ];
    for (const s of statements) await tx.query(s);
    // PUBLIC's CREATE on the schema (PostgreSQL before 15) would let the role create objects of
    // its own: said, not silently kept.
    const create = await tx.query<{ can: boolean }>(
      `SELECT has_schema_privilege($1, current_schema(), 'CREATE') AS can`,
      [role],
    );
    if (create.rows[0]?.can)
      throw new AppRoleError(
        `role ${role} may create objects in ${me.schema} (PUBLIC's CREATE): REVOKE CREATE ON SCHEMA ${me.schema} FROM PUBLIC`,
      );
    const tables = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema()`,
    );
    return { schema: me.schema, tables: tables.rows[0]?.n ?? 0 };
  });
}

export const DATABASE_USAGE = `Usage (PostgreSQL, DATABASE_URL of the role that owns the tables):
  npm run database -- migrate [--app-role NAME]`;

type Output = { log(line: string): void; error(line: string): void };

/**
 * `npm run database -- migrate [--app-role NAME]`: applies the migrations not yet applied, as the
 * role of DATABASE_URL (which then owns what they create), and with --app-role grants that role
 * the application's privileges. One JSON line; exit 0, 1 refused, 2 bad usage.
 */
export async function runDatabaseCommand(
  argv: string[],
  deps: { databaseUrl: string | undefined; open: (url: string) => Promise<Db>; out: Output },
): Promise<number> {
  const { out } = deps;
  const [command, ...rest] = argv;
  const flag = rest[0] === '--app-role' ? rest[1] : undefined;
  if (command !== 'migrate' || (rest.length && (!flag || rest.length !== 2))) {
    out.error(DATABASE_USAGE);
    return 2;
  }
  if (!deps.databaseUrl) {
    out.error(
      'DATABASE_URL is not set. On PGlite the server applies the migrations at start, and an application role needs PostgreSQL.',
    );
    return 2;
  }
  const db = await deps.open(deps.databaseUrl); // applies the migrations (server/db/client.ts)
  try {
    const granted = flag ? await grantAppRole(db, flag) : null;
    out.log(
      JSON.stringify({
        ok: true,
        migrated: true,
        ...(granted ? { appRole: flag, ...granted } : {}),
      }),
    );
    return 0;
  } catch (err) {
    if (!(err instanceof AppRoleError)) throw err;
    out.log(JSON.stringify({ ok: false, error: err.message }));
    out.error(err.message);
    return 1;
  } finally {
    await db.close();
  }
}
