import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  createMachine,
  type AnyActorRef,
  type AnyEventObject,
  fromCallback,
  fromPromise,
  waitFor,
  type SnapshotFrom,
} from 'xstate';
import type { ResultResponse } from '../../contract/common';
import { controlled, type Deferred } from './controlled';
import {
  BANNED_PINS,
  type CurrentRegistrationResponse,
  type OpenLinkResponse,
  type RegisterRequest,
  type RegisterResponse,
  type RegistrationResume,
  type RegistrationStatusResponse,
  type SavePinRequest,
  type SendLinkResponse,
  type StartRequest,
  type StartResponse,
} from '../../contract/onboarding';
import { PRIVACY_VERSION, TERMS_VERSION } from '../../contract/terms';
import { ApiError } from '../../machines/shared/errors';
import type { PollingEvent } from '../../machines/shared/polling';
import type { KycMachine } from '../../machines/kyc/kyc.machine';
import type { KycInput, KycOutput } from '../../machines/kyc/kyc.types';
import { otpMachine } from '../../machines/otp/otp.machine';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../../machines/otp/otp.types';
import {
  FIXTURE_REGISTRATION_TOKEN,
  onboardingFixtures,
} from '../../machines/onboarding/onboarding.fixtures';
import { handoffMachine } from '../../machines/onboarding/handoff.machine';
import { linkOpeningMachine } from '../../machines/onboarding/link.machine';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { pinCreationMachine } from '../../machines/onboarding/pin.machine';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { registeringMachine } from '../../machines/onboarding/registering.machine';
import { registrationFormMachine } from '../../machines/onboarding/registration.machine';
import type { OnboardingInput } from '../../machines/onboarding/onboarding.types';
import {
  selectGoHome,
  selectHandoffView,
  selectKycActor,
  selectKycProgressStep,
  selectLinkView,
  selectResumed,
  selectKycLoadView,
  selectOnboardingProgress,
  selectOnboardingScreen,
  selectOnboardingStep,
  selectPinCreationView,
  selectPinRenewalView,
  selectRegisteringView,
  selectRegistrationView,
} from '../../machines/onboarding/onboarding.selectors';

/** What validate-otp answers for a new mobile: a registration that starts at the PIN. */
const REGISTRATION: RegistrationResume = {
  token: FIXTURE_REGISTRATION_TOKEN,
  resumeAt: 'pin',
  phone: '0981123456',
  email: null,
  sessionId: null,
};

/** A review case a person has not decided yet (issue 30). */
const OPEN_CASE = {
  kind: 'review' as const,
  status: 'open' as const,
  trigger: 'face_mismatch' as const,
  openedAt: '2026-11-26T13:00:00.000Z',
  expectedBy: '2026-11-28T13:00:00.000Z',
};

const kycOutput: KycOutput = {
  sessionId: 'kyc-session-1',
  kycResult: { success: true, kyc_complete: true },
  supplementaryData: {
    tipoSangre: 'A+',
    direccion: 'Calle 1',
    departamento: '11',
    ciudad_id: '11-3',
  },
};

/** The wizard with every call answered by the test. */
function harness(
  options: {
    snapshot?: SnapshotFrom<typeof onboardingMachine>;
    kycOutput?: KycOutput;
    input?: OnboardingInput;
    /** A reload's restore answered by the test (else: this browser holds no registration). */
    restore?: 'controlled';
    /** Leaving's forget answered by the test (else: at once). */
    forget?: 'controlled';
  } = {},
) {
  const send = controlled<StartResponse, StartRequest>();
  const register = controlled<RegisterResponse, RegisterRequest>();
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  // Step 4's code: each (pre)load of the KYC chunk waits for the test to answer it.
  const load = controlled<KycMachine, unknown>();
  const kycInputs: KycInput[] = [];
  const fakeKyc = createMachine({
    types: {} as { input: KycInput; output: KycOutput },
    initial: 'capturing',
    entry: ({ event }) => kycInputs.push((event as { input?: KycInput }).input),
    states: { capturing: { on: { 'test.finish': 'done' } }, done: { type: 'final' } },
    output: () => options.kycOutput ?? kycOutput,
  });
  const savePin = controlled<ResultResponse, SavePinRequest>();
  const sendLink = controlled<SendLinkResponse, { registrationToken: string }>();
  const openLink = controlled<OpenLinkResponse, { linkToken: string }>();
  const restore = controlled<CurrentRegistrationResponse, unknown>();
  const forget = controlled<ResultResponse, { registrationToken: string }>();
  const forgotten = fromPromise<ResultResponse, { registrationToken: string }>(async () => ({
    success: true,
  }));
  const noRegistration = fromPromise<CurrentRegistrationResponse>(async () => ({
    success: true,
    registration: null,
  }));
  // The first device's status polling: started and stopped here; its answers are sent by the test.
  const statusPolls: Array<{ registrationToken: string }> = [];
  const machine = onboardingMachine.provide({
    actors: {
      // Each step's child with its calls answered by the test, as the wizard invokes it.
      registrationForm: registrationFormMachine.provide({ actors: { sendCode: send.logic } }),
      pinCreation: pinCreationMachine.provide({ actors: { savePin: savePin.logic } }),
      linkOpening: linkOpeningMachine.provide({ actors: { openLink: openLink.logic } }),
      handoff: handoffMachine.provide({
        actors: {
          sendLink: sendLink.logic,
          registrationStatus: fromCallback<
            { type: 'noop' },
            { registrationToken: string; delayFirst?: boolean },
            PollingEvent<RegistrationStatusResponse>
          >(({ input }) => {
            statusPolls.push(input);
            return () => {};
          }),
        },
      }),
      registering: registeringMachine.provide({ actors: { registerPatient: register.logic } }),
      otp: otpMachine.provide({
        actors: {
          validateCode: validate.logic,
          resendCode: fromPromise<OtpVerdict, OtpResendInput>(async () => ({ success: true })),
        },
      }),
      loadKyc: load.logic,
      restoreRegistration: options.restore ? restore.logic : noRegistration,
      forgetRegistration: options.forget ? forget.logic : forgotten,
    },
  });
  // The KYC capture steps have their own tests: a stand-in that finishes when told, with the real output type.
  const kycLogic = fakeKyc as unknown as KycMachine;
  const actor = createActor(machine, {
    input: options.input ?? {},
    ...(options.snapshot ? { snapshot: options.snapshot } : {}),
  });
  actor.start();
  const screen = () => selectOnboardingScreen(actor.getSnapshot());
  const children = () => actor.getSnapshot().children;
  /** The step's child the view talks to (the form, a PIN step, the handoff). */
  const stepOrNone = (): AnyActorRef | undefined => {
    const c = children();
    return c.registrationForm ?? c.pinCreation ?? c.pinRenewal ?? c.handoff ?? c.registering;
  };
  const step = (): AnyActorRef => stepOrNone()!;
  /** An event as the view sends it: to the step's child when the step has one, else the wizard. */
  const sendStep = (event: AnyEventObject) => (stepOrNone() ?? (actor as AnyActorRef)).send(event);
  return {
    actor,
    step,
    send: sendStep,
    form: () => children().registrationForm!,
    pinStep: () => children().pinCreation!,
    renewal: () => children().pinRenewal!,
    handoffStep: () => children().handoff!,
    registering: () => children().registering!,
    /** The wizard's state with its step child's state under it ({ registration: 'sending' }). */
    where: () => whereOf(actor.getSnapshot()),
    /** The wizard's tag, or its step child's (busy, error). */
    hasTag: (tag: 'busy' | 'error') =>
      actor.getSnapshot().hasTag(tag) || Boolean(stepOrNone()?.getSnapshot().hasTag(tag)),
    sends: send.calls,
    registers: register.calls,
    validations: validate.calls,
    savePins: savePin.calls,
    links: sendLink.calls,
    opens: openLink.calls,
    restores: restore.calls,
    forgets: forget.calls,
    statusPolls,
    loads: load.calls,
    kycLogic,
    kycInputs,
    screen,
  };
}

type Harness = ReturnType<typeof harness>;

const STEP_CHILD = {
  registration: 'registrationForm',
  pinCreation: 'pinCreation',
  pinRenewal: 'pinRenewal',
  handoff: 'handoff',
  registering: 'registering',
} as const;

/** A wizard snapshot's state, with the state of the step's child under the step's name. */
function whereOf(s: SnapshotFrom<typeof onboardingMachine>): unknown {
  const v = s.value;
  // Step 0's own states (restoring a reload's registration, ready) are not the form's.
  const step = typeof v === 'string' ? v : Object.keys(v)[0]!;
  if (!(step in STEP_CHILD)) return v;
  const child = (s.children as Record<string, AnyActorRef | undefined>)[
    STEP_CHILD[step as keyof typeof STEP_CHILD]
  ];
  return child ? { [step]: child.getSnapshot().value } : v;
}

/** 'Validar' on a ready PIN step, and the server keeps it: the welcome. */
async function pinSaved(h: Harness) {
  h.send({ type: 'form.submit' });
  h.savePins.at(-1)!.answer.resolve({ success: true });
  await waitFor(h.actor, (s) => s.matches('welcome'));
}

/** 'Siguiente' on the welcome, and step 4's code arrives: the KYC child runs. */
async function toKyc(h: Harness) {
  h.actor.send({ type: 'welcome.next' });
  h.loads.at(-1)!.answer.resolve(h.kycLogic);
  await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
}

const fillPhone = (h: ReturnType<typeof harness>, phone = '981 123 456', email = '') => {
  h.send({ type: 'phone.change', value: phone });
  h.send({ type: 'email.change', value: email });
  h.send({ type: 'form.submit' });
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('step 0: registration', () => {
  it('starts on step 0 with an empty form', () => {
    const h = harness();
    expect(h.where()).toEqual({ registration: 'editing' });
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(0);
    expect(selectRegistrationView(h.form().getSnapshot())).toMatchObject({
      phoneInput: '',
      phoneError: null,
      error: null,
    });
  });

  it('keeps digits and separators only, at most 16 characters', () => {
    const h = harness();
    h.send({ type: 'phone.change', value: '+595 (981) 123-456 789 0abc' });
    expect(h.form().getSnapshot().context.phoneInput).toBe('+595 (981) 123-4');
    expect(h.form().getSnapshot().context.phoneInput).toHaveLength(16);
  });

  it('shows the inline phone error on blur only, and clears it once the number is valid', () => {
    const h = harness();
    h.send({ type: 'phone.blur' });
    expect(h.form().getSnapshot().context.fieldErrors.phone).toBeNull();
    h.send({ type: 'phone.change', value: '981 12' });
    expect(h.form().getSnapshot().context.fieldErrors.phone).toBeNull();
    h.send({ type: 'phone.blur' });
    expect(selectRegistrationView(h.form().getSnapshot()).phoneError).toBe('phoneInvalid');
    h.send({ type: 'phone.change', value: '981 123' });
    expect(h.form().getSnapshot().context.fieldErrors.phone).toBe('phoneInvalid');
    h.send({ type: 'phone.change', value: '981 123 456' });
    expect(h.form().getSnapshot().context.fieldErrors.phone).toBeNull();
  });

  it.each([
    ['12345'],
    [''],
    ['021 123 456' /* a landline cannot receive the SMS */],
    ['+54 911 2345 6789'],
  ])('refuses to submit the phone %j: submit message, inline error, no call', (phone) => {
    const h = harness();
    fillPhone(h, phone);
    expect(h.where()).toEqual({ registration: 'invalid' });
    expect(h.hasTag('error')).toBe(true);
    expect(selectRegistrationView(h.form().getSnapshot())).toMatchObject({
      error: { code: 'phoneInvalidSubmit' },
      phoneError: 'phoneInvalid',
    });
    expect(h.sends).toHaveLength(0);
  });

  it('refuses an e-mail that is not an address, accepts it empty', () => {
    const h = harness();
    h.send({ type: 'email.change', value: 'maria@correo' });
    h.send({ type: 'email.blur' });
    expect(h.form().getSnapshot().context.fieldErrors.email).toBe('emailInvalid');
    fillPhone(h, '981123456', 'maria@correo');
    expect(h.where()).toEqual({ registration: 'invalid' });
    expect(selectRegistrationView(h.form().getSnapshot())).toMatchObject({
      emailError: 'emailInvalid',
      phoneError: null,
      error: null,
    });
    h.send({ type: 'email.change', value: 'maria@correo.com.py' });
    expect(h.form().getSnapshot().context.fieldErrors.email).toBeNull();
    h.send({ type: 'email.change', value: '' });
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ registration: 'sending' });
    expect(h.sends[0]!.input).toEqual({ phone: '0981123456' });
  });

  it.each([
    ['981 123 456'],
    ['0981123456'],
    ['+595 981 123456'],
    ['595981123456'],
    ['0981-123-456'],
  ])('sends the normalised phone for %j, with the trimmed e-mail', (phone) => {
    const h = harness();
    fillPhone(h, phone, '  maria@correo.com.py ');
    expect(h.sends.map((s) => s.input)).toEqual([
      { phone: '0981123456', email: 'maria@correo.com.py' },
    ]);
    expect(h.form().getSnapshot().context).toMatchObject({
      phone: '0981123456',
      email: 'maria@correo.com.py',
    });
  });

  it('is locked while sending: no second submit, no edits, no back', () => {
    const h = harness();
    fillPhone(h);
    expect(h.hasTag('busy')).toBe(true);
    expect(selectRegistrationView(h.form().getSnapshot())).toMatchObject({
      sending: true,
      canSubmit: false,
      canGoBack: false,
    });
    h.send({ type: 'form.submit' });
    h.send({ type: 'phone.change', value: '982 000 000' });
    h.send({ type: 'flow.back' });
    expect(h.sends).toHaveLength(1);
    expect(h.form().getSnapshot().context.phoneInput).toBe('981 123 456');
    expect(h.where()).toEqual({ registration: 'sending' });
  });

  it('goes to step 1 when the code is sent; the OTP child gets the phone and the server wait', async () => {
    const h = harness();
    fillPhone(h);
    h.sends[0]!.answer.resolve({
      success: true,
      message: 'Código enviado',
      resendAfterSeconds: 30,
    });
    await waitFor(h.actor, (s) => s.matches('verification'));
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(1);
    const otp = h.actor.getSnapshot().children.otp!;
    expect(otp.getSnapshot().context).toMatchObject({
      recipient: { celular: '0981123456' },
      secondsLeft: 30,
    });
  });

  it.each([
    [
      'success false with a message containing "existe"',
      (d: Deferred<StartResponse>) =>
        d.resolve({
          success: false,
          message: 'Ya existe un paciente registrado con este celular.',
        }),
    ],
    [
      'the onboardingComplete flag',
      (d: Deferred<StartResponse>) =>
        d.resolve({ success: false, message: 'Registro completo', onboardingComplete: true }),
    ],
    [
      'a 409 answer',
      (d: Deferred<StartResponse>) =>
        d.reject(new ApiError('server', 409, 'Ya existe un paciente registrado con este celular.')),
    ],
  ])('shows "patient exists" on %s', async (_label, answer) => {
    const h = harness();
    fillPhone(h);
    answer(h.sends[0]!.answer);
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.screen()).toBe('patientExists');
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBeNull();
  });

  it.each([
    [
      'success false',
      (d: Deferred<StartResponse>) =>
        d.resolve({ success: false, message: 'No se pudo enviar el SMS.' }),
      { code: 'startFailed', serverMessage: 'No se pudo enviar el SMS.' },
    ],
    [
      'success false without text',
      (d: Deferred<StartResponse>) => d.resolve({ success: false, message: '' }),
      { code: 'startFailed' },
    ],
    [
      'a 502 with a message',
      (d: Deferred<StartResponse>) =>
        d.reject(new ApiError('server', 502, 'No se pudo enviar el código. Verificá tu número.')),
      { code: 'startFailed', serverMessage: 'No se pudo enviar el código. Verificá tu número.' },
    ],
    [
      'a 500 without a message',
      (d: Deferred<StartResponse>) => d.reject(new ApiError('server', 500, undefined)),
      { code: 'startFailed' },
    ],
    [
      'no answer',
      (d: Deferred<StartResponse>) => d.reject(new ApiError('network', undefined, undefined)),
      { code: 'sendCodeFailed' },
    ],
    [
      'an unreadable answer',
      (d: Deferred<StartResponse>) => d.reject(new ApiError('invalidResponse', 200, undefined)),
      { code: 'sendCodeFailed' },
    ],
    [
      'a 429',
      (d: Deferred<StartResponse>) =>
        d.reject(
          new ApiError(
            'tooManyAttempts',
            429,
            'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
            3600,
          ),
        ),
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
      },
    ],
  ])('stays on step 0 with an error on %s, and can try again', async (_label, answer, expected) => {
    const h = harness();
    fillPhone(h);
    answer(h.sends[0]!.answer);
    await waitFor(h.form(), (s) => s.hasTag('error'));
    expect(h.where()).toEqual({ registration: 'failed' });
    expect(selectRegistrationView(h.form().getSnapshot()).error).toEqual(expected);
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ registration: 'sending' });
    expect(h.sends).toHaveLength(2);
  });

  it('back goes home', () => {
    const h = harness();
    h.actor.send({ type: 'flow.back' });
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(selectGoHome(h.actor.getSnapshot())).toBe(true);
  });
});

describe('step 1: verification', () => {
  async function atVerification() {
    const h = harness();
    fillPhone(h);
    h.sends[0]!.answer.resolve({ success: true, message: 'ok' });
    await waitFor(h.actor, (s) => s.matches('verification'));
    return h;
  }

  it('goes to step 2 when the OTP child verifies the code', async () => {
    const h = await atVerification();
    h.actor.getSnapshot().children.otp!.send({ type: 'code.change', value: '482915' });
    expect(h.validations[0]!.input).toEqual({
      recipient: { celular: '0981123456' },
      code: '482915',
    });
    h.validations[0]!.answer.resolve({ success: true, registration: REGISTRATION });
    await waitFor(h.actor, (s) => s.matches('pinCreation'));
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(2);
    expect(h.actor.getSnapshot().context).toMatchObject({
      registrationToken: REGISTRATION.token,
      resumed: false,
    });
    expect(h.actor.getSnapshot().children.otp).toBeUndefined();
  });

  it('stays on step 1 after a wrong code', async () => {
    const h = await atVerification();
    h.actor.getSnapshot().children.otp!.send({ type: 'code.change', value: '000001' });
    h.validations[0]!.answer.resolve({ success: false });
    const otp = h.actor.getSnapshot().children.otp!;
    await waitFor(otp, (s) => s.hasTag('error'));
    expect(h.screen()).toBe('verification');
  });

  it('back goes to step 0 with the number; the same number within the wait returns to the code, no new send (issue 29 item 11)', async () => {
    const h = await atVerification();
    await vi.advanceTimersByTimeAsync(10_000);
    h.actor.send({ type: 'flow.back' });
    expect(h.where()).toEqual({ registration: 'editing' });
    expect(h.form().getSnapshot().context).toMatchObject({
      phoneInput: '981123456',
      codeSent: { phone: '0981123456', secondsLeft: 20 },
    });
    h.send({ type: 'form.submit' });
    await waitFor(h.actor, (s) => s.matches('verification'));
    expect(h.sends).toHaveLength(1);
    // The countdown goes on from what was left; the code on the phone is still the one to type.
    const otp = h.actor.getSnapshot().children.otp!;
    expect(otp.getSnapshot().context).toMatchObject({
      recipient: { celular: '0981123456' },
      secondsLeft: 20,
    });
    otp.send({ type: 'code.change', value: '482915' });
    expect(h.validations[0]!.input.code).toBe('482915');
  });

  it('back, then another number: a new send; the same number after the wait: a new send too', async () => {
    const h = await atVerification();
    h.actor.send({ type: 'flow.back' });
    h.send({ type: 'phone.change', value: '982 000 000' });
    h.send({ type: 'form.submit' });
    expect(h.sends.map((c) => c.input.phone)).toEqual(['0981123456', '0982000000']);

    const late = await atVerification();
    late.actor.send({ type: 'flow.back' });
    await vi.advanceTimersByTimeAsync(30_000);
    late.send({ type: 'form.submit' });
    expect(late.where()).toEqual({ registration: 'sending' });
    expect(late.sends).toHaveLength(2);
  });

  it("step 0's back still goes home (after the code step's back) and stops every timer", async () => {
    const h = await atVerification();
    h.actor.send({ type: 'flow.back' });
    h.send({ type: 'flow.back' });
    expect(selectGoHome(h.actor.getSnapshot())).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('step 2: PIN creation', () => {
  const atPin = () => harness({ snapshot: onboardingFixtures.pinCreationEditing });

  it('keeps 6 digits at most and enables Validar only with a PIN and the terms', () => {
    const h = atPin();
    expect(selectPinCreationView(h.pinStep().getSnapshot()).canSubmit).toBe(false);
    h.send({ type: 'pin.change', value: '4a8 29157' });
    expect(h.step().getSnapshot().context.pinInput).toBe('482915');
    expect(selectPinCreationView(h.pinStep().getSnapshot()).canSubmit).toBe(false);
    h.send({ type: 'terms.change', accepted: true });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).canSubmit).toBe(true);
    h.send({ type: 'pin.change', value: '' });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).canSubmit).toBe(false);
  });

  it('ignores submit with no PIN typed', () => {
    const h = atPin();
    h.send({ type: 'terms.change', accepted: true });
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ pinCreation: 'editing' });
  });

  it.each(BANNED_PINS.map((pin) => [pin]))('refuses the banned PIN %s', (pin) => {
    const h = atPin();
    h.send({ type: 'pin.change', value: pin });
    h.send({ type: 'terms.change', accepted: true });
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ pinCreation: 'invalid' });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).error).toEqual({ code: 'pinInvalid' });
    expect(h.actor.getSnapshot().context.pin).toBeNull();
  });

  it('refuses a PIN shorter than 6 digits', () => {
    const h = atPin();
    h.send({ type: 'pin.change', value: '48291' });
    h.send({ type: 'terms.change', accepted: true });
    h.send({ type: 'form.submit' });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).error).toEqual({ code: 'pinInvalid' });
  });

  it('asks for the terms when they are not accepted, and any edit clears the error', () => {
    const h = atPin();
    h.send({ type: 'pin.change', value: '482915' });
    h.send({ type: 'form.submit' });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).error).toEqual({
      code: 'termsRequired',
    });
    h.send({ type: 'terms.change', accepted: true });
    expect(h.where()).toEqual({ pinCreation: 'editing' });
    expect(selectPinCreationView(h.pinStep().getSnapshot()).error).toBeNull();
  });

  it('keeps the chosen PIN with the registration (server side), then goes to step 3', async () => {
    const h = atPin();
    h.send({ type: 'pin.change', value: '482915' });
    h.send({ type: 'terms.change', accepted: true });
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ pinCreation: 'saving' });
    expect(selectPinCreationView(h.pinStep().getSnapshot())).toMatchObject({
      saving: true,
      canSubmit: false,
    });
    expect(h.savePins.map((c) => c.input)).toEqual([
      {
        registrationToken: FIXTURE_REGISTRATION_TOKEN,
        pin: '482915',
        email: 'maria.gonzalez@example.com.py',
        termsAccepted: true,
        // the versions /tyc shows: the server records its own and refuses others
        termsVersion: TERMS_VERSION,
        privacyVersion: PRIVACY_VERSION,
      },
    ]);
    h.savePins[0]!.answer.resolve({ success: true });
    await waitFor(h.actor, (s) => s.matches('welcome'));
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(3);
    expect(h.actor.getSnapshot().context.pin).toBe('482915');
  });

  it("a PIN that could not be kept shows the server's words and keeps what was typed", async () => {
    const h = atPin();
    h.send({ type: 'pin.change', value: '482915' });
    h.send({ type: 'terms.change', accepted: true });
    h.send({ type: 'form.submit' });
    h.savePins[0]!.answer.reject(new ApiError('server', 401, 'Tu registro venció.'));
    await waitFor(h.pinStep(), (s) => s.matches('saveFailed'));
    expect(selectPinCreationView(h.pinStep().getSnapshot())).toMatchObject({
      error: { code: 'savePinFailed', serverMessage: 'Tu registro venció.' },
      pinInput: '482915',
      termsAccepted: true,
      canSubmit: true,
    });
    h.send({ type: 'form.submit' });
    expect(h.savePins).toHaveLength(2);
  });

  it('back goes home and forgets the PIN', async () => {
    const h = atPin();
    h.send({ type: 'pin.change', value: '48' });
    h.send({ type: 'flow.back' });
    // This browser forgets the registration on the way (issue 43 item 8).
    await waitFor(h.actor, selectGoHome);
    // The PIN step's child is stopped with what was typed; the wizard keeps no PIN.
    expect(h.actor.getSnapshot().children.pinCreation).toBeUndefined();
    expect(h.actor.getSnapshot().context.pin).toBeNull();
  });
});

describe('step 3: welcome', () => {
  it("'Siguiente' goes to step 4, the KYC child, with the session the wizard holds", async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    await toKyc(h);
    expect(h.screen()).toBe('kyc');
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(4);
    expect(h.kycInputs).toEqual([
      {
        sessionId: null,
        registrationToken: FIXTURE_REGISTRATION_TOKEN,
        resume: null,
        canHandoff: true,
      },
    ]);
    expect(selectKycActor(h.actor.getSnapshot())).toBe(
      (h.actor.getSnapshot().children as Record<string, unknown>).kyc,
    );
    expect(selectKycActor(h.actor.getSnapshot())).toBeDefined();
  });

  it("preloads step 4's code while the patient reads the welcome", async () => {
    const h = harness({ snapshot: onboardingFixtures.pinCreationEditingReady });
    await pinSaved(h);
    expect(h.screen()).toBe('welcome');
    expect(h.loads).toHaveLength(1);
    h.loads[0]!.answer.resolve(h.kycLogic);
    await Promise.resolve();
    // Nothing to see on the welcome: no busy state, no error.
    expect(h.where()).toBe('welcome');
    expect(h.hasTag('busy')).toBe(false);
  });

  it('a failed preload stays silent on the welcome; step 4 loads again and shows its own failure', async () => {
    const h = harness({ snapshot: onboardingFixtures.pinCreationEditingReady });
    await pinSaved(h);
    h.loads[0]!.answer.reject(new TypeError('Failed to fetch dynamically imported module'));
    await Promise.resolve();
    expect(h.where()).toBe('welcome');
    expect(h.hasTag('error')).toBe(false);
    expect(h.actor.getSnapshot().context.error).toBeNull();
    h.actor.send({ type: 'welcome.next' });
    expect(h.loads).toHaveLength(2);
    expect(h.where()).toEqual({ kyc: 'loading' });
  });

  it('leaving the welcome before the preload ends cancels it', async () => {
    const h = harness({ snapshot: onboardingFixtures.pinCreationEditingReady });
    await pinSaved(h);
    h.actor.send({ type: 'flow.back' });
    await waitFor(h.actor, selectGoHome);
    expect(h.actor.getSnapshot().children).toEqual({});
  });

  it("'Cancelar' goes home", async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'flow.back' });
    await waitFor(h.actor, selectGoHome);
  });

  it('ignores events of other steps', () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.send({ type: 'form.submit' });
    h.send({ type: 'register.retry' });
    h.send({ type: 'pin.change', value: '111111' });
    expect(h.screen()).toBe('welcome');
    expect(h.actor.getSnapshot().context.pin).toBe('482915');
  });
});

describe('step 4: loading the KYC chunk', () => {
  it("shows 'Cargando...' (busy) while the code loads, then runs the child", async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'welcome.next' });
    expect(h.where()).toEqual({ kyc: 'loading' });
    expect(h.hasTag('busy')).toBe(true);
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(4);
    expect(selectKycLoadView(h.actor.getSnapshot())).toEqual({
      loading: true,
      error: null,
      canRetry: false,
    });
    expect(selectKycActor(h.actor.getSnapshot())).toBeUndefined();
    h.loads[0]!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
    expect(h.hasTag('busy')).toBe(false);
    expect(h.kycInputs).toEqual([
      {
        sessionId: null,
        registrationToken: FIXTURE_REGISTRATION_TOKEN,
        resume: null,
        canHandoff: true,
      },
    ]);
    expect(selectKycActor(h.actor.getSnapshot())?.getSnapshot().value).toBe('capturing');
  });

  it('a load failure (offline) is an error state with a retry, which loads again', async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'welcome.next' });
    h.loads[0]!.answer.reject(new TypeError('Failed to fetch dynamically imported module'));
    await waitFor(h.actor, (s) => s.hasTag('error'));
    expect(h.where()).toEqual({ kyc: 'loadFailed' });
    expect(selectKycLoadView(h.actor.getSnapshot())).toEqual({
      loading: false,
      error: { code: 'kycLoadFailed' },
      canRetry: true,
    });
    expect(selectKycActor(h.actor.getSnapshot())).toBeUndefined();
    // What the patient chose on steps 0-2 is kept for the register call.
    expect(h.actor.getSnapshot().context).toMatchObject({ phone: '0981123456', pin: '482915' });

    h.actor.send({ type: 'kycLoad.retry' });
    expect(h.where()).toEqual({ kyc: 'loading' });
    expect(h.actor.getSnapshot().context.error).toBeNull();
    expect(h.loads).toHaveLength(2);
    h.loads[1]!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
    expect(h.kycInputs).toEqual([
      {
        sessionId: null,
        registrationToken: FIXTURE_REGISTRATION_TOKEN,
        resume: null,
        canHandoff: true,
      },
    ]);
  });

  it('ignores a retry while loading and events of other steps', () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'welcome.next' });
    h.actor.send({ type: 'kycLoad.retry' });
    h.send({ type: 'form.submit' });
    h.send({ type: 'register.retry' });
    expect(h.where()).toEqual({ kyc: 'loading' });
    expect(h.loads).toHaveLength(1);
  });

  it.each([['loading'], ['loadFailed']] as const)('back while %s goes home', async (state) => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'welcome.next' });
    if (state === 'loadFailed') {
      h.loads[0]!.answer.reject(new Error('offline'));
      await waitFor(h.actor, (s) => s.hasTag('error'));
    }
    h.actor.send({ type: 'flow.back' });
    await waitFor(h.actor, selectGoHome);
    expect(h.actor.getSnapshot().context.pin).toBeNull();
  });

  it('a load that answers after back is ignored: no child is spawned', async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    h.actor.send({ type: 'welcome.next' });
    h.actor.send({ type: 'flow.back' });
    h.loads[0]!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, selectGoHome);
    expect(h.kycInputs).toEqual([]);
  });

  it('uses the real loader by default: the KYC machine from its own module', async () => {
    const { loadKyc } = await import('../../machines/onboarding/onboarding.actors');
    const { kycMachine } = await import('../../machines/kyc/kyc.machine');
    const actor = createActor(loadKyc).start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toBe(kycMachine);
  });
});

describe('errors follow the fix (issue 20, item 2)', () => {
  it('the banner goes with the phone fixed; a bad e-mail then marks its own field and takes the focus', () => {
    const h = harness();
    fillPhone(h, '123', 'maria@');
    let view = selectRegistrationView(h.form().getSnapshot());
    expect(view).toMatchObject({
      error: { code: 'phoneInvalidSubmit' },
      phoneError: 'phoneInvalid',
      emailError: 'emailInvalid',
      focus: 'phone',
      failures: 1,
    });
    h.send({ type: 'phone.change', value: '981 123 456' });
    view = selectRegistrationView(h.form().getSnapshot());
    expect(view).toMatchObject({ error: null, phoneError: null, emailError: 'emailInvalid' });
    h.send({ type: 'form.submit' });
    view = selectRegistrationView(h.form().getSnapshot());
    expect(view).toMatchObject({ error: null, emailError: 'emailInvalid', focus: 'email' });
    expect(view.failures).toBe(2);
  });

  it("a refused send's banner goes with an edit of the number; the focus went to the phone", async () => {
    const h = harness();
    fillPhone(h);
    h.sends[0]!.answer.reject(new TypeError('Failed to fetch'));
    await waitFor(h.form(), (s) => s.matches('failed'));
    expect(selectRegistrationView(h.form().getSnapshot())).toMatchObject({
      error: { code: 'sendCodeFailed' },
      focus: 'phone',
      failures: 1,
    });
    h.send({ type: 'phone.change', value: '982 123 456' });
    expect(h.where()).toEqual({ registration: 'editing' });
    expect(selectRegistrationView(h.form().getSnapshot()).error).toBeNull();
  });

  it("PIN creation says what keeps 'Validar' disabled, and which field a refusal is about", () => {
    const h = harness({ snapshot: onboardingFixtures.pinCreationEditing });
    const view = () => selectPinCreationView(h.pinStep().getSnapshot());
    expect(view()).toMatchObject({ canSubmit: false, missing: 'pinAndTerms' });
    h.send({ type: 'pin.change', value: '4829' });
    expect(view().missing).toBe('terms');
    // Enter in the PIN field without the terms: the spec's message under the checkbox, focus there.
    h.send({ type: 'form.submit' });
    expect(view()).toMatchObject({
      termsError: { code: 'termsRequired' },
      pinError: null,
      focus: 'terms',
      failures: 1,
    });
    h.send({ type: 'terms.change', accepted: true });
    expect(view()).toMatchObject({ missing: null, canSubmit: true, termsError: null });
    h.send({ type: 'form.submit' });
    expect(view()).toMatchObject({ pinError: { code: 'pinInvalid' }, focus: 'pin', failures: 2 });
  });

  it("progress: 'Paso N de 8', the identity step's parts counted as steps of their own (issue 43 item 6)", () => {
    const progress = (name: keyof typeof onboardingFixtures) =>
      selectOnboardingProgress(onboardingFixtures[name]);
    expect(progress('registrationEditing')).toEqual({ step: 1, of: 8 });
    expect(progress('verification')).toEqual({ step: 2, of: 8 });
    expect(progress('pinCreationEditing')).toEqual({ step: 3, of: 8 });
    expect(progress('welcome')).toEqual({ step: 4, of: 8 });
    // Before the KYC child runs: its first part, the selfie.
    expect(progress('kycLoading')).toEqual({ step: 5, of: 8 });
    expect(progress('kycRunning')).toEqual({ step: 5, of: 8 });
    expect(progress('registeringFailed')).toEqual({ step: 8, of: 8 });
    expect(progress('complete')).toBeNull();
    expect(progress('patientExists')).toBeNull();
  });

  it('progress on the identity step: the KYC child says which part it is on; only the complementary data is the last', () => {
    const part = (name: keyof typeof kycFixtures) => selectKycProgressStep(kycFixtures[name]);
    expect(
      (['starting', 'selfieIdle', 'selfieRunning', 'selfieFailed'] as const).map(part),
    ).toEqual([5, 5, 5, 5]);
    expect(
      (
        [
          'frontWaiting',
          'frontPreview',
          'backPlaying',
          'backPreview',
          'verifying',
          'checkingDocument',
        ] as const
      ).map(part),
    ).toEqual([6, 6, 6, 6, 6, 6]);
    expect(part('review')).toBe(7);
    expect(part('supplementary')).toBe(8);
    // The way out to a person (the offer, the case) is no step of the patient's: no number.
    expect((['assistOffer', 'caseWaiting', 'caseDecided'] as const).map(part)).toEqual([
      null,
      null,
      null,
    ]);
  });
});

describe('a new PIN after the card is read (issue 20, item 5)', () => {
  // The card: born 17/05/1990, document 4.567.890; the PIN chosen at step 2 was 170590 (DDMMYY).
  const card: KycOutput = {
    ...kycOutput,
    kycResult: {
      success: true,
      kyc_complete: true,
      id_data: {
        FullName: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
        DocumentNumber: '4.567.890',
        DateOfBirth: '1990-05-17',
        Gender: 'F',
        Nationality: 'PARAGUAYA',
        MaritalStatus: 'SOLTERA',
      },
    },
  };
  async function atRenewal(pin = '170590') {
    const h = harness({
      snapshot: onboardingMachine.resolveState({
        value: 'welcome',
        context: { ...onboardingFixtures.welcome.context, pin },
      }),
      kycOutput: card,
    });
    await toKyc(h);
    selectKycActor(h.actor.getSnapshot())!.send({ type: 'test.finish' } as never);
    return h;
  }

  it('a PIN made from the birth date is asked again on a step of its own, before any register call', async () => {
    const h = await atRenewal();
    expect(h.screen()).toBe('pinRenewal');
    expect(selectOnboardingProgress(h.actor.getSnapshot())).toEqual({ step: 8, of: 8 });
    expect(h.registers).toHaveLength(0);
    expect(h.actor.getSnapshot().context).toMatchObject({ pin: null });
    expect(selectPinRenewalView(h.renewal().getSnapshot())).toMatchObject({
      canSubmit: false,
      missing: 'pin',
    });
  });

  it.each([
    ['the document number', '456789', 'pinFromOwnData'],
    ['the birth date as MMDDYY', '051790', 'pinFromOwnData'],
    ['a banned PIN', '123456', 'pinInvalid'],
  ])('refuses %s (%s) with its own message and counts the failure', async (_l, pin, code) => {
    const h = await atRenewal();
    h.send({ type: 'pin.change', value: pin });
    h.send({ type: 'form.submit' });
    const view = selectPinRenewalView(h.renewal().getSnapshot());
    expect(view.pinError).toEqual({ code });
    expect(view.failures).toBe(1);
    expect(h.registers).toHaveLength(0);
    h.send({ type: 'pin.change', value: '7' });
    expect(selectPinRenewalView(h.renewal().getSnapshot()).pinError).toBeNull();
  });

  it('a good PIN registers with it', async () => {
    const h = await atRenewal();
    h.send({ type: 'pin.change', value: '735194' });
    h.send({ type: 'form.submit' });
    expect(h.where()).toEqual({ registering: 'submitting' });
    expect(h.registers[0]!.input.pin).toBe('735194');
  });

  it("a PIN not made from the card's data registers at once", async () => {
    const h = await atRenewal('482915');
    expect(h.where()).toEqual({ registering: 'submitting' });
    expect(h.registers[0]!.input.pin).toBe('482915');
  });

  it("the server's refusal (reason pinFromOwnData) asks for another PIN instead of a retry", async () => {
    const h = await atRenewal('482915');
    h.registers[0]!.answer.reject(
      new ApiError('server', 400, 'Tu PIN no puede salir...', undefined, 'pinFromOwnData'),
    );
    await waitFor(h.actor, (s) => s.matches('pinRenewal'));
    await waitFor(h.renewal(), (s) => s.matches('invalid'));
    expect(selectPinRenewalView(h.renewal().getSnapshot())).toMatchObject({
      pinError: { code: 'pinFromOwnData' },
      failures: 1,
    });
    h.send({ type: 'pin.change', value: '735194' });
    h.send({ type: 'form.submit' });
    expect(h.registers[1]!.input.pin).toBe('735194');
  });
});

describe('step 4: KYC and the final registration', () => {
  async function atKyc() {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    await toKyc(h);
    selectKycActor(h.actor.getSnapshot())!.send({ type: 'test.finish' } as never);
    return h;
  }

  it('registers with phone, e-mail, PIN and the KYC output', async () => {
    const h = await atKyc();
    expect(h.where()).toEqual({ registering: 'submitting' });
    expect(h.hasTag('busy')).toBe(true);
    expect(h.registers.map((r) => r.input)).toEqual([
      {
        registrationToken: FIXTURE_REGISTRATION_TOKEN,
        phone: '0981123456',
        email: 'maria.gonzalez@example.com.py',
        pin: '482915',
        sessionId: 'kyc-session-1',
        supplementaryData: kycOutput.supplementaryData,
        kycResult: kycOutput.kycResult,
      },
    ]);
  });

  it('completes (step 5) on success and forgets the PIN', async () => {
    const h = await atKyc();
    h.registers[0]!.answer.resolve({ success: true, message: 'Registro completo' });
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.screen()).toBe('complete');
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(5);
    expect(h.actor.getSnapshot().context.pin).toBeNull();
  });

  it.each([
    [
      '"existe" in the message',
      (d: Deferred<RegisterResponse>) =>
        d.resolve({ success: false, message: 'El paciente ya existe.' }),
    ],
    [
      'the flag',
      (d: Deferred<RegisterResponse>) =>
        d.resolve({ success: false, message: 'x', onboardingComplete: true }),
    ],
    [
      'a 409',
      (d: Deferred<RegisterResponse>) =>
        d.reject(
          new ApiError('server', 409, 'El paciente ya existe. Ingresá con tu documento y PIN.'),
        ),
    ],
  ])('shows "patient exists" on %s', async (_label, answer) => {
    const h = await atKyc();
    answer(h.registers[0]!.answer);
    await waitFor(h.actor, (s) => s.status === 'done');
    expect(h.screen()).toBe('patientExists');
  });

  it.each([
    [
      'success false',
      (d: Deferred<RegisterResponse>) =>
        d.resolve({ success: false, message: 'Sesión de verificación incompleta.' }),
      { code: 'registerFailed', serverMessage: 'Sesión de verificación incompleta.' },
    ],
    [
      'success false without text',
      (d: Deferred<RegisterResponse>) => d.resolve({ success: false, message: '' }),
      { code: 'registerFailed' },
    ],
    [
      'HTTP 400 with a message',
      (d: Deferred<RegisterResponse>) => d.reject(new ApiError('server', 400, 'PIN inválido.')),
      { code: 'registerFailed', serverMessage: 'PIN inválido.' },
    ],
    [
      'HTTP 500 without JSON',
      (d: Deferred<RegisterResponse>) => d.reject(new ApiError('server', 500, undefined)),
      { code: 'registerFailed' },
    ],
    [
      'a 2xx that is not JSON',
      (d: Deferred<RegisterResponse>) => d.reject(new ApiError('invalidResponse', 200, undefined)),
      { code: 'registerInvalidResponse' },
    ],
    [
      'no answer',
      (d: Deferred<RegisterResponse>) => d.reject(new TypeError('Failed to fetch')),
      { code: 'registerNetwork' },
    ],
  ])('keeps the data and offers a retry on %s', async (_label, answer, expected) => {
    const h = await atKyc();
    answer(h.registers[0]!.answer);
    await waitFor(h.registering(), (s) => s.hasTag('error'));
    expect(selectRegisteringView(h.registering().getSnapshot())).toMatchObject({
      error: expected,
      canRetry: true,
      submitting: false,
    });
    h.send({ type: 'register.retry' });
    expect(h.registers).toHaveLength(2);
    expect(h.registers[1]!.input).toEqual(h.registers[0]!.input);
    expect(selectRegisteringView(h.registering().getSnapshot()).error).toBeNull();
  });

  it('cannot leave or retry while the register call is in flight', async () => {
    const h = await atKyc();
    h.actor.send({ type: 'flow.back' });
    h.send({ type: 'register.retry' });
    expect(h.where()).toEqual({ registering: 'submitting' });
    expect(h.registers).toHaveLength(1);
  });

  it('cancel after a failure goes home', async () => {
    const h = await atKyc();
    h.registers[0]!.answer.resolve({ success: false, message: 'x' });
    await waitFor(h.registering(), (s) => s.hasTag('error'));
    h.actor.send({ type: 'flow.back' });
    await waitFor(h.actor, selectGoHome);
  });

  it('cancel during the identity step goes home and stops the KYC child', async () => {
    const h = harness({ snapshot: onboardingFixtures.welcome });
    await toKyc(h);
    const kyc = selectKycActor(h.actor.getSnapshot())!;
    h.actor.send({ type: 'flow.back' });
    expect(kyc.getSnapshot().status).toBe('stopped');
    await waitFor(h.actor, selectGoHome);
  });
});

describe('a child step that breaks', () => {
  it.each([['otp'], ['kyc']] as const)(
    "the %s child failing leads to 'unexpected', whose back goes home",
    async (child) => {
      const broken = createMachine({
        entry: () => {
          throw new Error('broken child');
        },
      });
      const machine = onboardingMachine.provide({
        actors: {
          registrationForm: registrationFormMachine.provide({
            actors: {
              sendCode: fromPromise<StartResponse, StartRequest>(async () => ({
                success: true,
                message: 'ok',
              })),
            },
          }),
          ...(child === 'kyc'
            ? { loadKyc: fromPromise(async () => broken as unknown as KycMachine) }
            : { otp: broken as unknown as typeof otpMachine }),
          forgetRegistration: fromPromise<ResultResponse, { registrationToken: string }>(
            async () => ({ success: true }),
          ),
        },
      });
      const actor = createActor(machine, {
        input: {},
        snapshot: child === 'kyc' ? onboardingFixtures.welcome : undefined,
      }).start();
      if (child === 'kyc') actor.send({ type: 'welcome.next' });
      else {
        const form = actor.getSnapshot().children.registrationForm!;
        form.send({ type: 'phone.change', value: '981123456' });
        form.send({ type: 'form.submit' });
      }
      await waitFor(actor, (s) => s.matches('unexpected'));
      expect(actor.getSnapshot().hasTag('error')).toBe(true);
      expect(actor.getSnapshot().context.error).toEqual({ code: 'unexpected' });
      actor.send({ type: 'flow.back' });
      await waitFor(actor, selectGoHome);
    },
  );
});

describe('wiring to the onboarding endpoints', () => {
  it('the OTP child validates and resends through /api/onboarding with the normalised phone', async () => {
    const calls: Array<{ url: string; body: unknown }> = [];
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      const body = url.endsWith('/start')
        ? { success: true, message: 'ok', resendAfterSeconds: 30 }
        : url.endsWith('/validate-otp')
          ? { success: true, registration: REGISTRATION }
          : { success: true };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    try {
      const actor = createActor(onboardingMachine, { input: {} }).start();
      const form = actor.getSnapshot().children.registrationForm!;
      form.send({ type: 'phone.change', value: '981 123 456' });
      form.send({ type: 'form.submit' });
      await waitFor(actor, (s) => s.matches('verification'));
      const otp = actor.getSnapshot().children.otp!;
      await vi.advanceTimersByTimeAsync(30_000);
      otp.send({ type: 'code.resend' });
      await waitFor(otp, (s) => s.context.notice === 'codeResent');
      otp.send({ type: 'code.change', value: '482915' });
      await waitFor(actor, (s) => s.matches('pinCreation'));
      expect(calls).toEqual([
        { url: '/api/onboarding/start', body: { phone: '0981123456' } },
        { url: '/api/onboarding/resend-otp', body: { celular: '0981123456' } },
        { url: '/api/onboarding/validate-otp', body: { celular: '0981123456', otp: '482915' } },
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('fixtures', () => {
  it('name every screen the selector can choose', () => {
    const seen = new Set(Object.values(onboardingFixtures).map((s) => selectOnboardingScreen(s)));
    expect([...seen].sort()).toEqual(
      [
        'complete',
        'handoff',
        'home',
        'kyc',
        'leaving',
        'linkOpening',
        'linkRefused',
        'patientExists',
        'pinCreation',
        'pinRenewal',
        'registering',
        'registration',
        'unexpected',
        'verification',
        'welcome',
      ].sort(),
    );
  });
});

describe('a registration that survives real life (issue 18)', () => {
  /** Step 1 answered with where the registration continues. */
  async function verified(registration: RegistrationResume, input: OnboardingInput = {}) {
    const h = harness({ input });
    fillPhone(h, '981 123 456', 'nuevo@example.com');
    h.sends[0]!.answer.resolve({ success: true, message: 'ok' });
    await waitFor(h.actor, (s) => s.matches('verification'));
    h.actor.getSnapshot().children.otp!.send({ type: 'code.change', value: '482915' });
    h.validations[0]!.answer.resolve({ success: true, registration });
    return h;
  }

  it('a registration whose PIN is kept continues at the welcome, saying so', async () => {
    const h = await verified({ ...REGISTRATION, resumeAt: 'welcome', email: 'viejo@example.com' });
    await waitFor(h.actor, (s) => s.matches('welcome'));
    expect(selectResumed(h.actor.getSnapshot())).toBe(true);
    // What the patient typed this time wins over what step 0 kept; no PIN is in memory.
    expect(h.actor.getSnapshot().context).toMatchObject({
      email: 'nuevo@example.com',
      pin: null,
      registrationToken: REGISTRATION.token,
    });
    expect(h.savePins).toHaveLength(0);
    // Said once (issue 29 item 13): step 4's screens after the welcome do not repeat it.
    h.actor.send({ type: 'welcome.next' });
    expect(selectResumed(h.actor.getSnapshot())).toBe(false);
  });

  it('a passed selfie continues at the document, in the same KYC session', async () => {
    const h = await verified({ ...REGISTRATION, resumeAt: 'document', sessionId: 'kyc-9' });
    await waitFor(h.actor, (s) => s.matches({ kyc: 'loading' }));
    h.loads.at(-1)!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
    expect(h.kycInputs).toEqual([
      {
        sessionId: 'kyc-9',
        registrationToken: REGISTRATION.token,
        resume: { at: 'document' },
        canHandoff: true,
      },
    ]);
    // Used once: a later step 4 (back from the phone) starts from the session as it is then.
    expect(h.actor.getSnapshot().context.kycResume).toBeNull();
    // The notice is step 4's first screen's: the KYC child says which (issue 29 item 13).
    expect(selectResumed(h.actor.getSnapshot())).toBe('kyc');
  });

  const idData = {
    FullName: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
    DocumentNumber: '4567890',
    DateOfBirth: '17/05/1990',
    Gender: 'F',
    Nationality: 'PARAGUAYA',
    MaritalStatus: 'SOLTERA',
  };

  it('a read document continues at its review; register goes without a PIN (the server has its hash)', async () => {
    const h = await verified({ ...REGISTRATION, resumeAt: 'review', sessionId: 'kyc-9', idData });
    await waitFor(h.actor, (s) => s.matches({ kyc: 'loading' }));
    h.loads.at(-1)!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
    expect(h.kycInputs[0]!.resume).toEqual({
      at: 'review',
      kycResult: { success: true, kyc_complete: true, id_data: idData },
    });
    selectKycActor(h.actor.getSnapshot())!.send({ type: 'test.finish' } as never);
    await waitFor(h.actor, (s) => s.matches('registering'));
    expect(h.registers[0]!.input).not.toHaveProperty('pin');
    expect(h.registers[0]!.input.registrationToken).toBe(REGISTRATION.token);
  });

  describe('with a case (issue 30)', () => {
    const open = OPEN_CASE;
    async function kycWith(registration: RegistrationResume) {
      const h = await verified(registration);
      await waitFor(h.actor, (s) => s.matches({ kyc: 'loading' }));
      h.loads.at(-1)!.answer.resolve(h.kycLogic);
      await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
      return h;
    }

    it('a case open, rejected or expired: step 4 shows the case', async () => {
      const h = await kycWith({
        ...REGISTRATION,
        resumeAt: 'case',
        sessionId: 'kyc-9',
        case: open,
      });
      expect(h.kycInputs[0]!.resume).toEqual({ at: 'case', case: open });
    });

    it('approved: the complementary data with what a person verified, then register without a PIN', async () => {
      const h = await kycWith({
        ...REGISTRATION,
        resumeAt: 'supplementary',
        sessionId: 'kyc-v',
        idData,
        case: { ...open, status: 'approved' },
      });
      expect(h.kycInputs[0]).toMatchObject({
        sessionId: 'kyc-v',
        resume: { at: 'supplementary', idData },
      });
      selectKycActor(h.actor.getSnapshot())!.send({ type: 'test.finish' } as never);
      await waitFor(h.actor, (s) => s.matches('registering'));
      expect(h.registers[0]!.input).not.toHaveProperty('pin');
    });

    it('the selfie asked for again: step 4 at once (not the welcome), at the selfie', async () => {
      const h = await kycWith({
        ...REGISTRATION,
        resumeAt: 'welcome',
        sessionId: null,
        case: { ...open, status: 'repeat', repeatStep: 'selfie' },
      });
      expect(h.kycInputs[0]!.resume).toEqual({ at: 'selfie' });
    });

    it('one side of the card asked for again: the document, that side only', async () => {
      const h = await kycWith({
        ...REGISTRATION,
        resumeAt: 'document',
        sessionId: 'kyc-r',
        retake: 'back',
        case: { ...open, status: 'repeat', repeatStep: 'back' },
      });
      expect(h.kycInputs[0]!.resume).toEqual({ at: 'document', retake: 'back' });
    });
  });

  it('an answer without a registration is not continued', async () => {
    const h = await verified(undefined as unknown as RegistrationResume);
    await waitFor(h.actor, (s) => s.matches('unexpected'));
  });

  describe("'Seguir en mi celular' on the first device", () => {
    async function handingOff(cameraMissing = false) {
      const h = harness({ snapshot: onboardingFixtures.welcome });
      await toKyc(h);
      h.actor.send({ type: 'handoff.start', cameraMissing });
      expect(h.where()).toEqual({ handoff: 'sending' });
      // The KYC child (and its camera) stopped with step 4's screen.
      expect(selectKycActor(h.actor.getSnapshot())).toBeUndefined();
      expect(h.links.map((c) => c.input)).toEqual([
        { registrationToken: FIXTURE_REGISTRATION_TOKEN },
      ]);
      return h;
    }
    const LINK = `http://localhost:3000/onboarding/celular#${'L'.repeat(43)}`;
    const LINK_SENT: SendLinkResponse = {
      success: true,
      message: 'ok',
      link: LINK,
      expiresInSeconds: 1200,
      resendAfterSeconds: 30,
    };

    it('sends the link, follows the phone and shows the completion when the phone finishes', async () => {
      const h = await handingOff();
      h.links[0]!.answer.resolve(LINK_SENT);
      await waitFor(h.handoffStep(), (s) => s.matches('waiting'));
      expect(h.statusPolls).toEqual([
        { registrationToken: FIXTURE_REGISTRATION_TOKEN, delayFirst: true },
      ]);
      expect(selectHandoffView(h.handoffStep().getSnapshot())).toMatchObject({
        waiting: true,
        stage: 'waiting',
        expiresInMinutes: 20,
        phone: '0981123456',
        canResend: true,
        canUseThisDevice: true,
      });
      for (const stage of ['opened', 'selfie', 'document'] as const) {
        h.send({ type: 'poll.result', result: { success: true, stage } });
        expect(selectHandoffView(h.handoffStep().getSnapshot()).stage).toBe(stage);
      }
      h.send({ type: 'poll.result', result: { success: true, stage: 'completed' } });
      expect(h.screen()).toBe('complete');
      expect(h.actor.getSnapshot().status).toBe('done');
    });

    it('a link not sent says why; resend tries again', async () => {
      const h = await handingOff();
      h.links[0]!.answer.reject(
        new ApiError('server', 429, 'Ya te enviamos un código. Podés pedir otro en 20 segundos.'),
      );
      await waitFor(h.handoffStep(), (s) => s.matches('failed'));
      expect(h.hasTag('error')).toBe(true);
      expect(selectHandoffView(h.handoffStep().getSnapshot()).error).toEqual({
        code: 'handoffFailed',
        serverMessage: 'Ya te enviamos un código. Podés pedir otro en 20 segundos.',
      });
      h.send({ type: 'handoff.resend' });
      expect(h.links).toHaveLength(2);
    });

    it('no answer keeps following; a refusal (the registration moved on) stops it', async () => {
      const h = await handingOff();
      h.links[0]!.answer.resolve(LINK_SENT);
      await waitFor(h.handoffStep(), (s) => s.matches('waiting'));
      h.send({ type: 'poll.error', error: { code: 'network' } });
      expect(h.handoffStep().getSnapshot().matches('waiting')).toBe(true);
      expect(h.statusPolls).toHaveLength(2);
      h.send({
        type: 'poll.error',
        error: { code: 'server', status: 401, serverMessage: 'Tu registro venció.' },
      });
      expect(h.where()).toEqual({ handoff: 'stopped' });
      expect(selectHandoffView(h.handoffStep().getSnapshot())).toMatchObject({
        error: { code: 'handoffStopped', serverMessage: 'Tu registro venció.' },
        canUseThisDevice: false,
      });
    });

    it("'Usar la cámara de este dispositivo' goes back to step 4 here", async () => {
      const h = await handingOff();
      h.actor.send({ type: 'handoff.cancel' });
      expect(h.actor.getSnapshot().matches({ kyc: 'loading' })).toBe(true);
      expect(h.actor.getSnapshot().children.handoff).toBeUndefined();
    });

    it('a device without a camera is not offered its own camera back (issue 29 item 12)', async () => {
      const h = await handingOff(true);
      h.links[0]!.answer.resolve(LINK_SENT);
      await waitFor(h.handoffStep(), (s) => s.matches('waiting'));
      expect(selectHandoffView(h.handoffStep().getSnapshot())).toMatchObject({
        waiting: true,
        canResend: true,
        canUseThisDevice: false,
      });
      h.actor.send({ type: 'handoff.cancel' });
      expect(h.where()).toEqual({ handoff: 'waiting' });
    });
  });

  describe('the phone that opened the link', () => {
    const LINK_TOKEN = 'L'.repeat(43);

    it('opens the registration and continues where it was, with no second handoff', async () => {
      const h = harness({ input: { linkToken: LINK_TOKEN } });
      expect(h.screen()).toBe('linkOpening');
      expect(h.opens.map((c) => c.input)).toEqual([{ linkToken: LINK_TOKEN }]);
      h.opens[0]!.answer.resolve({
        success: true,
        registration: { ...REGISTRATION, resumeAt: 'welcome', email: 'maria@example.com' },
      });
      await waitFor(h.actor, (s) => s.matches('welcome'));
      expect(h.actor.getSnapshot().context).toMatchObject({
        phone: '0981123456',
        email: 'maria@example.com',
        registrationToken: REGISTRATION.token,
      });
      await toKyc(h);
      expect(h.kycInputs[0]!.canHandoff).toBe(false);
    });

    it("a refused link says the server's reason; the mobile can be verified by SMS instead", async () => {
      const h = harness({ input: { linkToken: LINK_TOKEN } });
      h.opens[0]!.answer.reject(
        new ApiError('server', 410, 'Este enlace ya se usó.', undefined, 'linkUsed'),
      );
      await waitFor(h.actor, (s) => s.matches('linkRefused'));
      expect(selectLinkView(h.actor.getSnapshot()).error).toEqual({
        code: 'linkRefused',
        serverMessage: 'Este enlace ya se usó.',
      });
      h.actor.send({ type: 'link.restart' });
      expect(h.where()).toEqual({ registration: 'editing' });
      expect(h.actor.getSnapshot().context.linkToken).toBeNull();
      // The patient chose the SMS code: step 0, not a restore (issue 43 item 8).
      expect(h.actor.getSnapshot().matches({ registration: 'ready' })).toBe(true);
    });

    it('a link whose registration finished says so, with the login (issue 29 item 16)', async () => {
      const h = harness({ input: { linkToken: LINK_TOKEN } });
      h.opens[0]!.answer.reject(
        new ApiError(
          'server',
          410,
          'Tu registro ya está completo. Ingresá.',
          undefined,
          'registrationComplete',
        ),
      );
      await waitFor(h.actor, (s) => s.matches('linkRefused'));
      expect(selectLinkView(h.actor.getSnapshot())).toMatchObject({
        error: { code: 'linkRegistrationComplete' },
        complete: true,
      });
    });
  });
});

describe('a reload continues the registration this browser holds (issue 43 item 8)', () => {
  const open = OPEN_CASE;
  const answer = (h: Harness, registration: RegistrationResume | null) =>
    h.restores.at(-1)!.answer.resolve({ success: true, registration });

  it('starts by asking for it, on step 0 as the page first paints it (the form usable meanwhile)', () => {
    const h = harness({ restore: 'controlled' });
    expect(h.actor.getSnapshot().matches({ registration: 'restoring' })).toBe(true);
    expect(h.restores).toHaveLength(1);
    expect(h.screen()).toBe('registration');
    expect(selectOnboardingStep(h.actor.getSnapshot())).toBe(0);
    expect(h.where()).toEqual({ registration: 'editing' });
    expect(h.hasTag('busy')).toBe(false);
  });

  it("a case's waiting page: the same way as a proved mobile, to step 4 at the case, with its token", async () => {
    const h = harness({ restore: 'controlled' });
    answer(h, { ...REGISTRATION, resumeAt: 'case', case: open });
    await waitFor(h.actor, (s) => s.matches({ kyc: 'loading' }));
    h.loads.at(-1)!.answer.resolve(h.kycLogic);
    await waitFor(h.actor, (s) => s.matches({ kyc: 'running' }));
    expect(h.kycInputs).toEqual([
      {
        sessionId: null,
        registrationToken: REGISTRATION.token,
        resume: { at: 'case', case: open },
        canHandoff: true,
      },
    ]);
    expect(h.actor.getSnapshot().context).toMatchObject({
      registrationToken: REGISTRATION.token,
      phone: REGISTRATION.phone,
    });
    // No SMS, no code: the cookie's registration is the proof a reload has.
    expect(h.sends).toHaveLength(0);
    expect(h.validations).toHaveLength(0);
  });

  it.each([
    ['pin', 'pinCreation'],
    ['welcome', 'welcome'],
  ] as const)('a registration to continue at %s: the %s step', async (resumeAt, state) => {
    const h = harness({ restore: 'controlled' });
    answer(h, { ...REGISTRATION, resumeAt });
    await waitFor(h.actor, (s) => s.matches(state));
    expect(h.actor.getSnapshot().context.registrationToken).toBe(REGISTRATION.token);
    expect(selectResumed(h.actor.getSnapshot())).toBe(resumeAt !== 'pin');
  });

  it('none: step 0 stays, with what was typed while it was asked', async () => {
    const h = harness({ restore: 'controlled' });
    const form = h.form();
    h.send({ type: 'phone.change', value: '981 123 456' });
    answer(h, null);
    await waitFor(h.actor, (s) => s.matches({ registration: 'ready' }));
    expect(h.form()).toBe(form);
    expect(form.getSnapshot().context.phoneInput).toBe('981 123 456');
    expect(h.actor.getSnapshot().context.registrationToken).toBeNull();
  });

  it("the call failing is not the patient's concern: step 0, as without a registration", async () => {
    const h = harness({ restore: 'controlled' });
    h.restores[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(h.actor, (s) => s.matches({ registration: 'ready' }));
    expect(h.hasTag('error')).toBe(false);
    expect(h.actor.getSnapshot().context.error).toBeNull();
  });

  it('step 0 sent before the answer: the code step, and a late answer changes nothing', async () => {
    const h = harness({ restore: 'controlled' });
    fillPhone(h);
    h.sends[0]!.answer.resolve({ success: true, message: 'ok' });
    await waitFor(h.actor, (s) => s.matches('verification'));
    answer(h, { ...REGISTRATION, resumeAt: 'case', case: open });
    await Promise.resolve();
    expect(h.actor.getSnapshot().matches('verification')).toBe(true);
    expect(h.actor.getSnapshot().context.registrationToken).toBeNull();
  });

  it("only the wizard's start asks: back from the code step is step 0, as the patient chose", async () => {
    const h = harness({ restore: 'controlled' });
    answer(h, null);
    fillPhone(h);
    h.sends[0]!.answer.resolve({ success: true, message: 'ok' });
    await waitFor(h.actor, (s) => s.matches('verification'));
    h.actor.send({ type: 'flow.back' });
    expect(h.actor.getSnapshot().matches({ registration: 'ready' })).toBe(true);
    expect(h.restores).toHaveLength(1);
  });

  it('leaving with a registration (a back or cancel): this browser forgets it, then home, even when the call fails', async () => {
    for (const outcome of ['done', 'failed'] as const) {
      const h = harness({ restore: 'controlled', forget: 'controlled' });
      answer(h, { ...REGISTRATION, resumeAt: 'welcome' });
      await waitFor(h.actor, (s) => s.matches('welcome'));
      h.actor.send({ type: 'flow.back' });
      expect(h.actor.getSnapshot().matches('leaving')).toBe(true);
      expect(h.screen()).toBe('leaving');
      expect(selectGoHome(h.actor.getSnapshot())).toBe(false);
      expect(h.forgets.map((c) => c.input)).toEqual([{ registrationToken: REGISTRATION.token }]);
      if (outcome === 'done') h.forgets[0]!.answer.resolve({ success: true });
      else h.forgets[0]!.answer.reject(new ApiError('network', undefined, undefined));
      await waitFor(h.actor, (s) => s.matches('home'));
      expect(selectGoHome(h.actor.getSnapshot())).toBe(true);
    }
  });

  it('leaving with nothing held: home at once, no call', () => {
    const h = harness();
    h.actor.send({ type: 'flow.back' });
    expect(h.actor.getSnapshot().matches('home')).toBe(true);
    expect(h.forgets).toHaveLength(0);
  });

  it("the phone that opened an SMS link continues the link's registration: nothing restored", () => {
    const h = harness({ restore: 'controlled', input: { linkToken: 'L'.repeat(43) } });
    expect(h.actor.getSnapshot().matches('linkOpening')).toBe(true);
    expect(h.restores).toHaveLength(0);
  });
});
