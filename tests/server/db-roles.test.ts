import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeCases } from '../../server/cases/retention';
import { openDb, type Db } from '../../server/db/client';
import { grantAppRole, runDatabaseCommand } from '../../server/db/roles';
import { loadOperatorsConfig } from '../../server/operators/config';
import {
  CaseKyc,
  enrolOperators,
  ID_DATA,
  operatorApp,
  operatorCalls,
  patient,
} from './cases-fixtures';
import { createTestApp, MemorySms, type TestApp } from './helpers';

/**
 * L2 (issue 42 item 3): the append-only audit log against a database role. On PostgreSQL the
 * tables belong to the role that applies the migrations (`npm run database -- migrate --app-role`),
 * and the servers run as an application role that owns nothing: its TRUNCATE, ALTER TABLE ...
 * DISABLE TRIGGER, DROP, UPDATE and DELETE on case_audit are refused, while the application works.
 * PostgreSQL only (the PostgreSQL tier's TEST_DATABASE_URL, a superuser of a throwaway cluster):
 * PGlite has one embedded user, so this protection needs PostgreSQL (docs/production.md).
 */

const base = process.env.TEST_DATABASE_URL;
const tag = randomBytes(4).toString('hex');
const OWNER = `pacientes_owner_${tag}`;
const APP = `pacientes_app_${tag}`;
const SCHEMA = `roles_${tag}`;

/** The test database as `role`, in the test's schema. */
function urlAs(role: string): string {
  const url = new URL(base!);
  url.username = role;
  url.password = '';
  url.searchParams.set('options', `-c search_path=${SCHEMA}`);
  return url.toString();
}

/** PostgreSQL's SQLSTATE of a refused statement. */
async function refusal(db: Db, sql: string): Promise<string | undefined> {
  try {
    await db.query(sql);
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

const out = { lines: [] as string[], log: (l: string) => out.lines.push(l), error: () => {} };

describe('npm run database', () => {
  it('is a PostgreSQL command with one form', async () => {
    const lines: string[] = [];
    const say = { log: () => {}, error: (l: string) => lines.push(l) };
    const open = async (): Promise<Db> => {
      throw new Error('not opened');
    };
    const run = (argv: string[], databaseUrl?: string) =>
      runDatabaseCommand(argv, { databaseUrl, open, out: say });
    expect(await run(['migrate'])).toBe(2);
    expect(lines.at(-1)).toMatch(/PGlite .* needs PostgreSQL/);
    for (const argv of [[], ['grant'], ['migrate', '--app-role'], ['migrate', '--rol', 'x']])
      expect(await run(argv, 'postgres://x@h/db'), argv.join(' ')).toBe(2);
    expect(lines.at(-1)).toMatch(/^Usage/);
  });
});

describe.skipIf(!base)('the application role on PostgreSQL (L2)', () => {
  let admin: Db;
  let owner: Db | undefined;
  let appDb: Db | undefined;
  let t: TestApp | undefined;
  let opApp: FastifyInstance | undefined;

  beforeAll(async () => {
    admin = await openDb({ databaseUrl: base! });
    // What the database administrator does once (docs/production.md#database-roles).
    await admin.query(`CREATE ROLE ${OWNER} LOGIN`);
    await admin.query(`CREATE ROLE ${APP} LOGIN`);
    await admin.query(`CREATE SCHEMA ${SCHEMA} AUTHORIZATION ${OWNER}`);
  });
  afterAll(async () => {
    await opApp?.close();
    await t?.close(); // closes appDb
    await owner?.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    for (const role of [APP, OWNER]) {
      await admin.query(`DROP OWNED BY ${role}`);
      await admin.query(`DROP ROLE ${role}`);
    }
    await admin.close();
  });

  it('the release migrates as the owner and grants the application role', async () => {
    const code = await runDatabaseCommand(['migrate', '--app-role', APP], {
      databaseUrl: urlAs(OWNER),
      open: (databaseUrl) => openDb({ databaseUrl }),
      out,
    });
    expect(code).toBe(0);
    expect(JSON.parse(out.lines.at(-1)!)).toMatchObject({ ok: true, appRole: APP, schema: SCHEMA });
    owner = await openDb({ databaseUrl: urlAs(OWNER) });
    // Refused: the owner itself, a superuser.
    await expect(grantAppRole(owner, OWNER)).rejects.toThrow(/the tables' owner/);
    await expect(grantAppRole(owner, 'postgres')).rejects.toThrow(/superuser/);
  });

  it('the application role starts, and may not empty or change the audit log', async () => {
    // Nothing pending: it starts without creating anything.
    appDb = await openDb({ databaseUrl: urlAs(APP) });
    await appDb.query(
      `INSERT INTO case_audit (case_id, action, detail, at) VALUES (NULL, 'view', '{}', now())`,
    );
    expect((await appDb.query('SELECT action FROM case_audit')).rows).toEqual([{ action: 'view' }]);
    const refused = {
      truncate: await refusal(appDb, 'TRUNCATE case_audit'),
      disableTrigger: await refusal(
        appDb,
        'ALTER TABLE case_audit DISABLE TRIGGER case_audit_append_only',
      ),
      disableAll: await refusal(appDb, 'ALTER TABLE case_audit DISABLE TRIGGER ALL'),
      drop: await refusal(appDb, 'DROP TABLE case_audit'),
      update: await refusal(appDb, "UPDATE case_audit SET action = 'x'"),
      delete: await refusal(appDb, 'DELETE FROM case_audit'),
      truncateCases: await refusal(appDb, 'TRUNCATE cases CASCADE'),
      createTable: await refusal(appDb, 'CREATE TABLE mine (a int)'),
      migrations: await refusal(appDb, 'DELETE FROM schema_migrations'),
    };
    // 42501 insufficient_privilege: not the privilege, or not the owner.
    expect(refused).toEqual({
      truncate: '42501',
      disableTrigger: '42501',
      disableAll: '42501',
      drop: '42501',
      update: '42501',
      delete: '42501',
      truncateCases: '42501',
      createTable: '42501',
      migrations: '42501',
    });
    expect((await appDb.query('SELECT count(*)::int AS n FROM case_audit')).rows).toEqual([
      { n: 1 },
    ]);
    // A release whose migrations were not applied: the servers stop and say how.
    const last = '028_kyc_sealed_result.sql';
    await owner!.query('DELETE FROM schema_migrations WHERE name = $1', [last]);
    await expect(openDb({ databaseUrl: urlAs(APP) })).rejects.toThrow(
      `Migration ${last} is not applied and this database role may not apply it: run \`npm run database -- migrate --app-role <this role>\``,
    );
    await owner!.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last]);
    // The owner can (why the servers must not run as it): shown, and rolled back.
    await expect(
      owner!.transaction(async (tx) => {
        await tx.query('ALTER TABLE case_audit DISABLE TRIGGER case_audit_append_only');
        await tx.query('TRUNCATE case_audit');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
  });

  it('the application works as that role: a case opened, looked at, corrected, approved, registered, purged', async () => {
    const sms = new MemorySms();
    const kyc = new CaseKyc();
    const operators = loadOperatorsConfig(
      { OPERATOR_SESSION_IDLE_MINUTES: String(24 * 60), OPERATOR_SESSION_HOURS: '24' },
      'test',
    );
    t = await createTestApp({ deps: { db: appDb!, sms, kyc, operators } });
    await enrolOperators(t.ctx, t.clock);
    opApp = await operatorApp(t.ctx);
    const p = patient(() => t!, sms, kyc);
    const op = operatorCalls(() => opApp!);

    const { id, phone } = await p.reviewCase();
    expect((await op.post('ana', '/casos/tomar')).json().caseId).toBe(id);
    expect((await op.get('beto', `/casos/${id}`)).statusCode).toBe(403); // a refused look
    const corrected = await op.post('ana', `/casos/${id}/campos`, {
      field: 'Gender',
      value: 'F',
      reason: 'Lectura confirmada',
    });
    expect(corrected.statusCode).toBe(200);
    const digest = (await op.get('ana', `/casos/${id}`)).json().case.digest;
    const approved = await op.post('ana', `/casos/${id}/decision`, { decision: 'approve', digest });
    expect(approved.json()).toEqual({ success: true, outcome: 'approved' });
    const resumed = await p.resume(phone);
    expect(resumed).toMatchObject({ resumeAt: 'supplementary', idData: ID_DATA });
    const registered = await p.register(resumed, phone);
    expect(registered.statusCode).toBe(200);
    t.clock.advance(31 * 86_400_000);
    expect(await purgeCases(t.ctx)).toEqual({ expired: 0, purged: 1 });
    const { rows } = await appDb!.query<{ action: string }>(
      'SELECT action FROM case_audit ORDER BY id',
    );
    expect(rows.map((r) => r.action)).toEqual([
      'view', // the row inserted above
      'open',
      'claim',
      'refused',
      'correct',
      'view',
      'approve',
      'purge',
    ]);
  });
});
