import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../contract/common';
import { BANNED_PINS } from '../../contract/onboarding';
import { RECOVERY_GRANT_COOKIE } from '../../contract/recovery';
import { upsertPatient } from '../../server/patients/service';
import { recoveryIdle } from '../../server/recovery/service';
import { MemorySms, useTestApp } from './helpers';

// PIN recovery's API (issue 8): equal answers, the code's limits, the grant, set-new-pin.

const ANA = {
  numero_documento: '4567890',
  pin: '739154',
  nombre: 'ANA',
  apellido: 'RUIZ',
  celular: '0981555111',
};
const LUIS = { ...ANA, numero_documento: '5678901', pin: '628401', celular: '0982666222' };
const NEW_PIN = '270583';
const MIN = 60_000;
const HOUR = 60 * MIN;

const sms = new MemorySms();
// The delivery's random delay after each answer is recovery-timing.test.ts' subject; here it is kept
// short so that the tests sending a code 25 times do not wait 17 s for it.
const h = useTestApp({
  deps: { sms },
  env: {
    LOGIN_IP_MAX_FAILURES: '1000',
    RECOVERY_SMS_DELAY_MIN_MS: '0',
    RECOVERY_SMS_DELAY_MAX_MS: '20',
  },
});

type Res = Awaited<ReturnType<typeof h.t.app.inject>>;
const post = (url: string, payload: unknown, opts: { ip?: string; cookie?: string } = {}) =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/auth${url}`,
    payload: payload as object,
    remoteAddress: opts.ip ?? '10.0.0.1',
    ...(opts.cookie ? { cookies: { [RECOVERY_GRANT_COOKIE]: opts.cookie } } : {}),
  });
const send = async (documento: string, celular: string, ip?: string) => {
  const res = await post('/send-pin-otp', { numero_documento: documento, celular }, { ip });
  await recoveryIdle(h.t.ctx);
  return res;
};
const validate = (documento: string, celular: string, otp: string, ip?: string) =>
  post('/validate-pin-otp', { numero_documento: documento, celular, otp }, { ip });
const setPin = (documento: string, pin: string, grant?: string) =>
  post('/set-new-pin', { numero_documento: documento, pin }, grant ? { cookie: grant } : {});
const login = (documento: string, pin: string) =>
  h.t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { numero_documento: documento, pin },
    remoteAddress: '10.9.9.9',
  });
const grantOf = (res: Res) => res.cookies.find((c) => c.name === RECOVERY_GRANT_COOKIE);
const wrong = (code: string) => (code === '000000' ? '000001' : '000000');
const smsTo = (celular: string) => sms.sent.filter((s) => s.to === celular);

/** Steps 0 and 1 for a patient: the grant's cookie value. */
async function grantFor(p: typeof ANA): Promise<string> {
  expect((await send(p.numero_documento, p.celular)).statusCode).toBe(200);
  const res = await validate(p.numero_documento, p.celular, sms.lastCode(p.celular));
  expect(res.statusCode).toBe(200);
  return grantOf(res)!.value;
}

async function seed() {
  await upsertPatient(h.t.ctx, ANA);
  await upsertPatient(h.t.ctx, LUIS);
}

/** What an observer of one answer sees: status, body and headers but the per-response ones. */
function observable(res: Res) {
  const { date: _d, 'content-length': _l, 'set-cookie': cookie, ...headers } = res.headers;
  return { status: res.statusCode, body: res.json(), headers, cookie };
}

describe('POST /api/auth/send-pin-otp', () => {
  it('answers the same status, body and headers whether or not document and mobile match; SMS only when both do', async () => {
    await seed();
    const cases = {
      match: await send(ANA.numero_documento, ANA.celular, '10.0.0.1'),
      wrongMobile: await send(ANA.numero_documento, '0983777333', '10.0.0.2'),
      anotherPatientsMobile: await send(ANA.numero_documento, LUIS.celular, '10.0.0.3'),
      unknownDocument: await send('9999999', '0984888444', '10.0.0.4'),
      unknownDocumentKnownMobile: await send('9999998', ANA.celular.replace(/1$/, '2'), '10.0.0.5'),
    };
    const seen = Object.values(cases).map(observable);
    for (const o of seen) expect(o).toEqual(seen[0]);
    expect(seen[0]!.status).toBe(200);
    expect(seen[0]!.cookie).toBeUndefined();
    expect(seen[0]!.body).toEqual({
      success: true,
      message:
        'Si el número de documento y el celular coinciden con tu registro, te enviamos un código por SMS. Vence en 5 minutos.',
      resendAfterSeconds: 30,
    });
    expect(sms.sent.map((s) => s.to)).toEqual([ANA.celular]);
    expect(sms.sent[0]!.body).toMatch(/para recuperar tu PIN es \d{6}\. Vence en 5 minutos/);
    expect(sms.sent[0]!.purpose).toBe('pin_recovery');
  });

  it('accepts the mobile as 9 digits (981...) like 0981..., and stores the code only as an HMAC', async () => {
    await seed();
    expect((await send(ANA.numero_documento, ANA.celular.slice(1))).statusCode).toBe(200);
    const code = sms.lastCode(ANA.celular);
    const { rows } = await h.t.ctx.db.query('SELECT * FROM otp_codes');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('waits 30 s on the server clock between sends to one mobile, for real and unknown documents alike', async () => {
    await seed();
    expect((await send(ANA.numero_documento, ANA.celular)).statusCode).toBe(200);
    const again = await send(ANA.numero_documento, ANA.celular);
    const other = await send('9999999', '0984888444');
    const otherAgain = await send('9999999', '0984888444');
    expect(other.statusCode).toBe(200);
    for (const res of [again, otherAgain]) {
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('30');
      // The wait between two codes, not a fault (issue 43 item 8); the same for every pair.
      expect(res.json()).toEqual({
        success: false,
        message:
          'Si los datos coinciden con tu registro, ya te enviamos un código. Podés pedir otro en 30 segundos.',
      });
    }
    h.t.clock.advance(29_999);
    expect((await send(ANA.numero_documento, ANA.celular)).statusCode).toBe(429);
    h.t.clock.advance(1);
    const first = sms.lastCode(ANA.celular);
    expect((await send(ANA.numero_documento, ANA.celular)).statusCode).toBe(200);
    expect(smsTo(ANA.celular)).toHaveLength(2);
    // The resend supersedes the first code.
    const second = sms.lastCode(ANA.celular);
    if (first !== second)
      expect((await validate(ANA.numero_documento, ANA.celular, first)).statusCode).toBe(401);
  });

  it('caps sends per document and mobile (5 an hour, 10 a day), matching or not', async () => {
    await seed();
    for (const [d, [documento, celular]] of [
      [ANA.numero_documento, ANA.celular],
      ['9999999', '0985100000'],
    ].entries()) {
      for (let i = 0; i < 5; i++) {
        const res = await send(documento!, celular!, `10.1.${d}.${i}`);
        expect(res.statusCode).toBe(200);
        h.t.clock.advance(31_000);
      }
      const sixth = await send(documento!, celular!, `10.2.${d}.1`);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().message).toMatch(/^Demasiados intentos\. Esperá \d+ minutos/);
    }
    expect(smsTo(ANA.celular)).toHaveLength(5);
    // The day cap: 10.
    h.t.clock.advance(2 * HOUR);
    for (let i = 0; i < 5; i++) {
      expect((await send(ANA.numero_documento, ANA.celular, `10.3.0.${i}`)).statusCode).toBe(200);
      h.t.clock.advance(31_000);
    }
    h.t.clock.advance(2 * HOUR);
    expect((await send(ANA.numero_documento, ANA.celular, '10.4.0.1')).statusCode).toBe(429);
  });

  it("strangers' calls with other mobiles for a known document (or other documents for its mobile) never spend the real pair's budget", async () => {
    await seed();
    // Issue 21, item 4: random mobiles for ANA's document, from many addresses; ANA's mobile with
    // made-up documents.
    for (let i = 0; i < 12; i++) {
      const n = String(i).padStart(2, '0');
      expect((await send(ANA.numero_documento, `09851000${n}`, `10.8.0.${i}`)).statusCode).toBe(
        200,
      );
      expect((await send(`80000${n}`, ANA.celular, `10.8.1.${i}`)).statusCode).toBe(200);
    }
    expect(sms.sent).toEqual([]);
    const res = await send(ANA.numero_documento, ANA.celular, '10.8.2.1');
    expect(res.statusCode).toBe(200);
    expect(smsTo(ANA.celular)).toHaveLength(1);
  });

  it('caps sends per client address (20 an hour, shared with onboarding)', async () => {
    await seed();
    for (let i = 0; i < 20; i++) {
      const res = await send(
        `70000${String(i).padStart(2, '0')}`,
        `09860000${String(i).padStart(2, '0')}`,
        '10.5.0.1',
      );
      expect(res.statusCode).toBe(200);
    }
    expect((await send('7000099', '0986000099', '10.5.0.1')).statusCode).toBe(429);
    expect((await send('7000099', '0986000099', '10.5.0.2')).statusCode).toBe(200);
  });

  it('refuses bad input with a 400 and a Spanish message, before any lookup or SMS', async () => {
    await seed();
    const bad: [unknown, RegExp][] = [
      [{}, /documento/],
      [{ numero_documento: '12a4567', celular: ANA.celular }, /documento/],
      [{ numero_documento: '1234', celular: ANA.celular }, /documento/],
      [{ numero_documento: '1234567890123', celular: ANA.celular }, /documento/],
      [{ numero_documento: '4567890\u0000', celular: ANA.celular }, /documento|no son válidos/],
      [{ numero_documento: 4567890, celular: ANA.celular }, /documento/],
      [{ numero_documento: ANA.numero_documento }, /celular/],
      [{ numero_documento: ANA.numero_documento, celular: '+595981555111' }, /celular/],
      [{ numero_documento: ANA.numero_documento, celular: '09815551110' }, /celular/],
      [{ numero_documento: ANA.numero_documento, celular: '0211234567' }, /celular/],
      [{ numero_documento: ANA.numero_documento, celular: '0981 555 111' }, /celular/],
    ];
    for (const [body, message] of bad) {
      const res = await post('/send-pin-otp', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorResponse.parse(res.json()).message).toMatch(message);
    }
    const text = await h.t.app.inject({
      method: 'POST',
      url: '/api/auth/send-pin-otp',
      headers: { 'content-type': 'text/plain' },
      payload: 'numero_documento=1',
    });
    expect(text.statusCode).toBe(415);
    await recoveryIdle(h.t.ctx);
    expect(sms.sent).toEqual([]);
  });
});

describe('POST /api/auth/validate-pin-otp', () => {
  it('issues a 10-minute HttpOnly, SameSite=Strict grant cookie on the right code, stored only hashed', async () => {
    await seed();
    await send(ANA.numero_documento, ANA.celular);
    const res = await validate(ANA.numero_documento, ANA.celular, sms.lastCode(ANA.celular));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Código verificado. Ya podés elegir tu nuevo PIN.',
    });
    const cookie = grantOf(res)!;
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
      maxAge: 600,
    });
    const { rows } = await h.t.ctx.db.query('SELECT * FROM recovery_grants');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(cookie.value);
    expect(rows[0]).toMatchObject({ numero_documento: ANA.numero_documento });
  });

  it('answers a wrong code, an expired code and a reused code with the same 401 and no grant', async () => {
    await seed();
    await send(ANA.numero_documento, ANA.celular);
    const code = sms.lastCode(ANA.celular);
    const bad = await validate(ANA.numero_documento, ANA.celular, wrong(code));
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ success: false, message: 'Código incorrecto o vencido.' });
    expect(grantOf(bad)).toBeUndefined();

    expect((await validate(ANA.numero_documento, ANA.celular, code)).statusCode).toBe(200);
    const reused = await validate(ANA.numero_documento, ANA.celular, code);
    expect(reused.statusCode).toBe(401);
    expect(grantOf(reused)).toBeUndefined();

    h.t.clock.advance(31_000);
    await send(ANA.numero_documento, ANA.celular);
    h.t.clock.advance(5 * MIN);
    expect(
      (await validate(ANA.numero_documento, ANA.celular, sms.lastCode(ANA.celular))).statusCode,
    ).toBe(401);
  });

  it('kills a code after 5 wrong tries', async () => {
    await seed();
    await send(ANA.numero_documento, ANA.celular);
    const code = sms.lastCode(ANA.celular);
    for (let i = 0; i < 5; i++)
      expect((await validate(ANA.numero_documento, ANA.celular, wrong(code))).statusCode).toBe(401);
    expect((await validate(ANA.numero_documento, ANA.celular, code)).statusCode).toBe(401);
  });

  it("never grants another document with someone's right code, and such tries do not spend it", async () => {
    await seed();
    await send(ANA.numero_documento, ANA.celular);
    const code = sms.lastCode(ANA.celular);
    const other = await validate(LUIS.numero_documento, ANA.celular, code);
    expect(other.statusCode).toBe(401);
    expect(grantOf(other)).toBeUndefined();
    const unknown = await validate('9999999', ANA.celular, code);
    expect(unknown.statusCode).toBe(401);
    expect(grantOf(unknown)).toBeUndefined();
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM recovery_grants');
    expect(rows).toHaveLength(0);
    // The code belongs to ANA's document and mobile: still good for them.
    expect((await validate(ANA.numero_documento, ANA.celular, code)).statusCode).toBe(200);
  });

  it('caps validations per document and mobile at 10 an hour (429)', async () => {
    await seed();
    for (let i = 0; i < 10; i++)
      expect((await validate(ANA.numero_documento, ANA.celular, '123123')).statusCode).toBe(401);
    const res = await validate(ANA.numero_documento, ANA.celular, '123123');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it("strangers' wrong codes with other mobiles or documents never close the real pair's validation", async () => {
    await seed();
    await send(ANA.numero_documento, ANA.celular);
    const code = sms.lastCode(ANA.celular);
    for (let i = 0; i < 12; i++) {
      const n = String(i).padStart(2, '0');
      const a = await validate(ANA.numero_documento, `09881000${n}`, wrong(code));
      const b = await validate(`81000${n}`, ANA.celular, wrong(code));
      expect([a.statusCode, b.statusCode]).toEqual([401, 401]);
    }
    const res = await validate(ANA.numero_documento, ANA.celular, code);
    expect(res.statusCode).toBe(200);
    expect(grantOf(res)).toBeDefined();
  });

  it('refuses bad input with a 400 in Spanish', async () => {
    for (const body of [
      {},
      { numero_documento: ANA.numero_documento, celular: ANA.celular },
      { numero_documento: ANA.numero_documento, celular: ANA.celular, otp: '12345' },
      { numero_documento: ANA.numero_documento, celular: ANA.celular, otp: '12345a' },
      { numero_documento: ANA.numero_documento, celular: ANA.celular, otp: 123456 },
      { numero_documento: 'x', celular: ANA.celular, otp: '123456' },
    ]) {
      const res = await post('/validate-pin-otp', body);
      expect(res.statusCode).toBe(400);
      expect(errorResponse.parse(res.json()).message).toMatch(/Ingresá/);
    }
  });
});

describe('POST /api/auth/set-new-pin', () => {
  it('with the grant: sets the PIN (Argon2id), consumes the grant, clears the cookie and sends a notice without the PIN', async () => {
    await seed();
    const grant = await grantFor(ANA);
    const res = await setPin(ANA.numero_documento, NEW_PIN, grant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'PIN actualizado correctamente. Ya podés ingresar con tu nuevo PIN.',
    });
    expect(grantOf(res)).toMatchObject({ value: '', path: '/api/auth' });
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(401);
    expect((await login(ANA.numero_documento, NEW_PIN)).statusCode).toBe(200);
    const { rows } = await h.t.ctx.db.query<{ pin_hash: string }>(
      'SELECT pin_hash FROM patients WHERE numero_documento = $1',
      [ANA.numero_documento],
    );
    expect(rows[0]!.pin_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    await recoveryIdle(h.t.ctx);
    const notice = smsTo(ANA.celular).at(-1)!;
    expect(notice.body).toMatch(/el PIN de tu cuenta se cambió/);
    expect(notice.body).not.toContain(NEW_PIN);
    expect(notice.body).not.toMatch(/\d{4}/);

    const replay = await setPin(ANA.numero_documento, '594027', grant);
    expect(replay.statusCode).toBe(403);
    expect((await login(ANA.numero_documento, NEW_PIN)).statusCode).toBe(200);
  });

  it("refuses a PIN made from the patient's birth date or document number (400 with its reason); the grant stays", async () => {
    await upsertPatient(h.t.ctx, { ...ANA, fecha_nacimiento: '1987-03-14' });
    const grant = await grantFor(ANA);
    // DDMMYY, YYMMDD, MMDDYY, DDMMYYYY cut to 6, and 6 digits in a row of 4567890.
    for (const pin of ['140387', '870314', '031487', '140319', '456789', '567890']) {
      const res = await setPin(ANA.numero_documento, pin, grant);
      expect(res.statusCode, pin).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message:
          'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
        reason: 'pinFromOwnData',
      });
    }
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(200);
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
  });

  it('without a grant, with a made-up one, or for another document: 403 and nothing changes', async () => {
    await seed();
    const grant = await grantFor(ANA);
    const before = await h.t.ctx.db.query(
      'SELECT numero_documento, pin_hash FROM patients ORDER BY id',
    );
    for (const res of [
      await setPin(ANA.numero_documento, NEW_PIN),
      await setPin(ANA.numero_documento, NEW_PIN, 'x'.repeat(43)),
      await setPin(LUIS.numero_documento, NEW_PIN, grant),
      await setPin('9999999', NEW_PIN, grant),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        message:
          'Tu autorización para cambiar el PIN venció o no es válida. Volvé a pedir un código por SMS.',
      });
    }
    const after = await h.t.ctx.db.query(
      'SELECT numero_documento, pin_hash FROM patients ORDER BY id',
    );
    expect(after.rows).toEqual(before.rows);
    // The grant stays usable by its own document.
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
  });

  it('refuses a grant older than 10 minutes', async () => {
    await seed();
    const grant = await grantFor(ANA);
    h.t.clock.advance(10 * MIN);
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(403);
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(200);
  });

  it('a newer grant retires the older one', async () => {
    await seed();
    const first = await grantFor(ANA);
    h.t.clock.advance(31_000);
    const second = await grantFor(ANA);
    expect((await setPin(ANA.numero_documento, NEW_PIN, first)).statusCode).toBe(403);
    expect((await setPin(ANA.numero_documento, NEW_PIN, second)).statusCode).toBe(200);
  });

  it('applies the PIN rules (the 8 banned PINs, 6 digits) without spending the grant', async () => {
    await seed();
    const grant = await grantFor(ANA);
    for (const pin of [...BANNED_PINS, '12345', '1234567', 'abcdef']) {
      const res = await setPin(ANA.numero_documento, pin, grant);
      expect(res.statusCode, pin).toBe(400);
      expect(res.json().message).toBe(
        'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
      );
    }
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
  });

  it('a race of concurrent set-new-pin calls with one grant: exactly one succeeds', async () => {
    await seed();
    const grant = await grantFor(ANA);
    const pins = ['270583', '381694', '492705', '503816', '614927', '725038'];
    const results = await Promise.all(pins.map((pin) => setPin(ANA.numero_documento, pin, grant)));
    const ok = results.flatMap((r, i) => (r.statusCode === 200 ? [pins[i]!] : []));
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 403)).toHaveLength(pins.length - 1);
    expect((await login(ANA.numero_documento, ok[0]!)).statusCode).toBe(200);
    await recoveryIdle(h.t.ctx);
    expect(smsTo(ANA.celular).filter((s) => /se cambió/.test(s.body))).toHaveLength(1);
  });

  it('lifts a login lock and resets the failure ledger', async () => {
    await seed();
    for (let i = 0; i < 10; i++) await login(ANA.numero_documento, '000111');
    // Locked: even the right PIN gets the lock's answer (issue 29 item 9).
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(429);
    const grant = await grantFor(ANA);
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
    const { rows } = await h.t.ctx.db.query(
      'SELECT * FROM login_guards WHERE numero_documento = $1',
      [ANA.numero_documento],
    );
    expect(rows).toEqual([]);
    h.t.clock.sleeps.length = 0;
    expect((await login(ANA.numero_documento, NEW_PIN)).statusCode).toBe(200);
    expect(h.t.clock.sleeps).toEqual([]);
  });

  it("ends every open session of that patient, and only that patient's", async () => {
    await seed();
    const a1 = (await login(ANA.numero_documento, ANA.pin)).cookies.find((c) => c.name === 'sid')!;
    const a2 = (await login(ANA.numero_documento, ANA.pin)).cookies.find((c) => c.name === 'sid')!;
    const l1 = (await login(LUIS.numero_documento, LUIS.pin)).cookies.find(
      (c) => c.name === 'sid',
    )!;
    const session = (sid: string) =>
      h.t.app.inject({ method: 'GET', url: '/api/auth/session', cookies: { sid } });
    expect((await session(a1.value)).json().authenticated).toBe(true);
    const grant = await grantFor(ANA);
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
    expect((await session(a1.value)).json()).toEqual({ authenticated: false });
    expect((await session(a2.value)).json()).toEqual({ authenticated: false });
    expect((await session(l1.value)).json().authenticated).toBe(true);
  });
});

describe('knowing a document number is not enough to lock its patient out for good', () => {
  it('after 100 failed logins and strangers closing what they can, the patient recovers and logs in', async () => {
    await seed();
    // Strangers who know ANA's document: 100 failed logins, past every timed lock (permanent lock).
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 10; i++) await login(ANA.numero_documento, '000111');
      h.t.clock.advance(25 * HOUR);
    }
    const { rows } = await h.t.ctx.db.query<{ permanent: boolean }>(
      `SELECT locked_until = 'infinity' AS permanent FROM login_guards WHERE numero_documento = $1`,
      [ANA.numero_documento],
    );
    expect(rows[0]?.permanent).toBe(true);
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(429);
    // ... and every recovery call they can make without ANA's mobile.
    for (let i = 0; i < 12; i++) {
      const mobile = `09851000${String(i).padStart(2, '0')}`;
      await send(ANA.numero_documento, mobile, `10.9.0.${i}`);
      await validate(ANA.numero_documento, mobile, '123123', `10.9.1.${i}`);
    }
    // ANA recovers, and the lock is gone.
    const grant = await grantFor(ANA);
    expect((await setPin(ANA.numero_documento, NEW_PIN, grant)).statusCode).toBe(200);
    expect((await login(ANA.numero_documento, NEW_PIN)).statusCode).toBe(200);
  }, 60_000);
});

describe('the whole recovery', () => {
  it('no call sequence without the code sent to the mobile changes a PIN', async () => {
    await seed();
    // An attacker knows the document and mobile: asks for a code, guesses, tries set-new-pin.
    await send(ANA.numero_documento, ANA.celular, '10.7.0.1');
    for (let i = 0; i < 5; i++)
      await validate(ANA.numero_documento, ANA.celular, String(100000 + i), '10.7.0.1');
    const res = await setPin(ANA.numero_documento, NEW_PIN);
    expect(res.statusCode).toBe(403);
    expect((await login(ANA.numero_documento, ANA.pin)).statusCode).toBe(200);
  });
});
