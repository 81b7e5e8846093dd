import AdmZip from 'adm-zip';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessesResponse } from '../../contract/my-data';
import { upsertPatient } from '../../server/patients/service';
import { recoveryIdle } from '../../server/recovery/service';
import { MemorySms, testRecoverySettings, useTestApp } from './helpers';
import { ANA, loginAs } from './my-data-patients';

/**
 * Issue 45 item 3: a failed PIN recovery for a patient's cédula number (a wrong code, a mobile that
 * is not theirs, too many tries) is in 'Quién vio mis datos' as pin_recovery / failed, written by the
 * same statements whether the number is registered or not.
 */
const sms = new MemorySms();
const h = useTestApp({
  deps: { sms, recovery: { ...testRecoverySettings(), validationsPerDocumentPerHour: 3 } },
  env: { LOGIN_IP_MAX_FAILURES: '1000' },
});
const UNKNOWN = '7654321';

const post = (url: string, payload: object) =>
  h.t.app.inject({ method: 'POST', url: `/api/auth${url}`, payload, remoteAddress: '10.0.0.7' });
const send = async (documento: string, celular: string) => {
  expect((await post('/send-pin-otp', { numero_documento: documento, celular })).statusCode).toBe(
    200,
  );
  await recoveryIdle(h.t.ctx);
};
const validate = (documento: string, celular: string, otp: string) =>
  post('/validate-pin-otp', { numero_documento: documento, celular, otp });
const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

async function recoveries(): Promise<string[]> {
  const sid = (await loginAs(h.t, ANA))!;
  lastSid = sid;
  const res = await h.t.app.inject({
    method: 'GET',
    url: '/api/mis-datos/accesos',
    cookies: { sid },
  });
  return accessesResponse
    .parse(res.json())
    .accesses.filter((a) => a.kind === 'pin_recovery')
    .map((a) => a.result);
}

let lastSid = '';
afterEach(() => vi.restoreAllMocks());

describe("failed PIN recoveries in 'Quién vio mis datos' (issue 45 item 3)", () => {
  it('a wrong code, a mobile not the patient’s and too many tries are listed as failed; a right code is not', async () => {
    await upsertPatient(h.t.ctx, ANA);
    await send(ANA.numero_documento, ANA.celular);
    const code = sms.lastCode(ANA.celular);
    expect((await validate(ANA.numero_documento, ANA.celular, wrong(code))).statusCode).toBe(401);
    // Another mobile for Ana's number: an attempt on her cédula, whoever holds that mobile.
    expect((await validate(ANA.numero_documento, '0982000111', code)).statusCode).toBe(401);
    expect(await recoveries()).toEqual(['failed', 'failed']);

    // The pair's budget (3 an hour) spent: 429, listed too.
    expect((await validate(ANA.numero_documento, ANA.celular, wrong(code))).statusCode).toBe(401);
    expect((await validate(ANA.numero_documento, ANA.celular, wrong(code))).statusCode).toBe(401);
    expect((await validate(ANA.numero_documento, ANA.celular, code)).statusCode).toBe(429);
    expect(await recoveries()).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);

    // An hour later the right code gives a grant: no failure written (the PIN changed is 'ok').
    h.t.clock.advance(61 * 60_000);
    await send(ANA.numero_documento, ANA.celular);
    const fresh = sms.lastCode(ANA.celular);
    expect((await validate(ANA.numero_documento, ANA.celular, fresh)).statusCode).toBe(200);
    expect(await recoveries()).toHaveLength(5);
    const rows = JSON.stringify((await h.t.ctx.db.query('SELECT * FROM patient_access_log')).rows);
    expect(rows).not.toContain(code);
    expect(rows).not.toContain(ANA.celular);

    // The download's summary says it in words, not as a code.
    const asked = await h.t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/descarga',
      cookies: { sid: lastSid },
    });
    const file = await h.t.app.inject({
      method: 'GET',
      url: `/api/mis-datos/descarga?t=${encodeURIComponent(asked.json().token)}`,
      cookies: { sid: lastSid },
    });
    const html = new AdmZip(file.rawPayload).readAsText('resumen.html');
    expect(html).toContain('Intento de recuperar tu PIN con un código por SMS</td>');
  });

  it('a known and an unknown number run the same statements (nothing in the time or the answer)', async () => {
    await upsertPatient(h.t.ctx, ANA);
    const statements = async (documento: string) => {
      const seen: string[] = [];
      const spy = vi.spyOn(h.t.ctx.db, 'query');
      const res = await validate(documento, ANA.celular, '123456');
      for (const [sql] of spy.mock.calls) seen.push(String(sql));
      spy.mockRestore();
      return { seen, status: res.statusCode, body: res.body };
    };
    const known = await statements(ANA.numero_documento);
    const unknown = await statements(UNKNOWN);
    expect(known.seen.some((s) => s.includes('patient_access_log'))).toBe(true);
    expect(unknown.seen).toEqual(known.seen);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toBe(known.body);
    // Only the registered number's patient got a row.
    const { rows } = await h.t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM patient_access_log WHERE kind = 'pin_recovery'",
    );
    expect(rows[0]!.n).toBe(1);
  });
});
