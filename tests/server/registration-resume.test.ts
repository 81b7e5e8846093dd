import { describe, expect, it } from 'vitest';
import { REGISTRATION_TOKEN_PATTERN } from '../../contract/common';
import { CONTINUE_ON_PHONE_PATH, onboardingPaths, type IdData } from '../../contract/onboarding';
import type { KycProgress, KycStore } from '../../server/onboarding/kyc-store';
import { NoAssistedKyc } from './kyc-fakes';
import { proveMobile } from '../../server/onboarding/registration';
import { MemorySms, useTestApp, TERMS_ACCEPTED } from './helpers';

/**
 * Registration that survives real life (issue 18): resuming after a lost page by proving the
 * mobile again, and the one-time SMS link that continues it on the phone. On PGlite, and on
 * PostgreSQL in `npm test`'s PostgreSQL tier.
 */

const ID_DATA: IdData = {
  FullName: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
  DocumentNumber: '4567890',
  DateOfBirth: '17/05/1990',
  Gender: 'F',
  Nationality: 'PRY',
  MaritalStatus: 'SOLTERA',
};

/** KYC sessions whose progress a test sets (the identity engine's, as registration sees them). */
class StagedKyc extends NoAssistedKyc implements KycStore {
  stages = new Map<string, KycProgress>();
  async progressOf(sessionId: string) {
    return this.stages.get(sessionId) ?? { stage: 'started' as const };
  }
  async getCompletedKyc(sessionId: string) {
    const stage = this.stages.get(sessionId);
    return stage?.stage === 'documentRead' ? { idData: stage.idData, embedding: [0.1, 0.2] } : null;
  }
  async consumeKyc(sessionId: string) {
    return this.stages.get(sessionId)?.stage === 'documentRead';
  }
  async enrollFace() {}
}

const PHONE = '0981123456';
const OTHER = '0991000111';
const sms = new MemorySms();
const kyc = new StagedKyc();
const h = useTestApp({ deps: { sms, kyc } });

const post = (url: string, payload: object, ip = '203.0.113.7') =>
  h.t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

const GONE =
  'Tu registro venció o lo retomaste en otro dispositivo. Verificá tu celular de nuevo para continuar.';

/** Steps 0 and 1: the code sent and validated; the answer's registration. */
async function prove(phone = PHONE) {
  expect((await post(onboardingPaths.start, { phone })).statusCode).toBe(200);
  const res = await post(onboardingPaths.validateOtp, { celular: phone, otp: sms.lastCode(phone) });
  expect(res.statusCode).toBe(200);
  return res.json().registration;
}

const savePin = (registrationToken: string, pin = '482915', email: string | null = null) =>
  post(onboardingPaths.savePin, { registrationToken, pin, email, ...TERMS_ACCEPTED });
const bind = (registrationToken: string, sessionId: string) =>
  post(onboardingPaths.bindKyc, { registrationToken, sessionId });
const sendLink = (registrationToken: string, ip?: string) =>
  post(onboardingPaths.sendLink, { registrationToken }, ip);
const open = (linkToken: string, ip?: string) => post(onboardingPaths.openLink, { linkToken }, ip);
const status = (registrationToken: string) => post(onboardingPaths.status, { registrationToken });

/** The link token of the newest link SMS to a phone, read from the message as the phone gets it. */
function linkFromSms(phone = PHONE): { url: URL; token: string } {
  const message = [...sms.sent]
    .reverse()
    .find((s) => s.to === phone && s.purpose === 'onboarding_link');
  const raw = message?.body.match(/https?:\/\/\S+/)?.[0];
  if (!raw) throw new Error(`no link sent to ${phone}`);
  const url = new URL(raw);
  return { url, token: url.hash.slice(1) };
}

/** The SMS resend wait (30 s) passes. */
const wait = () => h.t.clock.advance(31_000);

/** A registration at step 4: mobile proved, PIN kept. */
async function atStep4(phone = PHONE) {
  const registration = await prove(phone);
  expect((await savePin(registration.token)).statusCode).toBe(200);
  // Choosing a PIN and reading the tips take longer than the SMS resend wait.
  wait();
  return registration.token as string;
}

describe('resuming a registration', () => {
  it('a new mobile starts at the PIN; proving it again continues at the first unfinished step', async () => {
    const first = await prove();
    expect(first).toEqual({
      token: expect.stringMatching(REGISTRATION_TOKEN_PATTERN),
      resumeAt: 'pin',
      phone: PHONE,
      email: null,
      sessionId: null,
    });
    expect((await savePin(first.token, '482915', 'maria@example.com')).statusCode).toBe(200);

    wait();
    const afterPin = await prove();
    expect(afterPin).toMatchObject({ resumeAt: 'welcome', email: 'maria@example.com' });
    expect(afterPin.token).not.toBe(first.token);
    // The page that was lost holds a dead token.
    expect((await status(first.token)).json()).toEqual({ success: false, message: GONE });

    expect((await bind(afterPin.token, 'kyc-1')).statusCode).toBe(200);
    wait();
    expect((await prove()).resumeAt).toBe('welcome');

    kyc.stages.set('kyc-1', { stage: 'selfiePassed' });
    wait();
    expect(await prove()).toMatchObject({ resumeAt: 'document', sessionId: 'kyc-1' });

    kyc.stages.set('kyc-1', { stage: 'documentRead', idData: ID_DATA });
    wait();
    expect(await prove()).toMatchObject({
      resumeAt: 'review',
      sessionId: 'kyc-1',
      idData: ID_DATA,
    });
  });

  it('keeps no PIN in clear: only its Argon2id hash', async () => {
    const token = await atStep4();
    const { rows } = await h.t.ctx.db.query<{ pin_hash: string }>(
      'SELECT pin_hash FROM registration_drafts',
    );
    expect(rows[0]!.pin_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.pin_hash).not.toContain('482915');
    const tokens = await h.t.ctx.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM registration_tokens',
    );
    expect(tokens.rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('forgets a registration after the resume window (24 h): the mobile starts again', async () => {
    await atStep4();
    h.t.clock.advance(24 * 3_600_000 + 1);
    expect((await prove()).resumeAt).toBe('pin');
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM registration_drafts');
    expect(rows).toHaveLength(1);
  });

  it('refuses a PIN save, a binding or a status with a token it does not know, alike', async () => {
    const fake = 'A'.repeat(43);
    for (const res of [await savePin(fake), await bind(fake, 'kyc-1'), await status(fake)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: GONE });
    }
    const malformed = await post(onboardingPaths.status, { registrationToken: 'x' });
    expect(malformed.statusCode).toBe(400);
  });

  it('binds a KYC session to one registration only, and only after the PIN', async () => {
    const noPin = (await prove()).token;
    expect((await bind(noPin, 'kyc-1')).statusCode).toBe(409);
    expect((await savePin(noPin)).statusCode).toBe(200);
    expect((await bind(noPin, 'kyc-1')).statusCode).toBe(200);
    const other = await atStep4(OTHER);
    const stolen = await bind(other, 'kyc-1');
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().message).toBe(
      'Esta verificación de identidad es de otro registro. Volvé a empezar el paso 4.',
    );
  });

  it('two proofs of one mobile at once: one registration, the newest token holds it', async () => {
    const results = await Promise.all([proveMobile(h.t.ctx, PHONE), proveMobile(h.t.ctx, PHONE)]);
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM registration_drafts');
    expect(rows).toHaveLength(1);
    const live = await Promise.all(results.map((r) => status(r.token)));
    expect(live.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('caps PIN saves per registration (each costs an Argon2id hash)', async () => {
    const token = (await prove()).token;
    for (let i = 0; i < 10; i++) expect((await savePin(token)).statusCode).toBe(200);
    expect((await savePin(token)).statusCode).toBe(429);
  });
});

describe('continuing on the phone', () => {
  it('sends a one-time link by SMS to the verified mobile, the token in the fragment', async () => {
    const token = await atStep4();
    const res = await sendLink(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, expiresInSeconds: 1200, resendAfterSeconds: 30 });
    const { url, token: link } = linkFromSms();
    // The one-time link travels only in the SMS, never in the answer (issue 29 item 4).
    expect(body).not.toHaveProperty('link');
    expect(res.body).not.toContain(link);
    expect(url.pathname).toBe(CONTINUE_ON_PHONE_PATH);
    expect(url.search).toBe('');
    expect(link).toMatch(REGISTRATION_TOKEN_PATTERN);
    expect(sms.sent.at(-1)!.body).toContain('Vence en 20 minutos');
  });

  it('the link continues this registration once, on a token of its own', async () => {
    const token = await atStep4();
    kyc.stages.set('kyc-1', { stage: 'selfiePassed' });
    expect((await bind(token, 'kyc-1')).statusCode).toBe(200);
    await sendLink(token);
    const { token: link } = linkFromSms();

    const opened = await open(link);
    expect(opened.statusCode).toBe(200);
    const phone = opened.json().registration;
    expect(phone).toMatchObject({ resumeAt: 'document', phone: PHONE, sessionId: 'kyc-1' });
    expect(phone.token).not.toBe(token);
    // Both devices hold the registration: the first one follows, the phone continues.
    expect((await status(token)).json()).toEqual({ success: true, stage: 'selfie' });
    expect((await status(phone.token)).statusCode).toBe(200);

    const again = await open(link);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      success: false,
      message:
        'Este enlace ya se usó. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
      reason: 'linkUsed',
    });
  });

  it('of two opens at once exactly one continues', async () => {
    const token = await atStep4();
    await sendLink(token);
    const { token: link } = linkFromSms();
    const results = await Promise.all([open(link), open(link), open(link)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410]);
  });

  it('a link expires (20 min), dies when a newer one is sent and when the mobile is proved again', async () => {
    const token = await atStep4();
    await sendLink(token);
    const expired = linkFromSms().token;
    h.t.clock.advance(20 * 60_000 + 1);
    const late = await open(expired);
    expect(late.statusCode).toBe(410);
    expect(late.json().reason).toBe('linkExpired');

    await sendLink(token);
    const older = linkFromSms().token;
    wait();
    await sendLink(token);
    const newer = linkFromSms().token;
    expect((await open(older)).json().reason).toBe('linkInvalid');

    wait();
    await prove();
    expect((await open(newer)).json()).toMatchObject({ success: false, reason: 'linkInvalid' });
  });

  it('a link continues only the registration it was made for', async () => {
    const mine = await atStep4();
    expect((await bind(mine, 'kyc-mine')).statusCode).toBe(200);
    const theirs = await atStep4(OTHER);
    expect((await bind(theirs, 'kyc-theirs')).statusCode).toBe(200);
    kyc.stages.set('kyc-theirs', { stage: 'documentRead', idData: ID_DATA });

    await sendLink(mine);
    const phone = (await open(linkFromSms().token)).json().registration;
    expect(phone).toMatchObject({ phone: PHONE, resumeAt: 'welcome' });
    // The phone's token cannot take or register the other registration's verification.
    expect((await bind(phone.token, 'kyc-theirs')).statusCode).toBe(409);
    const register = await post(onboardingPaths.register, {
      registrationToken: phone.token,
      phone: PHONE,
      sessionId: 'kyc-theirs',
      supplementaryData: { departamento: '11', ciudad_id: '1101' },
    });
    expect(register.statusCode).toBe(403);
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM patients');
    expect(rows).toHaveLength(0);
  });

  it('the phone finishes without the PIN (its kept hash); the first device sees it completed; the links die', async () => {
    const token = await atStep4();
    await sendLink(token);
    const opened = linkFromSms().token;
    const phone = (await open(opened)).json().registration;
    expect((await status(token)).json().stage).toBe('opened');
    expect((await bind(phone.token, 'kyc-phone')).statusCode).toBe(200);
    kyc.stages.set('kyc-phone', { stage: 'documentRead', idData: ID_DATA });
    expect((await status(token)).json().stage).toBe('document');
    wait();
    await sendLink(token);
    const unused = linkFromSms().token;

    const register = await post(onboardingPaths.register, {
      registrationToken: phone.token,
      phone: PHONE,
      sessionId: 'kyc-phone',
      supplementaryData: { departamento: '11', ciudad_id: '1101' },
    });
    expect(register.statusCode).toBe(200);
    expect((await status(token)).json()).toEqual({ success: true, stage: 'completed' });
    // Its real links, used or not, say so (issue 29 item 16), and continue nothing.
    for (const link of [unused, opened]) {
      const again = await open(link);
      expect(again.statusCode).toBe(410);
      expect(again.json()).toEqual({
        success: false,
        message: 'Tu registro ya está completo. Ingresá.',
        reason: 'registrationComplete',
      });
    }
    // A token the server never made learns nothing: 'no es válido', as before.
    const forged = await open('F'.repeat(43));
    expect(forged.statusCode).toBe(404);
    expect(forged.json().reason).toBe('linkInvalid');
    const login = await post('/api/auth/login', { numero_documento: '4567890', pin: '482915' });
    expect(login.statusCode).toBe(200);
    // Finished: the mobile is a patient's now, as start says.
    wait();
    expect((await post(onboardingPaths.start, { phone: PHONE })).statusCode).toBe(409);
    expect((await sendLink(token)).statusCode).toBe(409);
  });

  it("needs the PIN first; charged to the registration, not the mobile's SMS budget; waits 30 s between links only", async () => {
    const noPin = (await prove()).token;
    expect((await sendLink(noPin)).statusCode).toBe(409);
    expect((await savePin(noPin)).statusCode).toBe(200);
    // Right after the code: no resend wait between a code and a link.
    expect((await sendLink(noPin)).statusCode).toBe(200);
    const again = await sendLink(noPin);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('30');
    // The wait between two links is worded as a wait, not a fault (issue 43 item 8).
    expect(again.json().message).toBe('Ya te enviamos un enlace. Podés pedir otro en 30 segundos.');
    const answers: { statusCode: number; json: () => { message: string } }[] = [];
    for (let i = 0; i < 5; i++) {
      wait();
      answers.push(await sendLink(noPin));
    }
    // 5 links per registration and hour, whatever the mobile's SMS budget (the code spent one).
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 429]);
    // A spent budget is 'Demasiados intentos'.
    expect(answers[4]!.json().message).toMatch(/^Demasiados intentos\. Esperá /);
    // The links spent none of the mobile's budget: 4 more codes still go out this hour.
    const sends: number[] = [];
    for (let i = 0; i < 5; i++) {
      wait();
      sends.push((await post(onboardingPaths.start, { phone: PHONE })).statusCode);
    }
    expect(sends).toEqual([200, 200, 200, 200, 429]);
  });

  it('a refused SMS leaves no live link and spends no budget', async () => {
    const token = await atStep4();
    sms.fail = true;
    const res = await sendLink(token);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe('No pudimos enviar el SMS con el enlace. Intentá de nuevo.');
    const { rows } = await h.t.ctx.db.query(
      `SELECT 1 FROM registration_tokens WHERE kind = 'link'`,
    );
    expect(rows).toHaveLength(0);
    sms.fail = false;
    expect((await sendLink(token)).statusCode).toBe(200);
  });

  it('caps link opens per address, unknown tokens apart from known ones, and status reads per registration', async () => {
    const token = await atStep4();
    await sendLink(token);
    const { token: link } = linkFromSms();
    const fake = 'B'.repeat(43);
    const codes = new Set<number>();
    for (let i = 0; i < 30; i++) codes.add((await open(fake, '198.51.100.9')).statusCode);
    expect([...codes]).toEqual([404]);
    expect((await open(fake, '198.51.100.9')).statusCode).toBe(429);
    expect((await open(fake, '198.51.100.10')).statusCode).toBe(404);
    // A stranger behind the same address spent the unknown tokens' opens, not the patient's.
    expect((await open(link, '198.51.100.9')).statusCode).toBe(200);

    for (let i = 0; i < 40; i++) expect((await status(token)).statusCode).toBe(200);
    expect((await status(token)).statusCode).toBe(429);
  });
});

describe('a registered cédula is said as soon as the card is read (issue 29 item 10)', () => {
  const check = (registrationToken: string, sessionId: string) =>
    post(onboardingPaths.documentCheck, { registrationToken, sessionId });

  it("answers for the registration's own session once it read a card, and for nothing else", async () => {
    const token = await atStep4();
    expect((await bind(token, 'kyc-check')).statusCode).toBe(200);
    // No card read yet: nothing to say (no number is looked up).
    const early = await check(token, 'kyc-check');
    expect(early.statusCode).toBe(409);
    expect(early.json().success).toBe(false);
    kyc.stages.set('kyc-check', { stage: 'documentRead', idData: ID_DATA });
    expect((await check(token, 'kyc-check')).json()).toEqual({ success: true, registered: false });

    // The same card's number is a patient's now: said at once.
    await h.t.ctx.db.query(
      `INSERT INTO patients (numero_documento, nombre, apellido, celular, pin_hash)
       VALUES ($1, 'MARÍA', 'GONZÁLEZ', '0971999888', 'x')`,
      ['4567890'],
    );
    expect((await check(token, 'kyc-check')).json()).toEqual({ success: true, registered: true });

    // Another registration's session, a token nobody holds, a session never bound: no answer.
    const other = await atStep4(OTHER);
    kyc.stages.set('kyc-other', { stage: 'documentRead', idData: ID_DATA });
    expect((await check(other, 'kyc-check')).statusCode).toBe(403);
    expect((await check(other, 'kyc-other')).statusCode).toBe(403);
    expect((await check('Z'.repeat(43), 'kyc-check')).statusCode).toBe(401);
    const bad = await post(onboardingPaths.documentCheck, { registrationToken: token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: expect.any(String) });
  });
});

describe("a stranger cannot block a patient's mobile (issue 29 item 1, the third probe)", () => {
  const STRANGER = '192.0.2.66';
  const OWNER = '203.0.113.7';

  it('5 starts 31 s apart and 10 wrong codes from one address; the owner, from another, still registers', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post(onboardingPaths.start, { phone: PHONE }, STRANGER)).statusCode).toBe(200);
      wait();
    }
    const delivered = sms.lastCode(PHONE);
    const wrongCode = delivered === '000000' ? '000001' : '000000';
    for (let i = 0; i < 10; i++) {
      const res = await post(
        onboardingPaths.validateOtp,
        { celular: PHONE, otp: wrongCode },
        STRANGER,
      );
      expect(res.statusCode).toBe(401);
    }
    // The stranger's address is out of tries for this mobile, even with the right code.
    const blocked = await post(
      onboardingPaths.validateOtp,
      { celular: PHONE, otp: delivered },
      STRANGER,
    );
    expect(blocked.statusCode).toBe(429);
    // The mobile's SMS budget is kept (5 an hour): no new code...
    expect((await post(onboardingPaths.start, { phone: PHONE }, OWNER)).statusCode).toBe(429);

    // ...but the code already on the owner's phone works from the owner's address,
    const proved = await post(
      onboardingPaths.validateOtp,
      { celular: PHONE, otp: delivered },
      OWNER,
    );
    expect(proved.statusCode).toBe(200);
    const token = proved.json().registration.token as string;
    expect((await savePin(token)).statusCode).toBe(200);
    wait();
    // the handoff link is charged to the registration, not to the spent SMS budget,
    expect((await sendLink(token, OWNER)).statusCode).toBe(200);
    const phone = (await open(linkFromSms().token, OWNER)).json().registration;
    expect((await bind(phone.token, 'kyc-owner')).statusCode).toBe(200);
    kyc.stages.set('kyc-owner', { stage: 'documentRead', idData: ID_DATA });
    // and the registration completes.
    const register = await post(
      onboardingPaths.register,
      {
        registrationToken: phone.token,
        phone: PHONE,
        sessionId: 'kyc-owner',
        supplementaryData: { departamento: '11', ciudad_id: '1101' },
      },
      OWNER,
    );
    expect(register.statusCode).toBe(200);
    const login = await post('/api/auth/login', { numero_documento: '4567890', pin: '482915' });
    expect(login.statusCode).toBe(200);
  });

  it('a mobile still has a ceiling across addresses: 30 wrong tries of one code, then a new code (issue 43 item 14)', async () => {
    await post(onboardingPaths.start, { phone: PHONE }, OWNER);
    const delivered = sms.lastCode(PHONE);
    const wrongCode = delivered === '000000' ? '000001' : '000000';
    // Seven addresses, five tries each (the per-address kill): 30 of the 35 reach the code.
    for (let a = 0; a < 7; a++)
      for (let i = 0; i < 5; i++) {
        const res = await post(
          onboardingPaths.validateOtp,
          { celular: PHONE, otp: wrongCode },
          `192.0.2.${a}`,
        );
        expect(res.statusCode).toBe(401);
      }
    // The code is dead for everyone, the owner's right code included...
    const owner = await post(
      onboardingPaths.validateOtp,
      { celular: PHONE, otp: delivered },
      OWNER,
    );
    expect(owner.statusCode).toBe(401);
    // ...and a new code sent to the phone is not counted against: the owner is in.
    wait();
    expect((await post(onboardingPaths.start, { phone: PHONE }, OWNER)).statusCode).toBe(200);
    const proved = await post(
      onboardingPaths.validateOtp,
      { celular: PHONE, otp: sms.lastCode(PHONE) },
      OWNER,
    );
    expect(proved.statusCode).toBe(200);
  });
});
