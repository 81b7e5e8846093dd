import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type ActorRefFrom, type AnyActorLogic } from 'xstate';
import type {
  SendPinOtpRequest,
  SendPinOtpResponse,
  SetNewPinRequest,
  SetNewPinResponse,
} from '../../contract/recovery';
import { otpMachine } from '../../machines/otp/otp.machine';
import { selectOtpView } from '../../machines/otp/otp.selectors';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../../machines/otp/otp.types';
import {
  resendRecoveryCode,
  saveNewPin,
  sendRecoveryCode,
  validateRecoveryCode,
} from '../../machines/recovery/recovery.actors';
import { recoveryMachine } from '../../machines/recovery/recovery.machine';
import {
  selectNewPinView,
  selectOtpActor,
  selectRecoveryScreen,
  selectRecoveryStep,
  selectRequestView,
} from '../../machines/recovery/recovery.selectors';
import { ApiError } from '../../machines/shared/errors';
import { controlled } from './controlled';

const DOC = '1234567';
const CEL = '0981123456';

/** A recovery actor whose calls (its own and the OTP child's) answer when the test says so. */
function start() {
  const send = controlled<SendPinOtpResponse, SendPinOtpRequest>();
  const save = controlled<SetNewPinResponse, SetNewPinRequest>();
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  const resend = controlled<OtpVerdict, OtpResendInput>();
  const machine = recoveryMachine.provide({
    actors: {
      sendRecoveryCode: send.logic,
      saveNewPin: save.logic,
      otp: otpMachine.provide({
        actors: { validateCode: validate.logic, resendCode: resend.logic },
      }),
    },
  });
  const actor = createActor(machine);
  actor.start();
  return {
    actor,
    sends: send.calls,
    saves: save.calls,
    validations: validate.calls,
    resends: resend.calls,
  };
}
type Started = ReturnType<typeof start>;

const otpOf = (a: Started['actor']) =>
  selectOtpActor(a.getSnapshot()) as ActorRefFrom<typeof otpMachine>;

function fillRequest(a: Started['actor'], documento = DOC, celular = CEL) {
  a.send({ type: 'documento.change', value: documento });
  a.send({ type: 'celular.change', value: celular });
}

/** Step 0 done: the code was sent. */
async function toVerification(t: Started, resendAfterSeconds = 30) {
  fillRequest(t.actor);
  t.actor.send({ type: 'form.submit' });
  t.sends.at(-1)!.answer.resolve({ success: true, message: 'ok', resendAfterSeconds });
  await waitFor(t.actor, (s) => s.matches('verification'));
}

/** Step 1 done: the code was accepted. */
async function toNewPin(t: Started) {
  await toVerification(t);
  otpOf(t.actor).send({ type: 'code.change', value: '482915' });
  otpOf(t.actor).send({ type: 'code.submit' });
  t.validations.at(-1)!.answer.resolve({ success: true });
  await waitFor(t.actor, (s) => s.matches('newPin'));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('recovery machine, step 0 (Recuperar Pin)', () => {
  it('starts empty on step 0', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toEqual({ request: 'editing' });
    expect(selectRecoveryStep(actor.getSnapshot())).toBe(0);
    expect(selectRequestView(actor.getSnapshot())).toMatchObject({
      documento: '',
      celular: '',
      canSubmit: false,
      error: null,
    });
  });

  it('keeps digits only in the document (up to 12); a pasted +595 mobile becomes the local 09XXXXXXXX', () => {
    const { actor } = start();
    actor.send({ type: 'documento.change', value: '1.234.567-89012345' });
    actor.send({ type: 'celular.change', value: '+595 981 123 456' });
    expect(actor.getSnapshot().context).toMatchObject({
      documento: '123456789012',
      celular: CEL,
    });
  });

  /** What the field holds after each keystroke of `typed`, as a browser sends them. */
  function typeCelular(actor: Started['actor'], typed: string) {
    for (let i = 1; i <= typed.length; i += 1) {
      const field = actor.getSnapshot().context.celular;
      actor.send({ type: 'celular.change', value: field + typed[i - 1] });
    }
    return actor.getSnapshot().context.celular;
  }

  it('holds the mobile to digits only, at most 10 (the spec: 098XXXXXXX), typed or pasted (issue 43 item 4)', () => {
    const { actor } = start();
    expect(typeCelular(actor, '0981-765461999')).toBe('0981765461');
    actor.send({ type: 'celular.change', value: '' });
    actor.send({ type: 'celular.change', value: '0981-765461999' });
    expect(actor.getSnapshot().context.celular).toBe('0981765461');
    actor.send({ type: 'celular.change', value: '0981 123 456' });
    expect(actor.getSnapshot().context.celular).toBe(CEL);
  });

  it('a mobile typed with its country code on the keypad ends as the local number', () => {
    const { actor } = start();
    expect(typeCelular(actor, '+595 981 123456')).toBe(CEL);
    actor.send({ type: 'celular.change', value: '' });
    expect(typeCelular(actor, '981123456')).toBe(CEL);
  });

  it.each(['+595 981 123456', '0981 123 456', '981123456', '(0981) 123-456'])(
    'a pasted mobile (%s) is valid and sent as the local 0981123456',
    (pasted) => {
      const t = start();
      fillRequest(t.actor, DOC, pasted);
      t.actor.send({ type: 'form.submit' });
      expect(t.actor.getSnapshot().value).toEqual({ request: 'sending' });
      expect(t.sends.map((c) => c.input)).toEqual([{ numero_documento: DOC, celular: CEL }]);
    },
  );

  it('refuses a short document or a number that is not a Paraguayan mobile, without a call', () => {
    const { actor, sends } = start();
    fillRequest(actor, '1234', CEL);
    expect(selectRequestView(actor.getSnapshot()).canSubmit).toBe(true);
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toEqual({ request: 'invalid' });
    expect(selectRequestView(actor.getSnapshot())).toMatchObject({
      documentoError: 'documentoInvalid',
      celularError: null,
      error: null,
      focus: 'documento',
      failures: 1,
    });
    fillRequest(actor, DOC, '0211234567');
    actor.send({ type: 'form.submit' });
    expect(selectRequestView(actor.getSnapshot())).toMatchObject({
      documentoError: null,
      celularError: 'celularInvalid',
      focus: 'celular',
      failures: 2,
    });
    // Both wrong: both say so, each under its field; a second refused submit counts again.
    fillRequest(actor, '12', '0211234567');
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.submit' });
    expect(selectRequestView(actor.getSnapshot())).toMatchObject({
      documentoError: 'documentoInvalid',
      celularError: 'celularInvalid',
      focus: 'documento',
      failures: 4,
    });
    // Fixing a field clears its own message only.
    actor.send({ type: 'celular.change', value: CEL });
    expect(actor.getSnapshot().value).toEqual({ request: 'editing' });
    expect(selectRequestView(actor.getSnapshot())).toMatchObject({
      documentoError: 'documentoInvalid',
      celularError: null,
    });
    actor.send({ type: 'documento.change', value: DOC });
    expect(selectRequestView(actor.getSnapshot()).documentoError).toBeNull();
    expect(sends).toHaveLength(0);
  });

  it('sends document and mobile, ignores edits and submits while sending, and moves to step 1', async () => {
    const t = start();
    fillRequest(t.actor, DOC, '981123456');
    t.actor.send({ type: 'form.submit' });
    expect(t.actor.getSnapshot().value).toEqual({ request: 'sending' });
    expect(t.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(t.sends.map((c) => c.input)).toEqual([{ numero_documento: DOC, celular: CEL }]);
    t.actor.send({ type: 'documento.change', value: '999' });
    t.actor.send({ type: 'form.submit' });
    expect(t.sends).toHaveLength(1);
    expect(t.actor.getSnapshot().context.documento).toBe(DOC);
    t.sends[0]!.answer.resolve({ success: true, resendAfterSeconds: 25 });
    await waitFor(t.actor, (s) => s.matches('verification'));
    expect(selectRecoveryStep(t.actor.getSnapshot())).toBe(1);
    // The OTP child knows both the normalised mobile and the document, and the server's wait.
    const otp = otpOf(t.actor).getSnapshot();
    expect(otp.context.recipient).toEqual({ celular: CEL, numeroDocumento: DOC });
    expect(otp.context.secondsLeft).toBe(25);
    // The 6th digit validates, as in registration (issue 29 item 15).
    expect(otp.context.autoValidate).toBe(true);
  });

  it.each([
    ['no answer', new ApiError('network', undefined, undefined), { code: 'sendFailed' }],
    [
      'a 400 with a message',
      new ApiError('server', 400, 'Ingresá tu celular registrado.'),
      { code: 'sendFailed', serverMessage: 'Ingresá tu celular registrado.' },
    ],
    ['a 502 without message', new ApiError('server', 502, undefined), { code: 'sendFailed' }],
    [
      'a 429',
      new ApiError(
        'tooManyAttempts',
        429,
        'Si los datos coinciden con tu registro, ya te enviamos un código. Podés pedir otro en 30 segundos.',
        30,
      ),
      {
        code: 'tooManyAttempts',
        serverMessage:
          'Si los datos coinciden con tu registro, ya te enviamos un código. Podés pedir otro en 30 segundos.',
      },
    ],
    [
      'an unreadable answer',
      new ApiError('invalidResponse', 200, undefined),
      { code: 'sendFailed' },
    ],
  ])('a failed send (%s) stays on step 0 with what was typed', async (_name, error, expected) => {
    const t = start();
    fillRequest(t.actor);
    t.actor.send({ type: 'form.submit' });
    t.sends[0]!.answer.reject(error);
    await waitFor(t.actor, (s) => s.matches({ request: 'failed' }));
    expect(t.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(t.actor.getSnapshot().context).toMatchObject({
      documento: DOC,
      celular: CEL,
      error: expected,
    });
    // Submitting again retries.
    t.actor.send({ type: 'form.submit' });
    expect(t.sends).toHaveLength(2);
  });

  it('a success:false answer is a failure with its message', async () => {
    const t = start();
    fillRequest(t.actor);
    t.actor.send({ type: 'form.submit' });
    t.sends[0]!.answer.resolve({ success: false, message: 'Error enviando OTP' });
    await waitFor(t.actor, (s) => s.matches({ request: 'failed' }));
    expect(t.actor.getSnapshot().context.error).toEqual({
      code: 'sendFailed',
      serverMessage: 'Error enviando OTP',
    });
  });
});

describe('recovery machine, step 1 (Verificá tu código)', () => {
  it('checks the code at the 6th digit, as registration does (issue 29 item 15)', async () => {
    const t = start();
    await toVerification(t);
    const otp = otpOf(t.actor);
    otp.send({ type: 'code.submit' });
    expect(t.validations).toHaveLength(0);
    otp.send({ type: 'code.change', value: '48 29 1' });
    expect(t.validations).toHaveLength(0);
    otp.send({ type: 'code.change', value: '48 29 15' });
    expect(t.validations.map((v) => v.input)).toEqual([
      { recipient: { celular: CEL, numeroDocumento: DOC }, code: '482915' },
    ]);
  });

  it('a wrong code stays on step 1 with the code cleared; the right one goes to step 2', async () => {
    const t = start();
    await toVerification(t);
    const otp = otpOf(t.actor);
    otp.send({ type: 'code.change', value: '111111' });
    otp.send({ type: 'code.submit' });
    t.validations[0]!.answer.reject(new ApiError('server', 401, 'Código incorrecto o vencido.'));
    await waitFor(otp, (s) => s.hasTag('error'));
    expect(selectOtpView(otp.getSnapshot())).toMatchObject({
      code: '',
      error: { code: 'wrongCode' },
    });
    expect(t.actor.getSnapshot().matches('verification')).toBe(true);
    otp.send({ type: 'code.change', value: '482915' });
    otp.send({ type: 'code.submit' });
    t.validations[1]!.answer.resolve({ success: true });
    await waitFor(t.actor, (s) => s.matches('newPin'));
    expect(selectRecoveryStep(t.actor.getSnapshot())).toBe(2);
  });

  it('resend only at 0 of the 30 s countdown (fake clock): same document and mobile, code cleared, countdown restarted', async () => {
    const t = start();
    await toVerification(t);
    const otp = otpOf(t.actor);
    otp.send({ type: 'code.change', value: '123' });
    otp.send({ type: 'code.resend' });
    expect(t.resends).toHaveLength(0);
    vi.advanceTimersByTime(29_000);
    expect(selectOtpView(otp.getSnapshot())).toMatchObject({ secondsLeft: 1, canResend: false });
    vi.advanceTimersByTime(1_000);
    expect(selectOtpView(otp.getSnapshot())).toMatchObject({ secondsLeft: 0, canResend: true });
    otp.send({ type: 'code.resend' });
    expect(t.resends.map((r) => r.input)).toEqual([
      { recipient: { celular: CEL, numeroDocumento: DOC } },
    ]);
    t.resends[0]!.answer.resolve({ success: true, resendAfterSeconds: 30 });
    await waitFor(otp, (s) => s.matches({ active: { resend: 'waiting' } }));
    expect(selectOtpView(otp.getSnapshot())).toMatchObject({
      code: '',
      secondsLeft: 30,
      canResend: false,
      notice: 'codeResent',
    });
  });

  it('a failed resend keeps the typed code and lets the patient resend again', async () => {
    const t = start();
    await toVerification(t);
    const otp = otpOf(t.actor);
    vi.advanceTimersByTime(30_000);
    otp.send({ type: 'code.change', value: '4829' });
    otp.send({ type: 'code.resend' });
    t.resends[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(otp, (s) => s.matches({ active: { resend: 'resendFailed' } }));
    expect(selectOtpView(otp.getSnapshot())).toMatchObject({
      code: '4829',
      resendError: { code: 'resendFailed' },
      canResend: true,
    });
  });

  it("the back arrow returns to step 0 with what was typed there, and stops the code's countdown", async () => {
    const t = start();
    await toVerification(t);
    const otp = otpOf(t.actor);
    t.actor.send({ type: 'flow.back' });
    expect(t.actor.getSnapshot().value).toEqual({ request: 'editing' });
    expect(t.actor.getSnapshot().context).toMatchObject({ documento: DOC, celular: CEL });
    expect(otp.getSnapshot().status).toBe('stopped');
    expect(selectOtpActor(t.actor.getSnapshot())).toBeUndefined();
  });

  it('a code step that fails as a machine shows the unexpected page; back returns to step 0', async () => {
    const machine = recoveryMachine.provide({
      actors: {
        sendRecoveryCode: fromPromise<SendPinOtpResponse, SendPinOtpRequest>(async () => ({
          success: true,
        })),
        otp: fromPromise<never>(async () => {
          throw new Error('bug');
        }) as unknown as typeof otpMachine,
      },
    });
    const actor = createActor(machine).start();
    fillRequest(actor);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('unexpected'));
    expect(selectRecoveryScreen(actor.getSnapshot())).toBe('unexpected');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'unexpected' });
    actor.send({ type: 'flow.back' });
    expect(actor.getSnapshot().value).toEqual({ request: 'editing' });
  });
});

describe('recovery machine, step 2 (Nuevo PIN) and 3', () => {
  it('keeps digits only, at most 6; refuses the banned PINs without a call', async () => {
    const t = start();
    await toNewPin(t);
    t.actor.send({ type: 'pin.change', value: '12a34567' });
    expect(t.actor.getSnapshot().context.pin).toBe('123456');
    t.actor.send({ type: 'form.submit' });
    expect(t.actor.getSnapshot().value).toEqual({ newPin: 'invalid' });
    expect(selectNewPinView(t.actor.getSnapshot())).toMatchObject({
      pinError: { code: 'pinInvalid' },
      error: null,
      failures: 1,
    });
    t.actor.send({ type: 'pin.change', value: '4829' });
    t.actor.send({ type: 'form.submit' });
    expect(t.actor.getSnapshot().context.error).toEqual({ code: 'pinInvalid' });
    expect(t.saves).toHaveLength(0);
  });

  it('refuses 6 digits in a row of the document number without a call; the server refuses the birth date', async () => {
    const t = start();
    await toNewPin(t);
    // DOC is the document typed at step 0.
    t.actor.send({ type: 'pin.change', value: DOC.slice(1, 7) });
    t.actor.send({ type: 'form.submit' });
    expect(selectNewPinView(t.actor.getSnapshot()).pinError).toEqual({ code: 'pinFromOwnData' });
    expect(t.saves).toHaveLength(0);
    t.actor.send({ type: 'pin.change', value: '140387' });
    t.actor.send({ type: 'form.submit' });
    t.saves[0]!.answer.reject(
      new ApiError('server', 400, 'Tu PIN no puede salir...', undefined, 'pinFromOwnData'),
    );
    await waitFor(t.actor, (s) => s.matches({ newPin: 'failed' }));
    expect(selectNewPinView(t.actor.getSnapshot())).toMatchObject({
      pinError: { code: 'pinFromOwnData' },
      error: null,
      pin: '140387',
    });
  });

  it('saves document and PIN; a failure keeps the PIN; a retry saves; success is step 3 and forgets the PIN', async () => {
    const t = start();
    await toNewPin(t);
    t.actor.send({ type: 'pin.change', value: '270583' });
    t.actor.send({ type: 'form.submit' });
    expect(t.actor.getSnapshot().value).toEqual({ newPin: 'saving' });
    expect(selectNewPinView(t.actor.getSnapshot())).toMatchObject({
      saving: true,
      canSubmit: false,
    });
    expect(t.saves.map((s) => s.input)).toEqual([{ numero_documento: DOC, pin: '270583' }]);
    t.saves[0]!.answer.reject(new ApiError('server', 403, 'Tu autorización venció.'));
    await waitFor(t.actor, (s) => s.matches({ newPin: 'failed' }));
    expect(t.actor.getSnapshot().context).toMatchObject({
      pin: '270583',
      error: { code: 'saveFailed', serverMessage: 'Tu autorización venció.' },
    });
    t.actor.send({ type: 'form.submit' });
    t.saves[1]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(t.actor, (s) => s.matches({ newPin: 'failed' }));
    expect(t.actor.getSnapshot().context.error).toEqual({ code: 'saveFailed' });
    t.actor.send({ type: 'form.submit' });
    t.saves[2]!.answer.resolve({ success: true, message: 'PIN actualizado correctamente.' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.actor.getSnapshot().value).toBe('done');
    expect(selectRecoveryStep(t.actor.getSnapshot())).toBe(3);
    expect(t.actor.getSnapshot().context.pin).toBe('');
  });

  it('a success:false answer to the save is a failure with its message', async () => {
    const t = start();
    await toNewPin(t);
    t.actor.send({ type: 'pin.change', value: '270583' });
    t.actor.send({ type: 'form.submit' });
    t.saves[0]!.answer.resolve({ success: false });
    await waitFor(t.actor, (s) => s.matches({ newPin: 'failed' }));
    expect(t.actor.getSnapshot().context.error).toEqual({ code: 'saveFailed' });
  });
});

describe('recovery actors: the endpoints and their bodies', () => {
  it('send, validate, resend and save call the spec paths with the spec fields', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ success: true }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const recipient = { celular: CEL, numeroDocumento: DOC };
    const run = (logic: AnyActorLogic, input: unknown) =>
      waitFor(createActor(logic, { input }).start(), (s) => s.status === 'done');
    await run(sendRecoveryCode, { numero_documento: DOC, celular: CEL });
    await run(validateRecoveryCode, { recipient, code: '482915' });
    await run(resendRecoveryCode, { recipient });
    await run(saveNewPin, { numero_documento: DOC, pin: '270583' });
    expect(calls).toEqual([
      { url: '/api/auth/send-pin-otp', body: { numero_documento: DOC, celular: CEL } },
      {
        url: '/api/auth/validate-pin-otp',
        body: { numero_documento: DOC, celular: CEL, otp: '482915' },
      },
      { url: '/api/auth/send-pin-otp', body: { numero_documento: DOC, celular: CEL } },
      { url: '/api/auth/set-new-pin', body: { numero_documento: DOC, pin: '270583' } },
    ]);
  });
});
