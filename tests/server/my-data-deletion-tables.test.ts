import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { audit } from '../../server/cases/audit';
import { ERASED_TABLES, KEPT_TABLES } from '../../server/my-data/deletion-erase';
import { runDueDeletions } from '../../server/my-data/deletion-job';
import { MemorySms, useTestApp, type TestApp } from './helpers';
import { ANA, deletionClient, seedBoth, WAIT_MS } from './my-data-deletion.fixtures';

/** Columns that can name a patient: a table holding one is either erased or kept with a reason. */
const IDENTIFYING = [
  'patient_id',
  'duplicate_of',
  'numero_documento',
  'celular',
  'email',
  'nombre',
  'apellido',
  'fecha_nacimiento',
  'pin_hash',
  'session_id',
  'kyc_session_id',
  'decision_session_id',
  'selfie',
  'selfie_photo',
  'photo',
  'embedding',
  'key',
];

describe("'Eliminar mi cuenta': every table that can name a patient (issue 45 item 6)", () => {
  const h = useTestApp({
    deps: { sms: new MemorySms(), deletion: { waitMs: WAIT_MS, checkEveryMs: 3_600_000 } },
  });
  let t: TestApp;
  beforeEach(() => {
    t = h.t;
  });

  const identifyingColumns = async () => {
    const { rows } = await t.ctx.db.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables tb
           ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE'
          AND c.column_name = ANY($1) ORDER BY 1, 2`,
      [IDENTIFYING],
    );
    const byTable = new Map<string, string[]>();
    for (const r of rows)
      byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
    return byTable;
  };

  it('lists every table with an identifying column as erased or kept (a new table fails here)', async () => {
    const tables = await identifyingColumns();
    const listed = new Set([...Object.keys(ERASED_TABLES), ...Object.keys(KEPT_TABLES)]);
    const forgotten = [...tables.keys()].filter((name) => !listed.has(name));
    expect(forgotten).toEqual([]);
    const { rows } = await t.ctx.db.query<{ tablename: string }>(
      'SELECT tablename FROM pg_tables WHERE schemaname = current_schema()',
    );
    const existing = new Set(rows.map((r) => r.tablename));
    expect([...listed].filter((name) => !existing.has(name))).toEqual([]);
  });

  it('after a deletion only the kept tables hold rows naming the patient (listed)', async () => {
    const c = deletionClient(t);
    const { ana } = await seedBoth(t);
    const db = t.ctx.db;
    const kyc = randomUUID();
    const earlier = randomUUID();
    const draft = randomUUID();
    const caseId = randomUUID();
    for (const id of [kyc, earlier])
      await db.query(
        `INSERT INTO kyc_sessions (id, decider, status, liveness_state, selfie_photo, expires_at)
         VALUES ($1, 'blink', 'completed', '{}', '\\x01'::bytea, now())`,
        [id],
      );
    await db.query(`INSERT INTO kyc_evidence (session_id, selfie) VALUES ($1, '\\x01'::bytea)`, [
      kyc,
    ]);
    await db.query(
      'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, now())',
      [kyc, ana],
    );
    await db.query(
      `INSERT INTO registration_drafts (id, celular, email, pin_hash, kyc_session_id, earlier_kyc_sessions,
                                        created_at, updated_at, expires_at)
       VALUES ($1, $2, 'ana@example.com', 'h', $3, ARRAY[$4], now(), now(), now())`,
      [draft, ANA.celular, kyc, earlier],
    );
    await db.query(
      `INSERT INTO cases (id, draft_id, celular, kind, status, trigger, step, kyc_session_id, opened_at, expected_by, selfie)
       VALUES ($1, $2, $3, 'review', 'open', 'face_mismatch', 'selfie', $4, now(), now(), '\\x01'::bytea)`,
      [caseId, draft, ANA.celular, kyc],
    );
    await audit(db, { caseId, actor: null, action: 'expire', at: new Date(t.clock.now()) });
    await db.query(
      `INSERT INTO face_enrollments (patient_id, embedding, model) VALUES ($1, array_fill(0.1::real, ARRAY[4]), 'm')`,
      [ana],
    );
    await db.query(
      `INSERT INTO face_auth_sessions (session_id, client_key, stage, patient_id, created_at)
       VALUES ($1, 'k', 'decided', $2, now())`,
      [earlier, ana],
    );
    await db.query(
      'INSERT INTO patient_secondary_use (patient_id, opted_out, changed_at) VALUES ($1, true, now())',
      [ana],
    );
    await db.query(
      `INSERT INTO my_data_downloads (patient_id, status, requested_at, expires_at)
       VALUES ($1, 'building', now(), now())`,
      [ana],
    );
    await c.login(ANA, '000009'); // a failed login: the ledger and the address's counter
    const sid = (await c.sidOf(ANA))!;
    expect((await c.ask(ANA, sid)).statusCode).toBe(200);
    t.clock.advance(WAIT_MS);
    expect(await runDueDeletions(t.ctx)).toBe(1);

    const sessions = [kyc, earlier];
    const tables = await identifyingColumns();
    const remaining: string[] = [];
    for (const [table, columns] of tables) {
      const where = columns.map((col) => {
        if (col === 'patient_id' || col === 'duplicate_of') return `${col}::text = $1`;
        if (col === 'numero_documento') return `${col} = $2`;
        if (col === 'celular') return `${col} = $3`;
        if (col === 'key')
          return `($2 = ANY(regexp_split_to_array(key, '[:@]')) OR $3 = ANY(regexp_split_to_array(key, '[:@]')))`;
        if (col.endsWith('session_id')) return `${col}::text = ANY($4)`;
        if (col === 'email') return `${col} = 'ana@example.com'`;
        if (col === 'nombre') return `${col} = 'ANA'`;
        if (col === 'apellido') return `${col} = 'RUIZ'`;
        return 'false';
      });
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE (${where.join(' OR ')})
            AND $1::text || $2::text || $3::text || cardinality($4::text[]) IS NOT NULL`,
        [ana, ANA.numero_documento, ANA.celular, sessions],
      );
      if (rows[0]!.n) remaining.push(`${table}: ${rows[0]!.n}`);
    }
    // The case's audit rows name a case id that no longer exists.
    const auditRows = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM case_audit WHERE case_id = $1',
      [caseId],
    );
    remaining.push(`case_audit (by the deleted case's id): ${auditRows.rows[0]!.n}`);
    console.log(`rows naming the deleted patient:\n  ${remaining.join('\n  ')}`);
    const tablesLeft = remaining.map((line) => line.split(/[: ]/)[0]!);
    expect(tablesLeft.filter((name) => !(name in KEPT_TABLES))).toEqual([]);
  });
});
