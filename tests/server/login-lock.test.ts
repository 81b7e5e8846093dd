import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearLoginGuard, lockDurationMs } from '../../server/login/service';
import { testConfig } from './helpers';
import { upsertPatient } from '../../server/patients/service';
import { createTestApp, type TestApp } from './helpers';

// Issue 11 items 2 and 3: the PIN lock holds under concurrency (a guess is counted before its PIN
// is compared), and a lock ends by itself after a time that grows with each lock, up to a hard cap
// of failures without a success after which only recovery or the operator lifts it.

const PATIENT = {
  numero_documento: '3456789',
  pin: '581937',
  nombre: 'LUIS',
  apellido: 'BENÍTEZ',
  celular: '0982444333',
};
const WRONG = (i: number) => String(200000 + i);
const MIN = 60_000;

const login = (t: TestApp, pin: string, documento = PATIENT.numero_documento, ip?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { numero_documento: documento, pin },
    ...(ip ? { remoteAddress: ip } : {}),
  });

/** Counts how many guesses were compared with a patient's real PIN hash. */
function countComparisons(t: TestApp): { readonly n: number } {
  const counter = { n: 0 };
  const verify = t.ctx.pins.verify.bind(t.ctx.pins);
  t.ctx.pins.verify = async (hash, pin) => {
    counter.n += 1;
    return verify(hash, pin);
  };
  return counter;
}

describe('login lock under concurrency (issue 11 item 2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_IP_MAX_FAILURES: '1000' } });
  });
  beforeEach(async () => {
    await t.reset();
    await upsertPatient(t.ctx, PATIENT);
  });
  afterAll(() => t.close());

  it('12 concurrent guesses, the right one last, compare at most the 10 allowed', async () => {
    // Which PINs were compared, in order: a success clears the ledger, so on PostgreSQL (truly
    // concurrent) guesses counted after a success that landed mid-way start a new allowance.
    const compared: boolean[] = [];
    const verify = t.ctx.pins.verify.bind(t.ctx.pins);
    t.ctx.pins.verify = async (hash, pin) => {
      compared.push(pin === PATIENT.pin);
      return verify(hash, pin);
    };
    const pins = [...Array.from({ length: 11 }, (_, i) => WRONG(i)), PATIENT.pin];
    const answers = await Promise.all(pins.map((pin) => login(t, pin)));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.every((c) => c === 200 || c === 401 || c === 429)).toBe(true);
    const success = compared.indexOf(true);
    // Before a success (or with none), never more than the 10 allowed; the success within them.
    expect(success === -1 ? compared.length : success + 1).toBeLessThanOrEqual(10);
    expect(codes.includes(200)).toBe(success !== -1);
    // Whatever the order the database took them in, a success means the right PIN was within the
    // allowance; otherwise the account is now locked and the right PIN is refused as locked.
    if (!codes.includes(200)) expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
  });

  it('with one guess left, 12 concurrent guesses (the right one last) compare exactly one', async () => {
    for (let i = 0; i < 9; i++) expect((await login(t, WRONG(i))).statusCode).toBe(401);
    const compared = countComparisons(t);
    const pins = [...Array.from({ length: 11 }, (_, i) => WRONG(50 + i)), PATIENT.pin];
    const codes = (await Promise.all(pins.map((pin) => login(t, pin)))).map((r) => r.statusCode);
    expect(compared.n).toBe(1);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(1);
  });

  it('29 concurrent guesses on a fresh account compare at most 10 and leave it locked', async () => {
    const compared = countComparisons(t);
    const codes = (await Promise.all(Array.from({ length: 29 }, (_, i) => login(t, WRONG(i))))).map(
      (r) => r.statusCode,
    );
    // Nine wrong guesses, the tenth locks the account, the other nineteen find it locked.
    expect(codes.filter((c) => c === 401).length).toBe(9);
    expect(codes.filter((c) => c === 429).length).toBe(20);
    expect(compared.n).toBe(10);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
  });
});

describe('per-address cap under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_IP_MAX_FAILURES: '30' } });
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('40 concurrent guesses on different documents from one address: at most 30 answered', async () => {
    const codes = (
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => login(t, '000111', String(3000000 + i), '10.1.1.1')),
      )
    ).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBe(30);
    expect(codes.filter((c) => c === 429).length).toBe(10);
    // Another address still gets its own allowance.
    expect((await login(t, '000111', '3999999', '10.1.1.2')).statusCode).toBe(401);
  });
});

/**
 * An app whose first lock lasts 15 minutes, with the patient registered before each test. No
 * progressive delay here: the fake clock then moves only when the test says so.
 */
function withTimedLocks(maxMinutes: number, hardLockAfter: number): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        LOGIN_IP_MAX_FAILURES: '1000',
        LOGIN_DELAY_MAX_MS: '0',
        LOGIN_LOCK_MINUTES: '15',
        LOGIN_LOCK_MAX_MINUTES: String(maxMinutes),
        LOGIN_HARD_LOCK_AFTER: String(hardLockAfter),
      },
    });
  });
  beforeEach(async () => {
    await t.reset();
    await upsertPatient(t.ctx, PATIENT);
  });
  afterAll(() => t.close());
  return () => t;
}

describe('timed locks, growing, with a hard cap (issue 11 item 3)', () => {
  const app = withTimedLocks(60, 30);
  let t: TestApp;
  beforeEach(() => {
    t = app();
  });

  /** n wrong guesses: the lockAfter-th (10th) locks the account and is answered as locked. */
  const failTimes = async (n: number) => {
    for (let i = 0; i < n; i++) {
      expect((await login(t, WRONG(i))).statusCode).toBe(i === 9 ? 429 : 401);
    }
  };

  it('a lock ends by itself after LOGIN_LOCK_MINUTES', async () => {
    await failTimes(10);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
    t.clock.advance(15 * MIN - 1000);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(200);
  });

  it('each further lock without a success lasts twice as long, up to the maximum', async () => {
    await failTimes(10);
    t.clock.advance(15 * MIN);
    await failTimes(10);
    t.clock.advance(30 * MIN - 1000);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(200);
    // The success reset the ledger: the next lock is a first lock again (15 minutes).
    await failTimes(10);
    t.clock.advance(15 * MIN);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(200);
  });

  it('guesses refused by a lock are not compared and do not count towards the hard cap', async () => {
    await failTimes(10);
    const compared = countComparisons(t);
    for (let i = 0; i < 25; i++) expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
    expect(compared.n).toBe(0);
    t.clock.advance(15 * MIN);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(200);
  });

  it('after LOGIN_HARD_LOCK_AFTER failures without a success only recovery or the operator lifts it', async () => {
    for (let round = 0; round < 3; round++) {
      await failTimes(10);
      t.clock.advance(60 * MIN);
    }
    t.clock.advance(365 * 24 * 60 * MIN);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(429);
    const { rows } = await t.ctx.db.query<{ permanent: boolean }>(
      "SELECT locked_until = 'infinity' AS permanent FROM login_guards",
    );
    expect(rows).toEqual([{ permanent: true }]);
    await clearLoginGuard(t.ctx, PATIENT.numero_documento);
    expect((await login(t, PATIENT.pin)).statusCode).toBe(200);
  });

  it('an unknown document is locked, timed and capped exactly like a known one', async () => {
    for (let i = 0; i < 10; i++) await login(t, WRONG(i), '8888888');
    const { rows } = await t.ctx.db.query<{ n: number; locked: boolean }>(
      "SELECT consecutive_failures AS n, locked_until > $1 AS locked FROM login_guards WHERE numero_documento = '8888888'",
      [new Date(t.clock.now())],
    );
    expect(rows).toEqual([{ n: 10, locked: true }]);
  });
});

describe("a locked account's answer (issue 29 item 9)", () => {
  const app = withTimedLocks(120, 40);
  let t: TestApp;
  beforeEach(() => {
    t = app();
  });

  const UNKNOWN = '8888888';
  /** The answer's status, Retry-After and body: what a stranger could compare. */
  const answer = async (pin: string, documento: string) => {
    const res = await login(t, pin, documento);
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() };
  };
  const lockBoth = async () => {
    const last: Awaited<ReturnType<typeof answer>>[] = [];
    for (const documento of [PATIENT.numero_documento, UNKNOWN]) {
      for (let i = 0; i < 9; i++)
        expect((await login(t, WRONG(i), documento)).statusCode).toBe(401);
      last.push(await answer(WRONG(9), documento));
    }
    return last;
  };

  it('says there were too many attempts, when to try again and offers recovery, for any number', async () => {
    const [known, unknown] = await lockBoth();
    expect(known).toEqual({
      status: 429,
      retryAfter: '900',
      body: {
        success: false,
        message:
          'Demasiados intentos con este número de documento. Por seguridad, esperá 15 minutos ' +
          'e intentá de nuevo, o tocá «¿Olvidaste tu PIN?» para crear uno nuevo.',
      },
    });
    expect(unknown).toEqual(known);
    // The right PIN during the lock gets the same answer as a wrong one, counting down.
    t.clock.advance(5 * MIN);
    const right = await answer(PATIENT.pin, PATIENT.numero_documento);
    expect(right).toEqual(await answer(WRONG(0), UNKNOWN));
    expect(right.retryAfter).toBe('600');
    expect(right.body.message).toContain('esperá 10 minutos');
  });

  it('a long lock is said in hours, and the lock only recovery lifts says so', async () => {
    await lockBoth();
    t.clock.advance(15 * MIN);
    await lockBoth();
    t.clock.advance(30 * MIN);
    const [third] = await lockBoth();
    expect(third!.retryAfter).toBe(String(60 * 60));
    expect(third!.body.message).toContain('esperá 1 hora e');
    t.clock.advance(60 * MIN);
    const [known, unknown] = await lockBoth();
    expect(known!.status).toBe(429);
    expect(known!.retryAfter).toBeUndefined();
    expect(known!.body.message).toBe(
      'Demasiados intentos con este número de documento. Por seguridad, para volver a entrar ' +
        'tocá «¿Olvidaste tu PIN?» y creá un PIN nuevo.',
    );
    expect(unknown).toEqual(known);
  });
});

describe('lock settings', () => {
  it('default to a 15-minute first lock, doubling up to 24 hours, and a hard cap of 100', () => {
    const { login } = testConfig();
    expect([login.lockBaseMs, login.lockMaxMs, login.hardLockAfter]).toEqual([
      15 * MIN,
      24 * 60 * MIN,
      100,
    ]);
    expect([1, 2, 3, 7, 8, 9].map((n) => lockDurationMs(login, n) / MIN)).toEqual([
      15, 30, 60, 960, 1440, 1440,
    ]);
  });
});

describe('sessions are multi-device (issue 11 item 15, README decision)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await upsertPatient(t.ctx, PATIENT);
  });
  afterAll(() => t.close());

  it('a new login leaves the earlier session alive', async () => {
    const sid = async () =>
      (await login(t, PATIENT.pin)).cookies.find((c) => c.name === 'sid')!.value;
    const phone = await sid();
    const kiosk = await sid();
    expect(phone).not.toBe(kiosk);
    for (const cookie of [phone, kiosk]) {
      const res = await t.app.inject({ url: '/api/auth/session', cookies: { sid: cookie } });
      expect(res.json().authenticated).toBe(true);
    }
  });
});
