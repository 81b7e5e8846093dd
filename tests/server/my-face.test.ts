import { beforeEach, describe, expect, it } from 'vitest';
import { accessesResponse } from '../../contract/my-data';
import { myFaceCodeResponse, myFacePaths, myFaceResponse } from '../../contract/my-face';
import { enrollFace } from '../../server/identity/store';
import { upsertPatient } from '../../server/patients/service';
import { MemorySms, useTestApp, type TestApp } from './helpers';

/** 'Mi rostro' (issue 45 item 4) through HTTP: lock, unlock with PIN and SMS code, withdraw. */

const ANA = {
  numero_documento: '4567891',
  pin: '739154',
  nombre: 'ANA',
  apellido: 'RUIZ',
  celular: '0981555311',
};
const BETO = {
  numero_documento: '5678902',
  pin: '628143',
  nombre: 'BETO',
  apellido: 'SOSA',
  celular: '0981555322',
};

/** A unit-length face description, different per seed. */
const face = (seed: number) =>
  Array.from({ length: 1024 }, (_, i) => Math.sin(seed * 7.3 + i * 0.37) / Math.sqrt(512));

describe('Mi rostro: /api/mis-datos/rostro (issue 45 item 4)', () => {
  const h = useTestApp({ deps: { sms: new MemorySms() } });
  let t: TestApp;
  let ana: string;
  let beto: string;
  const sms = () => t.ctx.sms as MemorySms;
  beforeEach(async () => {
    t = h.t;
    ana = (await upsertPatient(t.ctx, ANA)).id;
    beto = (await upsertPatient(t.ctx, BETO)).id;
    await enrollFace(t.ctx.db, ana, face(1));
    await enrollFace(t.ctx.db, beto, face(2));
  });

  const login = async (p: typeof ANA) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { numero_documento: p.numero_documento, pin: p.pin },
    });
    expect(res.statusCode).toBe(200);
    return res.cookies.find((c) => c.name === 'sid')!.value;
  };
  const call = (sid: string | undefined, url: string, payload?: object) =>
    t.app.inject({
      method: payload === undefined && url === myFacePaths.state ? 'GET' : 'POST',
      url,
      ...(payload === undefined ? {} : { payload }),
      cookies: sid ? { sid } : {},
    });
  const stateOf = async (sid: string) =>
    myFaceResponse.parse((await call(sid, myFacePaths.state)).json()).face;
  const lockedAt = async (id: string) =>
    (
      await t.ctx.db.query<{ at: Date | null }>(
        'SELECT face_locked_at AS at FROM patients WHERE id = $1',
        [id],
      )
    ).rows[0]!.at;
  const log = async (id: string) =>
    (
      await t.ctx.db.query<{ kind: string; result: string }>(
        `SELECT kind, result FROM patient_access_log WHERE patient_id = $1 AND kind LIKE 'face_%'
          ORDER BY id`,
        [id],
      )
    ).rows;

  it('locks without a code, unlocks with the PIN and the SMS code; all in the log', async () => {
    const sid = await login(ANA);
    expect(await stateOf(sid)).toMatchObject({
      enrolled: true,
      locked: false,
      celular: '•••••••311',
    });
    const locked = await call(sid, myFacePaths.lock, {});
    expect(locked.statusCode).toBe(200);
    expect(myFaceResponse.parse(locked.json()).face).toMatchObject({ locked: true });
    // Locking again changes nothing and logs nothing more.
    expect((await call(sid, myFacePaths.lock, {})).statusCode).toBe(200);

    const sent = await call(sid, myFacePaths.sendCode, {});
    expect(sent.statusCode).toBe(200);
    expect(myFaceCodeResponse.parse(sent.json()).resendAfterSeconds).toBe(30);
    expect(sms().sent.at(-1)).toMatchObject({ to: ANA.celular, purpose: 'face_unlock' });
    expect(sms().sent.at(-1)!.body).toContain('para desbloquear tu rostro');
    const code = sms().lastCode(ANA.celular);

    const wrongPin = await call(sid, myFacePaths.unlock, { pin: '111111', otp: code });
    expect(wrongPin.statusCode).toBe(400);
    expect(wrongPin.json().message).toMatch(/PIN no es correcto/);
    const wrongCode = await call(sid, myFacePaths.unlock, {
      pin: ANA.pin,
      otp: code === '000000' ? '000001' : '000000',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toMatch(/Código incorrecto/);
    expect(wrongCode.json().reason).toBe('wrong_otp');
    expect(wrongPin.json().reason).toBeUndefined();
    expect(await lockedAt(ana)).not.toBeNull();

    const ok = await call(sid, myFacePaths.unlock, { pin: ANA.pin, otp: code });
    expect(ok.statusCode).toBe(200);
    expect(myFaceResponse.parse(ok.json()).face).toMatchObject({ locked: false, lockedAt: null });
    // The code is single use.
    await call(sid, myFacePaths.lock, {});
    expect((await call(sid, myFacePaths.unlock, { pin: ANA.pin, otp: code })).statusCode).toBe(400);

    expect(await log(ana)).toEqual([
      { kind: 'face_lock', result: 'ok' },
      { kind: 'face_unlock', result: 'failed' },
      { kind: 'face_unlock', result: 'failed' },
      { kind: 'face_unlock', result: 'ok' },
      { kind: 'face_lock', result: 'ok' },
      { kind: 'face_unlock', result: 'failed' },
    ]);
    // 'Quién vio mis datos' lists them; no PIN or code is in the log's rows.
    const list = accessesResponse.parse(
      (await t.app.inject({ url: '/api/mis-datos/accesos', cookies: { sid } })).json(),
    );
    expect(list.accesses.filter((a) => a.kind.startsWith('face_'))).toHaveLength(6);
    const rows = JSON.stringify((await t.ctx.db.query('SELECT * FROM patient_access_log')).rows);
    expect(rows).not.toContain(code);
    expect(rows).not.toContain(ANA.pin);
  });

  it("one patient cannot lock, unlock or withdraw another's face", async () => {
    const anaSid = await login(ANA);
    const betoSid = await login(BETO);
    await call(betoSid, myFacePaths.lock, {});
    // Ana's calls act on Ana only, whatever the body says.
    await call(anaSid, myFacePaths.lock, {
      patientId: beto,
      numero_documento: BETO.numero_documento,
    });
    await call(betoSid, myFacePaths.sendCode, {});
    const betoCode = sms().lastCode(BETO.celular);
    const cross = await call(anaSid, myFacePaths.unlock, { pin: BETO.pin, otp: betoCode });
    expect(cross.statusCode).toBe(400);
    expect(await lockedAt(beto)).not.toBeNull();
    const withdraw = await call(anaSid, myFacePaths.withdraw, { pin: BETO.pin });
    expect(withdraw.statusCode).toBe(400);
    expect(await stateOf(betoSid)).toMatchObject({ enrolled: true, locked: true });
    // Beto's own code still works for Beto: Ana's wrong tries were under her own document.
    const ok = await call(betoSid, myFacePaths.unlock, { pin: BETO.pin, otp: betoCode });
    expect(ok.statusCode).toBe(200);
    expect(await stateOf(anaSid)).toMatchObject({ enrolled: true, locked: true });
  });

  it('concurrent unlock tries cannot exceed the tries of a code', async () => {
    const sid = await login(ANA);
    await call(sid, myFacePaths.lock, {});
    await call(sid, myFacePaths.sendCode, {});
    const code = sms().lastCode(ANA.celular);
    const wrong = code === '123456' ? '654321' : '123456';
    const max = t.ctx.onboarding.otp.maxWrongPerCode;
    const answers = await Promise.all(
      Array.from({ length: max + 4 }, () =>
        call(sid, myFacePaths.unlock, { pin: ANA.pin, otp: wrong }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 400 || a.statusCode === 429)).toBe(true);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT failed_attempts AS n FROM otp_codes WHERE purpose = 'face_unlock'`,
    );
    expect(rows[0]!.n).toBeLessThanOrEqual(max);
    // The code is dead from here: even the right one no longer unlocks.
    const late = await call(sid, myFacePaths.unlock, { pin: ANA.pin, otp: code });
    expect(late.statusCode).toBeGreaterThanOrEqual(400);
    expect(await lockedAt(ana)).not.toBeNull();
  });

  it('wrong PINs count against the login lockout', async () => {
    const sid = await login(ANA);
    const lockAfter = t.ctx.config.login.lockAfter;
    const statuses: number[] = [];
    for (let i = 0; i < lockAfter + 1; i++)
      statuses.push((await call(sid, myFacePaths.withdraw, { pin: '111111' })).statusCode);
    expect(statuses.at(-1)).toBe(429);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { numero_documento: ANA.numero_documento, pin: ANA.pin },
    });
    expect(res.statusCode).toBe(429);
    expect(await stateOf(sid)).toMatchObject({ enrolled: true });
  });

  it('withdraws with the PIN: the enrolment goes, the lock with it; PIN login goes on', async () => {
    const sid = await login(ANA);
    await call(sid, myFacePaths.lock, {});
    const res = await call(sid, myFacePaths.withdraw, { pin: ANA.pin });
    expect(res.statusCode).toBe(200);
    expect(myFaceResponse.parse(res.json()).face).toEqual({
      enrolled: false,
      since: null,
      locked: false,
      lockedAt: null,
      celular: '•••••••311',
    });
    const { rows } = await t.ctx.db.query('SELECT 1 FROM face_enrollments WHERE patient_id = $1', [
      ana,
    ]);
    expect(rows).toHaveLength(0);
    expect(await lockedAt(ana)).toBeNull();
    // Nothing to lock, unlock or withdraw now: a clear 409.
    for (const url of [myFacePaths.lock, myFacePaths.sendCode, myFacePaths.withdraw]) {
      const again = await call(sid, url, url === myFacePaths.withdraw ? { pin: ANA.pin } : {});
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/No tenés un rostro registrado/);
    }
    expect(await log(ana)).toEqual([
      { kind: 'face_lock', result: 'ok' },
      { kind: 'face_withdraw', result: 'ok' },
    ]);
    await login(ANA);
  });

  it('bad input and no session are Spanish 4xx, never a 500', async () => {
    const sid = await login(ANA);
    for (const url of Object.values(myFacePaths)) {
      const none = await call(undefined, url, url === myFacePaths.state ? undefined : {});
      expect(none.statusCode).toBe(401);
      expect(none.json().message).toMatch(/Tu sesión terminó/);
    }
    await call(sid, myFacePaths.lock, {});
    for (const body of [{}, { pin: '12' }, { pin: 123456 }, { pin: '739154', otp: 'abc' }, []]) {
      const res = await call(sid, myFacePaths.unlock, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Ingresá/);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: myFacePaths.withdraw,
      headers: { 'content-type': 'application/json' },
      payload: '{"pin":',
      cookies: { sid },
    });
    expect(notJson.statusCode).toBe(400);
    sms().fail = true;
    const down = await call(sid, myFacePaths.sendCode, {});
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toMatch(/No pudimos enviar el SMS/);
  });
});
