import { describe, expect, it } from 'vitest';
import { generateOtp, otpHmac } from '../../server/security/otp';
import { MemorySms, useTestApp } from './helpers';

const PHONE = '0981123456';
const MIN = 60_000;
const HOUR = 60 * MIN;

const sms = new MemorySms();
const h = useTestApp({ deps: { sms } });

const post = (url: string, payload: unknown, ip = '10.0.0.1') =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/onboarding${url}`,
    payload: payload as object,
    remoteAddress: ip,
  });
const start = (phone = PHONE, ip?: string) => post('/start', { phone, email: '' }, ip);
const resend = (phone = PHONE, ip?: string) => post('/resend-otp', { celular: phone }, ip);
const validate = (otp: string, phone = PHONE, ip?: string) =>
  post('/validate-otp', { celular: phone, otp }, ip);
const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

function expect429(res: Awaited<ReturnType<typeof post>>, retryAfter: number) {
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toBe(String(retryAfter));
  expect(res.json()).toEqual({
    success: false,
    message: expect.stringMatching(/^Demasiados intentos\. Esperá \d+ /),
  });
}

describe('codes', () => {
  it('are 6 digits from a CSPRNG, all digits appear in every position', () => {
    const codes = Array.from({ length: 2000 }, generateOtp);
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    for (let pos = 0; pos < 6; pos++) expect(new Set(codes.map((c) => c[pos])).size).toBe(10);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('are stored only as an HMAC bound to phone and purpose', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    const { rows } = await h.t.ctx.db.query<Record<string, unknown>>('SELECT * FROM otp_codes');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows[0]!.code_hmac).toBe(otpHmac(h.t.ctx.secrets.otpSecret, PHONE, 'onboarding', code));
    expect(rows[0]!.purpose).toBe('onboarding');
    expect(otpHmac(h.t.ctx.secrets.otpSecret, PHONE, 'pin_recovery', code)).not.toBe(
      rows[0]!.code_hmac,
    );
  });

  it('are valid for 5 minutes', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    h.t.clock.advance(5 * MIN);
    expect((await validate(code)).statusCode).toBe(401);

    h.t.clock.advance(MIN);
    await resend();
    h.t.clock.advance(5 * MIN - 1);
    expect((await validate(sms.lastCode(PHONE))).json()).toMatchObject({
      success: true,
      message: 'Código verificado.',
    });
  });

  it('are single use', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    expect((await validate(code)).statusCode).toBe(200);
    const again = await validate(code);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/^El código ingresado es incorrecto o ya venció/);
  });

  it('a race of concurrent validations of the right code has exactly one success', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    const results = await Promise.all(Array.from({ length: 8 }, () => validate(code)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 401, 401, 401, 401, 401, 401, 401,
    ]);
  });

  it('a resend supersedes the previous code', async () => {
    await start();
    const first = sms.lastCode(PHONE);
    h.t.clock.advance(30_000);
    await resend();
    const second = sms.lastCode(PHONE);
    if (first !== second) expect((await validate(first)).statusCode).toBe(401);
    expect((await validate(second)).statusCode).toBe(200);
  });

  it('5 wrong tries kill the code', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    for (let i = 0; i < 5; i++) expect((await validate(wrong(code))).statusCode).toBe(401);
    expect((await validate(code)).statusCode).toBe(401);
  });

  it('4 wrong tries do not', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    for (let i = 0; i < 4; i++) await validate(wrong(code));
    expect((await validate(code)).statusCode).toBe(200);
  });
});

describe('wrong tries per phone', () => {
  it('at most 10 per hour across resends, then 429 even for the right code', async () => {
    await start();
    for (let i = 0; i < 4; i++) await validate(wrong(sms.lastCode(PHONE)));
    h.t.clock.advance(MIN);
    await resend();
    for (let i = 0; i < 4; i++) await validate(wrong(sms.lastCode(PHONE)));
    h.t.clock.advance(MIN);
    await resend();
    for (let i = 0; i < 2; i++)
      expect((await validate(wrong(sms.lastCode(PHONE)))).statusCode).toBe(401);
    // 10 wrong tries within the hour: the next check is refused, right code or not.
    expect429(await validate(sms.lastCode(PHONE)), 58 * 60);

    // The 4 wrong tries of minute 0 leave the window after an hour; the code has expired by then.
    h.t.clock.advance(58 * MIN);
    expect((await resend()).statusCode).toBe(200);
    expect((await validate(sms.lastCode(PHONE))).statusCode).toBe(200);
  });

  it('a right code does not count as a wrong try', async () => {
    for (let round = 0; round < 3; round++) {
      await start();
      for (let i = 0; i < 3; i++) await validate(wrong(sms.lastCode(PHONE)));
      expect((await validate(sms.lastCode(PHONE))).statusCode).toBe(200);
      h.t.clock.advance(MIN);
    }
  });
});

describe('the per-mobile ceiling, counted per code (issue 43 item 14)', () => {
  const OWNER = '10.0.0.1';
  const stranger = (n: number) => `10.6.6.${n}`;
  const failedAttempts = async () =>
    (
      await h.t.ctx.db.query<{ n: number }>(
        'SELECT failed_attempts AS n FROM otp_codes ORDER BY id DESC LIMIT 1',
      )
    ).rows[0]!.n;
  /** `tries` wrong codes from each of the strangers 1..`addresses`, in turn: their statuses. */
  const guessFrom = async (addresses: number, tries: number) => {
    const statuses: number[] = [];
    for (let n = 1; n <= addresses; n++)
      for (let i = 0; i < tries; i++)
        statuses.push((await validate(wrong(sms.lastCode(PHONE)), PHONE, stranger(n))).statusCode);
    return statuses;
  };

  it('30 wrong codes from three addresses do not lock the owner out of the code on the phone', async () => {
    await start(PHONE, OWNER);
    const code = sms.lastCode(PHONE);
    expect(await guessFrom(3, 10)).toEqual(Array(30).fill(401));
    // Each stranger's address is spent for the hour...
    expect429(await validate(code, PHONE, stranger(1)), 3600);
    // ...and the code on the owner's phone still works from the owner's address.
    expect((await validate(code, PHONE, OWNER)).statusCode).toBe(200);
  });

  it('the same 30 spread over a code the stranger had resent: the owner still gets in', async () => {
    await start(PHONE, stranger(1));
    expect(await guessFrom(3, 5)).toEqual(Array(15).fill(401));
    h.t.clock.advance(30_000);
    expect((await resend(PHONE, stranger(1))).statusCode).toBe(200);
    expect(await guessFrom(3, 5)).toEqual(Array(15).fill(401));
    expect((await validate(sms.lastCode(PHONE), PHONE, OWNER)).statusCode).toBe(200);
  });

  it('one code takes at most 30 wrong tries from every address; a new code has its own allowance', async () => {
    await start(PHONE, OWNER);
    const first = sms.lastCode(PHONE);
    // Seven addresses, five each (the per-address kill): 35 guesses, 30 of them compared.
    expect(await guessFrom(7, 5)).toEqual(Array(35).fill(401));
    expect(await failedAttempts()).toBe(30);
    // The code is dead for everyone now, the right code included, from any address...
    const dead = await validate(first, PHONE, stranger(8));
    expect(dead.statusCode).toBe(401);
    expect(dead.json().message).toMatch(/solicitá el reenvío\.$/);
    expect((await validate(first, PHONE, OWNER)).statusCode).toBe(401);
    expect(await failedAttempts()).toBe(30);
    // ...and the owner asks for a new one (the SMS limits still hold): minutes, not an hour.
    h.t.clock.advance(30_000);
    expect((await resend(PHONE, OWNER)).statusCode).toBe(200);
    expect((await validate(sms.lastCode(PHONE), PHONE, OWNER)).statusCode).toBe(200);
  });

  it('concurrent guesses from many addresses compare no more than 30 against one code', async () => {
    await start(PHONE, OWNER);
    const code = sms.lastCode(PHONE);
    const guesses = Array.from({ length: 48 }, (_, i) => String(100000 + i)).map((g, i) =>
      validate(g === code ? '000000' : g, PHONE, stranger(1 + (i % 8))),
    );
    // Six from each of eight addresses: within each address's hour, all wrong, none refused.
    expect((await Promise.all(guesses)).map((r) => r.statusCode)).toEqual(Array(48).fill(401));
    expect(await failedAttempts()).toBeLessThanOrEqual(30);
  });
});

describe('SMS limits', () => {
  it('the 30 s resend wait is enforced by the server, worded as a wait (issue 43 item 8)', async () => {
    expect((await start()).statusCode).toBe(200);
    h.t.clock.advance(10_000);
    const early = await resend();
    // One SMS is no fault of the patient's: the wait says so, not 'Demasiados intentos'.
    const resendWait = {
      success: false,
      message: 'Ya te enviamos un código. Podés pedir otro en 20 segundos.',
    };
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('20');
    expect(early.json()).toEqual(resendWait);
    // The mobile entered again at once (step 0 again, a reload): the same wait, the same words.
    const again = await start();
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual(resendWait);
    h.t.clock.advance(19_000);
    expect((await start()).json().message).toBe(
      'Ya te enviamos un código. Podés pedir otro en 1 segundo.',
    );
    h.t.clock.advance(1_000);
    const ok = await resend();
    expect(ok.json()).toEqual({
      success: true,
      message: 'Código reenviado. Revisá tu SMS.',
      resendAfterSeconds: 30,
    });
    expect(sms.sent).toHaveLength(2);
  });

  it('at most 5 SMS per phone per hour', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await resend()).statusCode).toBe(200);
      h.t.clock.advance(60_000);
    }
    // First SMS at 0, now at 5 min: it leaves the hour window in 55 minutes.
    const res = await resend();
    expect429(res, 55 * 60);
    expect(res.json().message).toBe('Demasiados intentos. Esperá 55 minutos e intentá de nuevo.');
    expect(sms.sent).toHaveLength(5);
    h.t.clock.advance(55 * 60_000);
    expect((await resend()).statusCode).toBe(200);
  });

  it('at most 10 SMS per phone per day', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await resend()).statusCode).toBe(200);
      h.t.clock.advance(HOUR / 4);
    }
    // 10 sent from 0 to 2h15; now 2h30: the first leaves the day window in 21h30.
    expect429(await resend(), 21.5 * 3600);
    h.t.clock.advance(21.5 * HOUR);
    expect((await resend()).statusCode).toBe(200);
  });

  it('per client address: at most 20 SMS per hour, whatever the phones', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await start(`09811234${String(i).padStart(2, '0')}`, '10.9.9.9')).statusCode).toBe(
        200,
      );
    }
    expect429(await start('0981123499', '10.9.9.9'), 3600);
    expect((await start('0981123499', '10.1.1.1')).statusCode).toBe(200);
  });

  it('a gateway failure answers the send-code error, stores no code and spends no phone budget', async () => {
    sms.fail = true;
    const res = await start();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      success: false,
      message: 'No se pudo enviar el código. Verificá tu número.',
    });
    expect((await h.t.ctx.db.query('SELECT 1 FROM otp_codes')).rows).toHaveLength(0);
    const resent = await resend();
    expect(resent.statusCode).toBe(502);
    expect(resent.json().message).toBe('No se pudo reenviar el código. Intentá de nuevo.');
    const log = await h.t.ctx.db.query<{ status: string }>('SELECT status FROM sms_send_log');
    expect(log.rows.map((r) => r.status)).toEqual(['failed', 'failed']);

    sms.fail = false;
    expect((await start()).statusCode).toBe(200);
    expect((await validate(sms.lastCode(PHONE))).statusCode).toBe(200);
  });

  it('old codes and limit events are pruned after a day', async () => {
    await start();
    await validate('000000');
    h.t.clock.advance(24 * HOUR + 1);
    await start('0991000111');
    const codes = await h.t.ctx.db.query<{ celular: string }>('SELECT celular FROM otp_codes');
    expect(codes.rows).toEqual([{ celular: '0991000111' }]);
    const events = await h.t.ctx.db.query<{ key: string }>(
      'SELECT key FROM rate_limit_events ORDER BY id',
    );
    expect(events.rows.map((r) => r.key)).toEqual(['0991000111', '10.0.0.1']);
  });

  it('a gateway failure does not supersede the code already sent', async () => {
    await start();
    const code = sms.lastCode(PHONE);
    h.t.clock.advance(30_000);
    sms.fail = true;
    expect((await resend()).statusCode).toBe(502);
    expect((await validate(code)).statusCode).toBe(200);
  });
});
