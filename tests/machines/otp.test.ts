import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { controlled, type Deferred } from './controlled';
import { ApiError } from '../../machines/shared/errors';
import { countdownMachine } from '../../machines/shared/countdown';
import { OtpEndpointMissing, resendCode, validateCode } from '../../machines/otp/otp.actors';
import { otpMachine } from '../../machines/otp/otp.machine';
import { selectOtpAnnouncement, selectOtpView } from '../../machines/otp/otp.selectors';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../../machines/otp/otp.types';

const recipient = { celular: '0981123456' };

/** An OTP actor whose endpoints answer when the test says so. */
function start(extra: { resendAfterSeconds?: number } = {}) {
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  const resend = controlled<OtpVerdict, OtpResendInput>();
  const machine = otpMachine.provide({
    actors: { validateCode: validate.logic, resendCode: resend.logic },
  });
  const actor = createActor(machine, { input: { recipient, ...extra } });
  actor.start();
  return { actor, validations: validate.calls, resends: resend.calls };
}

const entryOf = (a: ReturnType<typeof start>['actor']) =>
  (a.getSnapshot().value as { active: { entry: string } }).active.entry;
const resendOf = (a: ReturnType<typeof start>['actor']) =>
  (a.getSnapshot().value as { active: { resend: string } }).active.resend;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('otp machine: the code', () => {
  it('starts editing an empty code with the resend countdown at 30 s', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toEqual({ active: { entry: 'editing', resend: 'waiting' } });
    expect(actor.getSnapshot().context).toMatchObject({
      code: '',
      secondsLeft: 30,
      error: null,
      notice: null,
    });
  });

  it('strips non-digits and keeps at most 6', () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '4a8-2' });
    expect(actor.getSnapshot().context.code).toBe('482');
    expect(entryOf(actor)).toBe('editing');
    expect(validations).toHaveLength(0);
  });

  it('validates by itself when the 6th digit arrives, with the recipient and the code', () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '48291' });
    expect(entryOf(actor)).toBe('editing');
    actor.send({ type: 'code.change', value: '482915' });
    expect(entryOf(actor)).toBe('validating');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(validations.map((v) => v.input)).toEqual([{ recipient, code: '482915' }]);
  });

  it('accepts a pasted code with spaces and extra characters in one event', () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: ' 482 915 7' });
    expect(actor.getSnapshot().context.code).toBe('482915');
    expect(validations[0]?.input.code).toBe('482915');
  });

  it('ends verified with the recipient as output on success', async () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '482915' });
    validations[0]!.answer.resolve({ success: true });
    const snap = await waitFor(actor, (s) => s.status === 'done');
    expect(snap.value).toBe('verified');
    expect(snap.output).toEqual({ recipient, registration: null });
  });

  it("hands the right code's registration (onboarding) to the parent", async () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '482915' });
    const registration = {
      token: 'T'.repeat(43),
      resumeAt: 'welcome' as const,
      phone: '0981123456',
      email: null,
      sessionId: null,
    };
    validations[0]!.answer.resolve({ success: true, registration });
    const snap = await waitFor(actor, (s) => s.status === 'done');
    expect(snap.output).toEqual({ recipient, registration });
  });

  it('a wrong code (success false) clears the input and sets wrongCode', async () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '482915' });
    validations[0]!.answer.resolve({ success: false, message: 'Código incorrecto' });
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(entryOf(actor)).toBe('failed');
    expect(actor.getSnapshot().context.code).toBe('');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'wrongCode' });
  });

  it('a 4xx refusal is a wrong code too; the next 6 digits validate again and clear the error', async () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '111111' });
    validations[0]!.answer.reject(new ApiError('server', 400, 'El código no es válido.'));
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(actor.getSnapshot().context).toMatchObject({ code: '', error: { code: 'wrongCode' } });
    actor.send({ type: 'code.change', value: '12' });
    expect(entryOf(actor)).toBe('failed');
    actor.send({ type: 'code.change', value: '123456' });
    expect(entryOf(actor)).toBe('validating');
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(validations).toHaveLength(2);
  });

  it.each([
    ['no answer', new ApiError('network', undefined, undefined)],
    ['a TypeError from fetch', new TypeError('Failed to fetch')],
    ['a 503', new ApiError('server', 503, undefined)],
    ['an unreadable answer', new ApiError('invalidResponse', 200, undefined)],
  ])(
    '%s is a network failure that keeps the code, and Continuar retries',
    async (_label, error) => {
      const { actor, validations } = start();
      actor.send({ type: 'code.change', value: '482915' });
      validations[0]!.answer.reject(error);
      await waitFor(actor, (s) => s.hasTag('error'));
      expect(actor.getSnapshot().context).toMatchObject({
        code: '482915',
        error: { code: 'network' },
      });
      expect(selectOtpView(actor.getSnapshot()).canSubmit).toBe(true);
      actor.send({ type: 'code.submit' });
      expect(entryOf(actor)).toBe('validating');
      expect(validations).toHaveLength(2);
    },
  );

  it('429 keeps the server message and wait', async () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '482915' });
    validations[0]!.answer.reject(
      new ApiError(
        'tooManyAttempts',
        429,
        'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
        3600,
      ),
    );
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(actor.getSnapshot().context.error).toEqual({
      code: 'tooManyAttempts',
      serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
      retryAfterSeconds: 3600,
    });
  });

  it('ignores submit with fewer than 6 digits and typing while validating', () => {
    const { actor, validations } = start();
    actor.send({ type: 'code.change', value: '48291' });
    actor.send({ type: 'code.submit' });
    expect(entryOf(actor)).toBe('editing');
    expect(selectOtpView(actor.getSnapshot()).canSubmit).toBe(false);
    actor.send({ type: 'code.change', value: '482915' });
    actor.send({ type: 'code.change', value: '000000' });
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().context.code).toBe('482915');
    expect(validations).toHaveLength(1);
  });
});

describe('otp machine: countdown and resend', () => {
  it('counts down each second and allows resend only at 0', async () => {
    const { actor, resends } = start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(29);
    await vi.advanceTimersByTimeAsync(28_000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(1);
    expect(resendOf(actor)).toBe('waiting');
    actor.send({ type: 'code.resend' });
    expect(resends).toHaveLength(0);
    expect(selectOtpView(actor.getSnapshot()).canResend).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(resendOf(actor)).toBe('available');
    expect(actor.getSnapshot().context.secondsLeft).toBe(0);
    expect(selectOtpView(actor.getSnapshot()).canResend).toBe(true);
  });

  it('keeps counting while a code is being validated', async () => {
    const { actor } = start();
    actor.send({ type: 'code.change', value: '482915' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(entryOf(actor)).toBe('validating');
    expect(actor.getSnapshot().context.secondsLeft).toBe(25);
  });

  it('a successful resend restarts the countdown at 30, clears the code and its error, and flags the notice', async () => {
    const { actor, validations, resends } = start();
    actor.send({ type: 'code.change', value: '111111' });
    validations[0]!.answer.resolve({ success: false });
    await waitFor(actor, (s) => s.hasTag('error'));
    actor.send({ type: 'code.change', value: '12' });
    await vi.advanceTimersByTimeAsync(30_000);
    actor.send({ type: 'code.resend' });
    expect(resendOf(actor)).toBe('resending');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(resends.map((r) => r.input)).toEqual([{ recipient }]);
    resends[0]!.answer.resolve({ success: true });
    await waitFor(actor, (s) => s.context.notice === 'codeResent');
    expect(actor.getSnapshot().value).toEqual({ active: { entry: 'editing', resend: 'waiting' } });
    expect(actor.getSnapshot().context).toMatchObject({ code: '', error: null, secondsLeft: 30 });
    actor.send({ type: 'code.resend' });
    expect(resends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(resendOf(actor)).toBe('available');
  });

  it('the resent notice goes away when the next code is validated', async () => {
    const { actor, resends } = start();
    await vi.advanceTimersByTimeAsync(30_000);
    actor.send({ type: 'code.resend' });
    resends[0]!.answer.resolve({ success: true });
    await waitFor(actor, (s) => s.context.notice === 'codeResent');
    actor.send({ type: 'code.change', value: '482915' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it.each([
    [
      'success false',
      (d: Deferred<OtpVerdict>) => d.resolve({ success: false, message: 'x' }),
      { code: 'resendFailed' },
    ],
    [
      'no answer',
      (d: Deferred<OtpVerdict>) => d.reject(new ApiError('network', undefined, undefined)),
      { code: 'resendFailed' },
    ],
    [
      'a 500',
      (d: Deferred<OtpVerdict>) => d.reject(new ApiError('server', 500, 'boom')),
      { code: 'resendFailed' },
    ],
    [
      'a 429',
      (d: Deferred<OtpVerdict>) =>
        d.reject(
          new ApiError(
            'tooManyAttempts',
            429,
            'Demasiados intentos. Esperá 30 minutos e intentá de nuevo.',
            1800,
          ),
        ),
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 30 minutos e intentá de nuevo.',
        retryAfterSeconds: 1800,
      },
    ],
  ])('resend failure (%s) is its own error and can be retried', async (_label, fail, expected) => {
    const { actor, resends } = start();
    actor.send({ type: 'code.change', value: '48' });
    await vi.advanceTimersByTimeAsync(30_000);
    actor.send({ type: 'code.resend' });
    fail(resends[0]!.answer);
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(resendOf(actor)).toBe('resendFailed');
    expect(actor.getSnapshot().context.resendError).toEqual(expected);
    expect(actor.getSnapshot().context.code).toBe('48');
    expect(selectOtpView(actor.getSnapshot()).resendError).toEqual(expected);
    actor.send({ type: 'code.resend' });
    expect(resendOf(actor)).toBe('resending');
    expect(actor.getSnapshot().context.resendError).toBeNull();
    expect(resends).toHaveLength(2);
  });

  it('does not resend while a code is being validated', async () => {
    const { actor, resends } = start();
    await vi.advanceTimersByTimeAsync(30_000);
    actor.send({ type: 'code.change', value: '482915' });
    actor.send({ type: 'code.resend' });
    expect(resendOf(actor)).toBe('available');
    expect(resends).toHaveLength(0);
  });

  it("follows the server's resend wait when it announces one", async () => {
    const { actor, resends } = start({ resendAfterSeconds: 45 });
    expect(actor.getSnapshot().context.secondsLeft).toBe(45);
    await vi.advanceTimersByTimeAsync(44_000);
    expect(resendOf(actor)).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1_000);
    actor.send({ type: 'code.resend' });
    resends[0]!.answer.resolve({ success: true, resendAfterSeconds: 60 });
    await waitFor(actor, (s) => s.context.notice === 'codeResent');
    expect(actor.getSnapshot().context.secondsLeft).toBe(60);
    expect(selectOtpAnnouncement(actor.getSnapshot())).toEqual({ kind: 'wait', seconds: 60 });
  });

  it('stops its timer when it stops', async () => {
    const { actor } = start();
    actor.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('otp selectors', () => {
  it('announce the wait at 30 s and 10 s and the resend at 0, not every second', async () => {
    const { actor } = start();
    const heard: unknown[] = [];
    let last = '';
    for (let t = 0; t <= 30; t += 1) {
      const a = JSON.stringify(selectOtpAnnouncement(actor.getSnapshot()));
      if (a !== last) heard.push(JSON.parse(a));
      last = a;
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(heard).toEqual([
      { kind: 'wait', seconds: 30 },
      { kind: 'wait', seconds: 10 },
      { kind: 'resendAvailable' },
    ]);
  });

  it('show validating and resending separately', async () => {
    const { actor } = start();
    actor.send({ type: 'code.change', value: '482915' });
    expect(selectOtpView(actor.getSnapshot())).toMatchObject({
      validating: true,
      resending: false,
      busy: true,
    });
  });
});

describe('otp endpoints', () => {
  it('fail loudly when a parent forgot to provide them', async () => {
    const v = createActor(validateCode, { input: { recipient, code: '123456' } });
    const r = createActor(resendCode, { input: { recipient } });
    const errors: unknown[] = [];
    v.subscribe({ error: (e) => errors.push(e) });
    r.subscribe({ error: (e) => errors.push(e) });
    v.start();
    r.start();
    await vi.waitFor(() => expect(errors).toHaveLength(2));
    expect(errors.every((e) => e instanceof OtpEndpointMissing)).toBe(true);
  });
});

describe('countdown machine', () => {
  it('counts with the simulated clock and ends at 0', () => {
    const clock = new SimulatedClock();
    const actor = createActor(countdownMachine, { input: { seconds: 3 }, clock }).start();
    expect(actor.getSnapshot().context.secondsLeft).toBe(3);
    clock.increment(999);
    expect(actor.getSnapshot().context.secondsLeft).toBe(3);
    clock.increment(1);
    expect(actor.getSnapshot().context.secondsLeft).toBe(2);
    clock.increment(1_000);
    expect(actor.getSnapshot().context.secondsLeft).toBe(1);
    clock.increment(1_000);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ secondsLeft: 0 });
  });

  it('is done at once for 0 or a negative wait', () => {
    const actor = createActor(countdownMachine, { input: { seconds: -2 } }).start();
    expect(actor.getSnapshot().status).toBe('done');
  });
});
