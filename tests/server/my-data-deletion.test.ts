import { beforeEach, describe, expect, it } from 'vitest';
import { deletionStatusResponse } from '../../contract/my-data-deletion';
import { messages } from '../../server/http/messages';
import { runDueDeletions } from '../../server/my-data/deletion-job';
import { insertRegisteredPatient } from '../../server/patients/service';
import { MemorySms, useTestApp, type TestApp } from './helpers';
import { ANA, BETO, deletionClient, seedBoth, WAIT_MS } from './my-data-deletion.fixtures';

describe("'Eliminar mi cuenta' (issue 45 item 6): routes, wait, job", () => {
  const h = useTestApp({
    deps: { sms: new MemorySms(), deletion: { waitMs: WAIT_MS, checkEveryMs: 3_600_000 } },
  });
  let t: TestApp;
  let c: ReturnType<typeof deletionClient>;
  let ids: { ana: string; beto: string };
  beforeEach(async () => {
    t = h.t;
    c = deletionClient(t);
    ids = await seedBoth(t);
  });
  const log = async (patientId: string) =>
    (
      await t.ctx.db.query<{ kind: string; result: string }>(
        'SELECT kind, result FROM patient_access_log WHERE patient_id = $1 ORDER BY id',
        [patientId],
      )
    ).rows.map((r) => `${r.kind}:${r.result}`);
  const patientExists = async (id: string) =>
    (await t.ctx.db.query('SELECT 1 FROM patients WHERE id = $1', [id])).rows.length === 1;

  it('answers 401 without a session and 400 with a Spanish message for bad input', async () => {
    for (const res of [
      await c.status(undefined),
      await c.askCode(undefined, ANA.pin),
      await c.confirm(undefined, '123456'),
      await c.cancel(undefined),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/Ingresá de nuevo/);
    }
    const sid = await c.sidOf(ANA);
    const badPin = await c.askCode(sid, 'abc');
    expect(badPin.statusCode).toBe(400);
    expect(badPin.json().message).toMatch(/PIN de 6 dígitos/);
    const noCode = await t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/eliminar',
      cookies: { sid: sid! },
      payload: { codigo: '12ab' },
    });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toMatch(/código de 6 dígitos/);
  });

  it("a wrong PIN is 403, counted by login's lockout and logged; no SMS goes out", async () => {
    const sid = await c.sidOf(ANA);
    const res = await c.askCode(sid, '000001');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/PIN no es correcto/);
    const guard = await t.ctx.db.query<{ n: number }>(
      'SELECT consecutive_failures AS n FROM login_guards WHERE numero_documento = $1',
      [ANA.numero_documento],
    );
    expect(guard.rows[0]?.n).toBe(1);
    expect(c.sms.sent).toHaveLength(0);
    expect(await log(ids.ana)).toEqual(['login:ok', 'deletion_request:failed']);
  });

  it('asks with PIN and code, waits, cancels, asks again; the job deletes when due', async () => {
    const sid = (await c.sidOf(ANA))!;
    expect((await c.askCode(sid, ANA.pin)).statusCode).toBe(200);
    expect(c.sms.sent.at(-1)).toMatchObject({ to: ANA.celular, purpose: 'account_deletion' });
    expect(c.sms.sent.at(-1)!.body).toMatch(/para eliminar tu cuenta/);
    const wrong = await c.confirm(
      sid,
      c.sms.lastCode(ANA.celular) === '000000' ? '111111' : '000000',
    );
    expect(wrong.statusCode).toBe(400);
    const asked = await c.confirm(sid, c.sms.lastCode(ANA.celular));
    expect(asked.statusCode).toBe(200);
    const due = new Date(t.clock.now() + WAIT_MS).toISOString();
    expect(deletionStatusResponse.parse(asked.json()).deletion).toEqual({ dueAt: due });
    expect(c.sms.sent.at(-1)!.body).toMatch(/pediste eliminar tu cuenta.*cancelar/);
    expect(c.sms.sent.at(-1)!.body).not.toMatch(/ANA|RUIZ|4567890/);
    expect((await c.status(sid)).json().deletion).toEqual({ dueAt: due });

    // During the wait the patient still logs in, and nothing is deleted before its time.
    t.clock.advance(WAIT_MS - 1000);
    const later = (await c.sidOf(ANA))!;
    expect(await runDueDeletions(t.ctx)).toBe(0);
    expect((await c.cancel(later)).json()).toEqual({
      success: true,
      deletion: null,
      waitHours: 24,
    });
    expect((await c.cancel(later)).statusCode).toBe(409);
    t.clock.advance(2000);
    expect(await runDueDeletions(t.ctx)).toBe(0);
    expect(await patientExists(ids.ana)).toBe(true);

    t.clock.advance(60_000); // the codes' resend wait
    expect((await c.ask(ANA, later)).statusCode).toBe(200);
    t.clock.advance(WAIT_MS);
    const live = (await c.sidOf(ANA))!; // still allowed until the job runs
    expect((await c.status(live)).json().deletion).not.toBeNull();
    expect(await runDueDeletions(t.ctx)).toBe(1);
    expect(await patientExists(ids.ana)).toBe(false);
    expect(await patientExists(ids.beto)).toBe(true);
    expect((await c.status(live)).statusCode).toBe(401);
    const sessions = await t.ctx.db.query('SELECT 1 FROM sessions WHERE patient_id = $1', [
      ids.ana,
    ]);
    expect(sessions.rows).toHaveLength(0);

    // Login refused exactly as for an unknown document.
    const refused = await c.login(ANA);
    const unknown = await c.login({ ...ANA, numero_documento: '7777777' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(unknown.json());
    expect(refused.json().message).toBe(messages.loginBadCredentials);

    const receipt = c.sms.sent.at(-1)!;
    expect(receipt).toMatchObject({ to: ANA.celular, purpose: 'account_deletion' });
    expect(receipt.body).toBe(
      'Tu cuenta del Portal del Paciente fue eliminada. Gracias por usar el servicio.',
    );
    expect(await log(ids.ana)).toEqual([
      'login:ok',
      'deletion_request:ok',
      'login:ok',
      'deletion_cancel:ok',
      'deletion_request:ok',
      'login:ok',
    ]);

    // The same document registers again from scratch.
    const again = await insertRegisteredPatient(
      t.ctx.db,
      {
        numero_documento: ANA.numero_documento,
        nombre: ANA.nombre,
        apellido: ANA.apellido,
        celular: ANA.celular,
        email: null,
        fecha_nacimiento: null,
        sexo: null,
        nacionalidad: null,
        estado_civil: null,
        tipo_sangre: null,
        direccion: null,
        ciudad_id: (await t.ctx.db.query<{ id: string }>('SELECT id FROM cities LIMIT 1')).rows[0]!
          .id,
        pin_hash: await t.ctx.pins.hash('502817'),
        terms_accepted_at: null,
        terms_version: null,
        privacy_version: null,
      },
      new Date(t.clock.now()),
    );
    expect(again).not.toBeNull();
    expect(again).not.toBe(ids.ana);
    expect((await c.login({ ...ANA, pin: '502817' })).statusCode).toBe(200);
  });

  it('a second request while one waits is 409; another patient cannot see or cancel it', async () => {
    const sid = (await c.sidOf(ANA))!;
    expect((await c.ask(ANA, sid)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await c.askCode(sid, ANA.pin)).statusCode).toBe(409);
    const sidBeto = (await c.sidOf(BETO))!;
    expect((await c.status(sidBeto)).json().deletion).toBeNull();
    expect((await c.cancel(sidBeto)).statusCode).toBe(409);
    expect((await c.status(sid)).json().deletion).not.toBeNull();
  });

  it('no mobile on file: 422 with the reason (a 409 makes the browser reload and lose it)', async () => {
    const sid = (await c.sidOf(ANA))!;
    await t.ctx.db.query('UPDATE patients SET celular = NULL WHERE id = $1', [ids.ana]);
    const res = await c.askCode(sid, ANA.pin);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/No tenemos un celular registrado/);
  });

  it('two confirmations at once make one request and one notice', async () => {
    const sid = (await c.sidOf(ANA))!;
    await c.askCode(sid, ANA.pin);
    const code = c.sms.lastCode(ANA.celular);
    const sent = c.sms.sent.length;
    const answers = await Promise.all([c.confirm(sid, code), c.confirm(sid, code)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const rows = await t.ctx.db.query('SELECT 1 FROM account_deletions WHERE patient_id = $1', [
      ids.ana,
    ]);
    expect(rows.rows).toHaveLength(1);
    expect(c.sms.sent.length - sent).toBe(1);
  });

  it('a cancel at the due moment and the job: never both; two runners delete once', async () => {
    const sid = (await c.sidOf(ANA))!;
    await c.ask(ANA, sid);
    t.clock.advance(WAIT_MS);
    const [cancelled, deleted] = await Promise.all([c.cancel(sid), runDueDeletions(t.ctx)]);
    const status = (
      await t.ctx.db.query<{ status: string }>(
        'SELECT status FROM account_deletions WHERE patient_id = $1',
        [ids.ana],
      )
    ).rows[0]!.status;
    if (cancelled.statusCode === 200) {
      expect([deleted, status, await patientExists(ids.ana)]).toEqual([0, 'cancelled', true]);
    } else {
      expect(cancelled.statusCode).toBe(401);
      expect([deleted, status, await patientExists(ids.ana)]).toEqual([1, 'done', false]);
    }

    const sidBeto = (await c.sidOf(BETO))!;
    await c.ask(BETO, sidBeto);
    t.clock.advance(WAIT_MS);
    const receipts = () => c.sms.sent.filter((s) => /fue eliminada/.test(s.body)).length;
    const before = receipts();
    const runs = await Promise.all([runDueDeletions(t.ctx), runDueDeletions(t.ctx)]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(receipts() - before).toBe(1);
  });

  it('a login whose PIN is checked while the job deletes the account gets 401, no session', async () => {
    const sid = (await c.sidOf(ANA))!;
    await c.ask(ANA, sid);
    t.clock.advance(WAIT_MS);
    const verify = t.ctx.pins.verify.bind(t.ctx.pins);
    let ran = 0;
    t.ctx.pins.verify = async (hash, pin) => {
      const ok = await verify(hash, pin);
      ran = await runDueDeletions(t.ctx); // between the PIN check and the session
      return ok;
    };
    try {
      const res = await c.login(ANA);
      expect(ran).toBe(1);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(messages.loginBadCredentials);
    } finally {
      t.ctx.pins.verify = verify;
    }
    expect((await t.ctx.db.query('SELECT 1 FROM sessions')).rows).toHaveLength(0);
  });
});
