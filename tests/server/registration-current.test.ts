import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  currentRegistrationResponse,
  onboardingPaths,
  REGISTRATION_COOKIE,
} from '../../contract/onboarding';
import { CaseKyc, ID_DATA, patient } from './cases-fixtures';
import { createTestApp, MemorySms, useTestApp, type TestApp, TERMS_ACCEPTED } from './helpers';

/**
 * A reload continues the registration (issue 43 item 8): the device token validate-otp or the SMS
 * link gives also travels in an HttpOnly, SameSite=Strict cookie that only GET
 * registration/current receives, answering where the registration continues. On PGlite, and on
 * PostgreSQL in `npm test`'s PostgreSQL tier.
 */

const sms = new MemorySms();
const kyc = new CaseKyc();
const h = useTestApp({ deps: { sms, kyc } });
const p = patient(() => h.t, sms, kyc);
const PHONE = '0981123456';
const HOUR = 3_600_000;

type Cookie = {
  name: string;
  value: string;
  path?: string;
  maxAge?: number;
  expires?: Date;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
};

/** The registration cookie an answer sets (or clears), if any. */
const cookieOf = (res: LightMyRequestResponse) =>
  (res.cookies as Cookie[]).find((c) => c.name === REGISTRATION_COOKIE);

/** GET registration/current as a reloaded page sends it: with this cookie, or none. */
async function current(token?: string) {
  const res = await h.t.app.inject({
    method: 'GET',
    url: onboardingPaths.current,
    ...(token === undefined ? {} : { cookies: { [REGISTRATION_COOKIE]: token } }),
  });
  expect(res.statusCode).toBe(200);
  return { res, body: currentRegistrationResponse.parse(res.json()) };
}

/** Steps 0 and 1 for a mobile: validate-otp's answer. */
async function prove(phone = PHONE) {
  expect((await p.post(onboardingPaths.start, { phone })).statusCode).toBe(200);
  return p.post(onboardingPaths.validateOtp, { celular: phone, otp: sms.lastCode(phone) });
}

const expectCleared = (res: LightMyRequestResponse) => {
  const cleared = cookieOf(res);
  expect(cleared?.value).toBe('');
  expect(cleared?.path).toBe(onboardingPaths.current);
  expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
};

describe('the registration cookie', () => {
  it('validate-otp sets the device token as an HttpOnly, SameSite=Strict cookie for registration/current only, living as long as the token', async () => {
    kyc.reset();
    const proved = await prove();
    const token = proved.json().registration.token as string;
    expect(cookieOf(proved)).toEqual({
      name: REGISTRATION_COOKIE,
      value: token,
      path: '/api/onboarding/registration/current',
      maxAge: 24 * 3600,
      httpOnly: true,
      sameSite: 'Strict',
    });
  });

  it('answers where the registration continues, with the same token, exactly as proving the mobile again would', async () => {
    kyc.reset();
    const token = (await prove()).json().registration.token as string;
    expect((await current(token)).body).toEqual({
      success: true,
      registration: { token, resumeAt: 'pin', phone: PHONE, email: null, sessionId: null },
    });
    const pin = await p.post(onboardingPaths.savePin, {
      registrationToken: token,
      pin: '482915',
      email: 'maria@example.com',
      ...TERMS_ACCEPTED,
    });
    expect(pin.statusCode).toBe(200);
    expect((await current(token)).body.registration).toMatchObject({
      token,
      resumeAt: 'welcome',
      email: 'maria@example.com',
    });
    // Reading it changes nothing: the token still names the registration in every other call.
    expect((await p.caseStatus(token)).statusCode).toBe(200);
  });

  it("a case's waiting page reloads at the case, and the cookie lives as long as the case keeps the registration", async () => {
    kyc.reset();
    const { token } = await p.registration();
    expect((await p.openCase(token)).statusCode).toBe(200);
    const reloaded = await current(token);
    expect(reloaded.body.registration).toMatchObject({
      token,
      resumeAt: 'case',
      sessionId: null,
      case: { kind: 'review', status: 'open' },
    });
    // An open case kept the registration (and its token) longer than 24 h: so does the cookie.
    expect(cookieOf(reloaded.res)?.maxAge).toBeGreaterThan(24 * 3600);
    h.t.clock.advance(10 * 24 * HOUR);
    expect((await current(token)).body.registration?.resumeAt).toBe('case');
  });

  it('none without a cookie; a token it does not know, malformed or expired answers none and clears the cookie', async () => {
    kyc.reset();
    const none = await current();
    expect(none.body).toEqual({ success: true, registration: null });
    expect(cookieOf(none.res)).toBeUndefined();

    for (const bad of ['F'.repeat(43), 'not a token', '']) {
      const answer = await current(bad);
      expect(answer.body).toEqual({ success: true, registration: null });
      expectCleared(answer.res);
    }

    const token = (await prove()).json().registration.token as string;
    h.t.clock.advance(24 * HOUR + 1000);
    const expired = await current(token);
    expect(expired.body.registration).toBeNull();
    expectCleared(expired.res);
  });

  it('the mobile proved again elsewhere: the old cookie names nothing any more', async () => {
    kyc.reset();
    const first = (await prove()).json().registration.token as string;
    const again = await p.resume();
    expect(again.token).not.toBe(first);
    const stale = await current(first);
    expect(stale.body.registration).toBeNull();
    expectCleared(stale.res);
    expect((await current(again.token)).body.registration?.token).toBe(again.token);
  });

  it("the SMS link gives the phone a cookie of its own token; the registration completed there, both devices' cookies go", async () => {
    kyc.reset();
    const { token } = await p.registration();
    h.t.clock.advance(31_000);
    expect((await p.post(onboardingPaths.sendLink, { registrationToken: token })).statusCode).toBe(
      200,
    );
    const link = [...sms.sent].reverse().find((s) => s.purpose === 'onboarding_link')!;
    const linkToken = new URL(/https?:\/\/\S+/.exec(link.body)![0]).hash.slice(1);
    const opened = await p.post(onboardingPaths.openLink, { linkToken });
    const phoneToken = opened.json().registration.token as string;
    expect(cookieOf(opened)).toMatchObject({
      value: phoneToken,
      path: onboardingPaths.current,
      httpOnly: true,
      sameSite: 'Strict',
    });
    expect((await current(phoneToken)).body.registration?.token).toBe(phoneToken);

    const sessionId = `kyc-${PHONE}`;
    kyc.stages.set(sessionId, { stage: 'documentRead', idData: ID_DATA });
    const registered = await p.register({ token: phoneToken, sessionId });
    expect(registered.statusCode).toBe(200);
    expectCleared(registered);
    expect((await current(phoneToken)).body.registration).toBeNull();

    // The first device follows the phone: 'completed' ends its cookie too.
    const followed = await p.post(onboardingPaths.status, { registrationToken: token });
    expect(followed.json().stage).toBe('completed');
    expectCleared(followed);
    expect((await current(token)).body.registration).toBeNull();
  });

  it('leaving the wizard forgets it on this browser: the cookie goes, the token dies, the registration stays', async () => {
    kyc.reset();
    const token = (await prove()).json().registration.token as string;
    const left = await p.post(onboardingPaths.forget, { registrationToken: token });
    expect(left.statusCode).toBe(200);
    expect(left.json()).toEqual({ success: true });
    expectCleared(left);
    expect((await current(token)).body.registration).toBeNull();
    expect((await p.post(onboardingPaths.status, { registrationToken: token })).statusCode).toBe(
      401,
    );
    // Proving the mobile again continues it, as before.
    expect((await p.resume()).resumeAt).toBe('pin');
    // The cookie alone (another site's form, say) forgets nothing.
    const forged = await h.t.app.inject({
      method: 'POST',
      url: onboardingPaths.forget,
      payload: {},
      cookies: { [REGISTRATION_COOKIE]: token },
    });
    expect(forged.statusCode).toBe(400);
    expect(cookieOf(forged)).toBeUndefined();
  });

  it('is never a credential of its own: a call that changes the registration still needs the token in its body', async () => {
    kyc.reset();
    const token = (await prove()).json().registration.token as string;
    const withCookieOnly = await h.t.app.inject({
      method: 'POST',
      url: onboardingPaths.savePin,
      payload: { pin: '482915', email: null, ...TERMS_ACCEPTED },
      cookies: { [REGISTRATION_COOKIE]: token },
    });
    expect(withCookieOnly.statusCode).toBe(400);
    const { rows } = await h.t.ctx.db.query<{ pin_hash: string | null }>(
      'SELECT pin_hash FROM registration_drafts',
    );
    expect(rows[0]!.pin_hash).toBeNull();
  });
});

describe('COOKIE_SECURE=true', () => {
  // An app of its own (PGlite and its migrations open in the hook, not in the test's time).
  let t: TestApp;
  const ownSms = new MemorySms();
  beforeAll(async () => {
    t = await createTestApp({ env: { COOKIE_SECURE: 'true' }, deps: { sms: ownSms, kyc } });
  });
  afterAll(() => t.close());

  it('the registration cookie is Secure, as the session cookie is', async () => {
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: '203.0.113.7' });
    expect((await post(onboardingPaths.start, { phone: PHONE })).statusCode).toBe(200);
    const proved = await post(onboardingPaths.validateOtp, {
      celular: PHONE,
      otp: ownSms.lastCode(PHONE),
    });
    expect(proved.statusCode).toBe(200);
    expect(cookieOf(proved)?.secure).toBe(true);
  });
});
