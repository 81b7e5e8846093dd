import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { accessesResponse, myDataResponse } from '../../contract/my-data';
import { audit } from '../../server/cases/audit';
import { upsertPatient } from '../../server/patients/service';
import { useTestApp, type TestApp } from './helpers';
import { ANA, BETO, loginAs } from './my-data-patients';

describe('Mis datos: GET /api/mis-datos and /api/mis-datos/accesos (issue 45 items 1 and 3)', () => {
  const h = useTestApp();
  let t: TestApp;
  let ana: string;
  let beto: string;
  beforeEach(async () => {
    t = h.t;
    ana = (await upsertPatient(t.ctx, ANA)).id;
    beto = (await upsertPatient(t.ctx, BETO)).id;
  });

  const login = (p: typeof ANA, pin = p.pin) => loginAs(t, p, pin);
  const get = (url: string, sid?: string) =>
    t.app.inject({ method: 'GET', url, cookies: sid ? { sid } : {} });
  const data = async (sid: string) =>
    myDataResponse.parse((await get('/api/mis-datos', sid)).json());
  const accesses = async (sid: string) =>
    accessesResponse.parse((await get('/api/mis-datos/accesos', sid)).json()).accesses;

  /** A case of `patientId`'s registration (its KYC session), with a selfie still kept. */
  async function caseOf(patientId: string, session: string) {
    const id = randomUUID();
    const now = new Date(t.clock.now());
    await t.ctx.db.query(
      'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, $3)',
      [session, patientId, now],
    );
    await t.ctx.db.query(
      `INSERT INTO cases (id, kind, status, trigger, step, kyc_session_id, opened_at, expected_by, selfie, purge_after)
       VALUES ($1, 'review', 'approved', 'face_mismatch', 'selfie', $2, $3, $3, '\\x01'::bytea, $4)`,
      [id, session, now, new Date(now.getTime() + 30 * 86_400_000)],
    );
    return id;
  }
  async function operator(usuario: string, rol: 'revisor' | 'supervisor') {
    const id = randomUUID();
    await t.ctx.db.query(
      `INSERT INTO operators (id, usuario, nombre, rol, user_handle, created_at) VALUES ($1, $2, $3, $4, $5, now())`,
      [id, usuario, `Nombre de ${usuario}`, rol, randomUUID()],
    );
    return { id, usuario };
  }

  it('answers 401 without a live session, and names no patient anywhere in the request', async () => {
    for (const url of ['/api/mis-datos', '/api/mis-datos/accesos']) {
      const res = await get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        success: false,
        message: expect.stringMatching(/Ingresá/),
      });
      expect((await get(url, 'forged')).statusCode).toBe(401);
    }
  });

  it("shows the patient's own fields, mobile, registration and face, and logs the look", async () => {
    const sid = (await login(ANA))!;
    const mine = await data(sid);
    expect(mine.identity).toContainEqual({
      field: 'FullName',
      value: 'ANA RUIZ',
      source: 'engine',
    });
    expect(mine.identity).toContainEqual({
      field: 'DocumentNumber',
      value: '4567890',
      source: 'engine',
    });
    expect(mine.celular).toBe('0981555111');
    expect(mine.face).toEqual({ enrolled: false, since: null });
    expect(mine.evidence).toEqual([]);
    expect((await accesses(sid)).map((a) => a.kind)).toEqual(['my_data', 'login']);
  });

  it('lists logins right and wrong, PIN never stored; an unknown number writes nothing', async () => {
    await login(ANA, '000000');
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { numero_documento: '9999999', pin: '111111' },
    });
    const sid = (await login(ANA))!;
    const list = await accesses(sid);
    expect(list.map((a) => [a.kind, a.result])).toEqual([
      ['login', 'ok'],
      ['login', 'failed'],
    ]);
    const { rows } = await t.ctx.db.query<Record<string, unknown>>(
      'SELECT * FROM patient_access_log',
    );
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toMatch(/739154|000000|111111|9999999/);
  });

  it('each patient sees only their own rows (two patients, two cases)', async () => {
    const op = await operator('ana.revisora', 'revisor');
    const caseAna = await caseOf(ana, 'kyc-ana');
    const caseBeto = await caseOf(beto, 'kyc-beto');
    const at = new Date(t.clock.now());
    await audit(t.ctx.db, { caseId: caseAna, actor: op, action: 'view', at });
    await audit(t.ctx.db, { caseId: caseBeto, actor: op, action: 'view', at });
    await audit(t.ctx.db, { caseId: caseBeto, actor: op, action: 'image:selfie', at });
    const sidAna = (await login(ANA))!;
    const sidBeto = (await login(BETO))!;
    const anaList = await accesses(sidAna);
    const betoList = await accesses(sidBeto);
    expect(anaList.filter((a) => a.kind.startsWith('case_'))).toHaveLength(1);
    expect(betoList.filter((a) => a.kind.startsWith('case_'))).toHaveLength(2);
    expect(anaList.filter((a) => a.kind === 'login')).toHaveLength(1);
    expect(betoList.filter((a) => a.kind === 'login')).toHaveLength(1);
    // The operator is a role, never a name or a user.
    const body = JSON.stringify(betoList);
    expect(body).not.toMatch(/ana\.revisora|Nombre de/);
    expect(betoList).toContainEqual(
      expect.objectContaining({ kind: 'case_image', role: 'revisor', what: 'selfie' }),
    );
  });

  it("every look of the back office at the patient's case appears in 'Quién vio' (counts equal)", async () => {
    const ana1 = await operator('revisora', 'revisor');
    const sup = await operator('supervisora', 'supervisor');
    const caseId = await caseOf(ana, 'kyc-ana');
    const at = () => new Date(t.clock.now());
    const looks: Array<[typeof ana1, `image:${string}` | 'view' | 'lookup']> = [
      [ana1, 'view'],
      [ana1, 'image:selfie'],
      [ana1, 'image:front'],
      [sup, 'view'],
      [sup, 'image:back'],
      [sup, 'lookup'],
    ];
    for (const [actor, action] of looks) {
      t.clock.advance(1000);
      await audit(t.ctx.db, { caseId, actor, action, at: at() });
    }
    // Not looks: a correction, a claim, an approval.
    await audit(t.ctx.db, {
      caseId,
      actor: ana1,
      action: 'correct',
      detail: { field: 'Gender' },
      at: at(),
    });
    await audit(t.ctx.db, { caseId, actor: ana1, action: 'claim', at: at() });
    await audit(t.ctx.db, { caseId, actor: sup, action: 'approve', at: at() });

    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM case_audit
        WHERE case_id = $1 AND (action IN ('view', 'lookup') OR action LIKE 'image:%')`,
      [caseId],
    );
    const sid = (await login(ANA))!;
    const shown = (await accesses(sid)).filter((a) => a.kind.startsWith('case_'));
    expect(shown).toHaveLength(rows[0]!.n);
    expect(rows[0]!.n).toBe(looks.length);
    expect(shown.map((a) => a.role).sort()).toEqual([
      'revisor',
      'revisor',
      'revisor',
      'supervisor',
      'supervisor',
      'supervisor',
    ]);

    // The corrected field is the person's; the selfie is kept until the case's purge.
    const mine = await data(sid);
    expect(mine.identity).toContainEqual(
      expect.objectContaining({ field: 'Gender', source: 'person' }),
    );
    expect(mine.evidence).toEqual([
      { parts: ['selfie'], until: new Date(FakeStart + 30 * 86_400_000).toISOString() },
    ]);
  });

  it('the access log is append-only', async () => {
    await login(ANA);
    await expect(t.ctx.db.query('DELETE FROM patient_access_log')).rejects.toThrow(/append-only/);
    await expect(t.ctx.db.query("UPDATE patient_access_log SET result = 'failed'")).rejects.toThrow(
      /append-only/,
    );
  });
});

const FakeStart = Date.parse('2025-03-03T12:00:00Z');
