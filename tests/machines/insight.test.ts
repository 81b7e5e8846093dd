import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  createMachine,
  type AnyStateMachine,
  fromCallback,
  fromPromise,
  type AnyActorRef,
  type AnyEventObject,
  type InspectionEvent,
} from 'xstate';
import type { SessionResponse } from '../../contract/session';
import type { FaceLoginFrameResponse, FaceLoginStartResponse } from '../../contract/face-login';
import type { ResultResponse } from '../../contract/common';
import type { RegistrationResume, SendLinkResponse } from '../../contract/onboarding';
import {
  INSIGHT_MAX_DURATION_MS,
  INSIGHT_MAX_EVENTS_PER_JOURNEY,
  insightBatch,
  insightPaths,
  type InsightEvent,
} from '../../contract/insight';
import type {
  RegisterRequest,
  RegisterResponse,
  StartRequest,
  StartResponse,
} from '../../contract/onboarding';
import type {
  SendPinOtpRequest,
  SendPinOtpResponse,
  SetNewPinRequest,
  SetNewPinResponse,
} from '../../contract/recovery';
import { attemptMachine } from '../../machines/face-login/attempt.machine';
import { faceLoginMachine } from '../../machines/face-login/face-login.machine';
import { createJourneyObserver } from '../../machines/insight/derive';
import { startJourneyInsight } from '../../machines/insight/browser';
import { coarseContext, createInsightSender } from '../../machines/insight/sender';
import { selectAssistActor } from '../../machines/kyc/kyc.assist.selectors';
import type { KycMachine } from '../../machines/kyc/kyc.machine';
import { loginMachine } from '../../machines/login/login.machine';
import { handoffMachine } from '../../machines/onboarding/handoff.machine';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { pinCreationMachine } from '../../machines/onboarding/pin.machine';
import { registeringMachine } from '../../machines/onboarding/registering.machine';
import { registrationFormMachine } from '../../machines/onboarding/registration.machine';
import { selectKycActor } from '../../machines/onboarding/onboarding.selectors';
import { otpMachine } from '../../machines/otp/otp.machine';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../../machines/otp/otp.types';
import { recoveryMachine } from '../../machines/recovery/recovery.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import { selectLoginActor } from '../../machines/session/session.selectors';
import { ApiError } from '../../machines/shared/errors';
import { controlled } from './controlled';
import { harness as kycHarness, jpeg, stream, verified } from './kyc.harness';

/**
 * Journey insight derived from the machines (machines/insight/derive.ts): each flow emits the
 * catalogue's events in order for its success path and its error paths, every event passes the
 * ingestion schema, and a failing sender changes nothing in the flow.
 */

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** An observer with a hand clock (each event 1 s after the previous one) and what it emitted. */
function recorder(options: { failing?: boolean } = {}) {
  const events: InsightEvent[] = [];
  let t = 0;
  const inspect = createJourneyObserver({
    now: () => (t += 1000),
    newJourney: () => '0b5c0f7e-9d1a-4c3b-8a2e-5f6d7c8b9a01',
    emit: (e) => {
      if (options.failing) throw new Error('sender down');
      events.push(e);
    },
  });
  /** `step:outcome` or `step:outcome:error`, in order. */
  const seen = () =>
    events.map((e) => [e.step, e.outcome, e.error].filter(Boolean).join(':')) as string[];
  return { inspect, events, seen };
}

const valid = (events: InsightEvent[]) =>
  expect(
    insightBatch.safeParse({ token: 't', context: { device: 'mobile', browser: 'chrome' }, events })
      .success,
  ).toBe(true);

// ---------------------------------------------------------------------------------------------
// login

function login(inspect: (e: InspectionEvent) => void) {
  const submit = controlled<
    { success: boolean; message?: string },
    { numero_documento: string; pin: string }
  >();
  const actor = createActor(loginMachine.provide({ actors: { submitLogin: submit.logic } }), {
    inspect,
  }).start();
  const values: unknown[] = [];
  actor.subscribe((s) => values.push(s.value));
  const submitWith = (pin: string) => {
    actor.send({ type: 'documento.change', value: '1234567' });
    actor.send({ type: 'pin.change', value: pin });
    actor.send({ type: 'form.submit' });
  };
  return { actor, submit, submitWith, values };
}

describe('login', () => {
  it('success: entered, passed with its time', async () => {
    const r = recorder();
    const h = login(r.inspect);
    h.submitWith('482915');
    h.submit.calls[0]!.answer.resolve({ success: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(r.seen()).toEqual(['login:entered', 'login:passed']);
    expect(r.events[1]).toMatchObject({ flow: 'login', attempt: 1, durationMs: 1000 });
    valid(r.events);
  });

  it('the login the session machine invokes is a journey of its own (the session is no flow)', async () => {
    const r = recorder();
    const submit = controlled<
      { success: boolean; message?: string },
      { numero_documento: string; pin: string }
    >();
    const session = createActor(
      sessionMachine.provide({
        actors: {
          fetchSession: fromPromise<SessionResponse>(async () => ({ authenticated: false })),
          login: loginMachine.provide({ actors: { submitLogin: submit.logic } }),
        },
      }),
      { inspect: r.inspect },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    const child = selectLoginActor(session.getSnapshot())!;
    child.send({ type: 'documento.change', value: '1234567' });
    child.send({ type: 'pin.change', value: '482915' });
    child.send({ type: 'form.submit' });
    submit.calls[0]!.answer.resolve({ success: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(r.seen()).toEqual(['login:entered', 'login:passed']);
    expect(r.events.every((e) => e.flow === 'login')).toBe(true);
    valid(r.events);
  });

  it('a wrong PIN, a lost network, then success: each failure with its code and the attempt', async () => {
    const r = recorder();
    const h = login(r.inspect);
    h.submitWith('111112');
    h.submit.calls[0]!.answer.reject(
      new ApiError('server', 401, 'Número de documento o PIN incorrectos.'),
    );
    await vi.advanceTimersByTimeAsync(0);
    h.submitWith('111113');
    h.submit.calls[1]!.answer.reject(new TypeError('offline'));
    await vi.advanceTimersByTimeAsync(0);
    h.submitWith('482915');
    h.submit.calls[2]!.answer.resolve({ success: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(r.seen()).toEqual([
      'login:entered',
      'login:failed:loginFailed',
      'login:retried',
      'login:failed:network',
      'login:retried',
      'login:passed',
    ]);
    expect(r.events.map((e) => e.attempt)).toEqual([1, 1, 1, 2, 2, 3]);
    valid(r.events);
    // Nothing typed travels: no document number, no PIN, no server message.
    expect(JSON.stringify(r.events)).not.toMatch(/1234567|482915|11111|incorrectos/);
  });

  it('a failing sender changes nothing in the flow', async () => {
    const runs = [recorder(), recorder({ failing: true })].map(async (r) => {
      const h = login(r.inspect);
      h.submitWith('111112');
      h.submit.calls[0]!.answer.reject(new ApiError('server', 401, 'x'));
      await vi.advanceTimersByTimeAsync(0);
      h.submitWith('482915');
      h.submit.calls[1]!.answer.resolve({ success: true });
      await vi.advanceTimersByTimeAsync(0);
      return h.values;
    });
    const [withInsight, failing] = await Promise.all(runs);
    expect(failing).toEqual(withInsight);
    expect(failing!.at(-1)).toBe('done');
  });
});

// ---------------------------------------------------------------------------------------------
// PIN recovery

function recovery(
  inspect: (e: InspectionEvent) => void,
  base: typeof recoveryMachine = recoveryMachine,
  otpBase: typeof otpMachine = otpMachine,
) {
  const send = controlled<SendPinOtpResponse, SendPinOtpRequest>();
  const save = controlled<SetNewPinResponse, SetNewPinRequest>();
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  const resend = controlled<OtpVerdict, OtpResendInput>();
  const machine = base.provide({
    actors: {
      sendRecoveryCode: send.logic,
      saveNewPin: save.logic,
      otp: otpBase.provide({
        actors: { validateCode: validate.logic, resendCode: resend.logic },
      }),
    },
  });
  const actor = createActor(machine, { inspect }).start();
  const values: unknown[] = [];
  actor.subscribe((s) => values.push(s.value));
  const otp = () => actor.getSnapshot().children.otp!;
  const request = () => {
    actor.send({ type: 'documento.change', value: '1234567' });
    actor.send({ type: 'celular.change', value: '0981123456' });
    actor.send({ type: 'form.submit' });
  };
  const code = (value: string) => {
    otp().send({ type: 'code.change', value });
    otp().send({ type: 'code.submit' });
  };
  const flush = () => vi.advanceTimersByTimeAsync(0);
  return { actor, send, save, validate, resend, otp, request, code, flush, values };
}

/** Recovery's success path: what `RECOVERY_SUCCESS_SEEN` records. */
async function recoverySuccess(h: ReturnType<typeof recovery>) {
  h.request();
  h.send.calls[0]!.answer.resolve({ success: true, message: 'ok' });
  await h.flush();
  h.code('123456');
  h.validate.calls[0]!.answer.resolve({ success: true });
  await h.flush();
  h.actor.send({ type: 'pin.change', value: '735194' });
  h.actor.send({ type: 'form.submit' });
  h.save.calls[0]!.answer.resolve({ success: true, message: 'ok' });
  await h.flush();
}
const RECOVERY_SUCCESS_SEEN = [
  'request:entered',
  'request:passed',
  'verification:entered',
  'verification:passed',
  'newPin:entered',
  'newPin:passed',
];

/** Recovery's error paths, driven to the end: what `RECOVERY_ERRORS_SEEN` records. */
async function recoveryErrors(h: ReturnType<typeof recovery>) {
  h.actor.send({ type: 'documento.change', value: '1234567' });
  h.actor.send({ type: 'celular.change', value: '12' });
  h.actor.send({ type: 'form.submit' });
  h.request();
  h.send.calls[0]!.answer.reject(new ApiError('server', 400, 'x'));
  await h.flush();
  h.actor.send({ type: 'form.submit' });
  h.send.calls[1]!.answer.resolve({ success: true, message: 'ok' });
  await h.flush();
  h.code('000000');
  h.validate.calls[0]!.answer.reject(new ApiError('server', 401, 'x'));
  await h.flush();
  await vi.advanceTimersByTimeAsync(30_000);
  h.otp().send({ type: 'code.resend' });
  h.resend.calls[0]!.answer.reject(new ApiError('server', 500, 'x'));
  await h.flush();
  h.actor.send({ type: 'flow.back' });
  h.actor.send({ type: 'form.submit' });
  h.send.calls[2]!.answer.resolve({ success: true, message: 'ok' });
  await h.flush();
  h.code('123456');
  h.validate.calls[1]!.answer.resolve({ success: true });
  await h.flush();
  h.actor.send({ type: 'pin.change', value: '123456' });
  h.actor.send({ type: 'form.submit' });
  h.actor.send({ type: 'pin.change', value: '735194' });
  h.actor.send({ type: 'form.submit' });
  h.save.calls[0]!.answer.reject(new TypeError('offline'));
  await h.flush();
}
const RECOVERY_ERRORS_SEEN = [
  'request:entered',
  'request:failed:celularInvalid',
  'request:retried',
  'request:failed:sendFailed',
  'request:retried',
  'request:passed',
  'verification:entered',
  'verification:failed:wrongCode',
  'verification:retried',
  'verification:failed:resendFailed',
  'verification:cancelled',
  'request:entered',
  'request:passed',
  'verification:entered',
  'verification:passed',
  'newPin:entered',
  'newPin:failed:pinInvalid',
  'newPin:retried',
  'newPin:failed:saveFailed',
];

describe('PIN recovery', () => {
  it('success: request, code, new PIN, each entered and passed in order', async () => {
    const r = recorder();
    const h = recovery(r.inspect);
    await recoverySuccess(h);
    expect(r.seen()).toEqual(RECOVERY_SUCCESS_SEEN);
    expect(new Set(r.events.map((e) => e.flow))).toEqual(new Set(['recovery']));
    valid(r.events);
    expect(JSON.stringify(r.events)).not.toMatch(/1234567|0981123456|123456|735194/);
  });

  it('errors: an invalid mobile, a refused send, a wrong code, a resend, back to step 0, a banned PIN, a failed save', async () => {
    const r = recorder();
    await recoveryErrors(recovery(r.inspect));
    expect(r.seen()).toEqual(RECOVERY_ERRORS_SEEN);
    valid(r.events);
    expect(r.events.map((e) => e.seq)).toEqual(r.events.map((_, i) => i));
  });

  it('a failing sender changes nothing in the flow', async () => {
    const run = async (r: ReturnType<typeof recorder>) => {
      const h = recovery(r.inspect);
      h.request();
      h.send.calls[0]!.answer.resolve({ success: true, message: 'ok' });
      await h.flush();
      h.code('000000');
      h.validate.calls[0]!.answer.reject(new ApiError('server', 401, 'x'));
      await h.flush();
      h.code('123456');
      h.validate.calls[1]!.answer.resolve({ success: true });
      await h.flush();
      return h.values;
    };
    const a = await run(recorder());
    const b = await run(recorder({ failing: true }));
    expect(b).toEqual(a);
    expect(b.at(-1)).toEqual({ newPin: 'editing' });
  });
});

// ---------------------------------------------------------------------------------------------
// declared, not reconstructed (issue 27 part 2)

type Config = Record<string, unknown>;
const TRANSITIONS = new Set(['on', 'after', 'always', 'onDone', 'onError', 'target', 'initial']);

/**
 * A copy of a machine's config whose states are renamed (`names`: old to new, in `states`, every
 * target and `initial`); meta, actions, guards and actors stay as they are, unless `keepMeta` is
 * false (then no state declares anything).
 */
function renamedConfig(config: Config, names: Record<string, string>, keepMeta = true): Config {
  const path = (p: string) =>
    p
      .split('.')
      .map((seg) => names[seg] ?? seg)
      .join('.');
  const walk = (value: unknown, key: string | null, inTransition: boolean): unknown => {
    if (typeof value === 'string') return inTransition ? path(value) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, null, inTransition));
    if (!value || typeof value !== 'object' || typeof value === 'function') return value;
    const out: Config = {};
    for (const [k, v] of Object.entries(value as Config)) {
      if (k === 'meta' && !keepMeta) continue;
      const name = key === 'states' ? (names[k] ?? k) : k;
      const transition = TRANSITIONS.has(k) || (inTransition && key !== 'actions');
      out[name] = k === 'meta' || k === 'actions' ? v : walk(v, k, transition);
    }
    return out;
  };
  return walk(config, null, false) as Config;
}
function renamed<M extends AnyStateMachine>(
  machine: M,
  names: Record<string, string>,
  keepMeta = true,
): M {
  const config = renamedConfig(machine.config as Config, names, keepMeta);
  return createMachine(config as never, machine.implementations as never) as unknown as M;
}

describe('journey insight reads what the states declare, not their names', () => {
  const recoveryNames = {
    request: 'pedido',
    verification: 'codigo',
    newPin: 'pinNuevo',
    unexpected: 'roto',
    done: 'listo',
  };
  const otpNames = { resending: 'reenviando', active: 'activo' };

  it('recovery and its SMS code with every state renamed: the same events', async () => {
    const machine = renamed(recoveryMachine, recoveryNames);
    const otp = renamed(otpMachine, otpNames);
    const r = recorder();
    const h = recovery(r.inspect, machine, otp);
    await recoveryErrors(h);
    expect(h.values.at(-1)).toEqual({ pinNuevo: 'failed' }); // the copy really runs renamed
    expect(r.seen()).toEqual(RECOVERY_ERRORS_SEEN);

    const ok = recorder();
    const k = recovery(ok.inspect, machine, otp);
    await recoverySuccess(k);
    expect(k.values.at(-1)).toBe('listo');
    expect(ok.seen()).toEqual(RECOVERY_SUCCESS_SEEN);
  });

  it('the same copy without its meta records no step: the declarations are what counts', async () => {
    const r = recorder();
    const h = recovery(
      r.inspect,
      renamed(recoveryMachine, recoveryNames, false),
      renamed(otpMachine, otpNames, false),
    );
    await recoveryErrors(h);
    expect(h.values.at(-1)).toEqual({ pinNuevo: 'failed' });
    expect(r.seen()).toEqual([]);
  });

  it('login with its final state renamed: entered, passed', async () => {
    const r = recorder();
    const machine = renamed(loginMachine, { done: 'adentro', submitting: 'enviando' });
    const actor = createActor(
      machine.provide({
        actors: {
          submitLogin: fromPromise(async (): Promise<{ success: boolean }> => ({ success: true })),
        },
      }),
      { inspect: r.inspect },
    ).start();
    actor.send({ type: 'documento.change', value: '1234567' });
    actor.send({ type: 'pin.change', value: '482915' });
    actor.send({ type: 'form.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('adentro');
    expect(r.seen()).toEqual(['login:entered', 'login:passed']);
  });
});

// ---------------------------------------------------------------------------------------------
// onboarding with its KYC child

const REGISTRATION: RegistrationResume = {
  token: 'R'.repeat(43),
  resumeAt: 'pin',
  phone: '0981123456',
  email: null,
  sessionId: null,
};

function onboarding(inspect: (e: InspectionEvent) => void, registration = REGISTRATION) {
  const send = controlled<StartResponse, StartRequest>();
  const register = controlled<RegisterResponse, RegisterRequest>();
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  const load = controlled<KycMachine, unknown>();
  // The real KYC machine with the KYC tests' hand-driven actors, spawned as the wizard's child.
  const k = kycHarness(['sess-1', 'sess-2'], false);
  const machine = onboardingMachine.provide({
    actors: {
      registrationForm: registrationFormMachine.provide({ actors: { sendCode: send.logic } }),
      registering: registeringMachine.provide({ actors: { registerPatient: register.logic } }),
      otp: otpMachine.provide({
        actors: {
          validateCode: validate.logic,
          resendCode: fromPromise<OtpVerdict, OtpResendInput>(async () => ({ success: true })),
        },
      }),
      loadKyc: load.logic,
      pinCreation: pinCreationMachine.provide({
        actors: { savePin: fromPromise(async (): Promise<ResultResponse> => ({ success: true })) },
      }),
      handoff: handoffMachine.provide({
        actors: {
          sendLink: fromPromise(async (): Promise<SendLinkResponse> => ({
            success: true,
            message: 'ok',
            link: `http://localhost/onboarding/celular#${'L'.repeat(43)}`,
            expiresInSeconds: 1200,
            resendAfterSeconds: 30,
          })),
          registrationStatus: fromCallback(() => () => {}),
        },
      }),
    },
  });
  const actor = createActor(machine, { inspect, input: {} }).start();
  const values: string[] = [];
  actor.subscribe((s) => values.push(JSON.stringify(s.value)));
  const kyc = () => selectKycActor(actor.getSnapshot())!;
  /** An event as the view sends it: to the step's child (form, PIN, handoff) when it has one. */
  const step = (event: AnyEventObject) => {
    const c = actor.getSnapshot().children;
    (c.registrationForm ?? c.pinCreation ?? c.handoff ?? (actor as AnyActorRef)).send(event);
  };
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const answerSession = async (id: string) => {
    k.session.calls.at(-1)!.answer.resolve({ sessionId: id });
    await flush();
  };
  return {
    actor,
    step,
    values,
    kyc,
    flush,
    answerSession,
    async toKyc() {
      step({ type: 'phone.change', value: '981 123 456' });
      step({ type: 'form.submit' });
      send.calls.at(-1)!.answer.resolve({ success: true, message: 'ok' });
      await flush();
      actor.getSnapshot().children.otp!.send({ type: 'code.change', value: '123456' });
      validate.calls.at(-1)!.answer.resolve({ success: true, registration });
      await flush();
      step({ type: 'pin.change', value: '735194' });
      step({ type: 'terms.change', accepted: true });
      step({ type: 'form.submit' });
      await flush();
      actor.send({ type: 'welcome.next' });
      for (const call of load.calls) call.answer.resolve(k.machine as unknown as KycMachine);
      await flush();
    },
    /** to step 4, its first session, the selfie's challenge running */
    async toSelfieRunning() {
      await this.toKyc();
      await answerSession('sess-1');
      k.camera.last().send({ type: 'camera.ready', stream });
      kyc().send({ type: 'liveness.start' });
    },
    async passSelfie() {
      k.camera.last().send({ type: 'camera.ready', stream });
      kyc().send({ type: 'liveness.start' });
      k.sampling.last().send({
        type: 'poll.result',
        result: { liveness_detected: true, feedback: [], time_up: false },
      });
      await vi.advanceTimersByTimeAsync(1200);
    },
    /** to step 4, the selfie passed, both sides sent */
    async toDocumentsSent() {
      await this.toKyc();
      await answerSession('sess-1');
      await this.passSelfie();
      await this.sendDocuments();
    },
    async sendDocuments() {
      kyc().send({ type: 'document.upload', file: jpeg('front-file') });
      k.scaling.calls.at(-1)!.answer.resolve(jpeg('front'));
      await flush();
      kyc().send({ type: 'document.accept' });
      kyc().send({ type: 'document.upload', file: jpeg('back-file') });
      k.scaling.calls.at(-1)!.answer.resolve(jpeg('back'));
      await flush();
      kyc().send({ type: 'document.accept' });
    },
    async finish() {
      k.verify.calls.at(-1)!.answer.resolve(verified);
      await flush();
      // The card read is nobody's yet (issue 29 item 10): on to the review.
      k.check.calls.at(-1)!.answer.resolve(false);
      await flush();
      kyc().send({ type: 'review.confirm' });
      k.departments.calls.at(-1)!.answer.resolve([{ id: '11', nombre: 'Central' }]);
      await flush();
      kyc().send({ type: 'department.change', value: '11' });
      k.cities.calls.at(-1)!.answer.resolve([{ id: '11-3', nombre: 'Luque' }]);
      await flush();
      kyc().send({ type: 'city.change', value: '11-3' });
      kyc().send({ type: 'supplementary.submit' });
      await flush();
      register.calls.at(-1)!.answer.resolve({ success: true, message: 'ok' });
      await flush();
    },
    k,
    register,
  };
}

const HAPPY = [
  'registration:entered',
  'registration:passed',
  'verification:entered',
  'verification:passed',
  'pin:entered',
  'pin:passed',
  'welcome:entered',
  'welcome:passed',
  'kycLoad:entered',
];

describe('onboarding: a registration that survives real life (issue 18)', () => {
  it('a kept registration continued: the resume counted, the PIN step never entered', async () => {
    const r = recorder();
    const h = onboarding(r.inspect, { ...REGISTRATION, resumeAt: 'welcome' });
    await h.toKyc();
    expect(r.seen().slice(0, 9)).toEqual([
      'registration:entered',
      'registration:passed',
      'verification:entered',
      'verification:passed',
      'welcome:entered',
      'resume:entered',
      'resume:passed',
      'welcome:passed',
      'kycLoad:entered',
    ]);
    expect(r.seen()).not.toContain('pin:entered');
    valid(r.events);
  });

  it("'Seguir en mi celular': the handoff entered, passed when the phone finishes", async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toKyc();
    await h.answerSession('sess-1');
    h.kyc().send({ type: 'handoff.start' });
    await h.flush();
    expect(r.seen().slice(-1)).toEqual(['handoff:entered']);
    h.step({ type: 'poll.result', result: { success: true, stage: 'completed' } });
    expect(h.actor.getSnapshot().value).toBe('complete');
    expect(r.seen().slice(-1)).toEqual(['handoff:passed']);
    valid(r.events);
  });
});

describe('onboarding with KYC', () => {
  it('success: every step entered and passed in order, the camera granted, registered', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toDocumentsSent();
    await h.finish();
    expect(h.actor.getSnapshot().value).toBe('complete');
    const seen = r.seen();
    expect(seen.slice(0, HAPPY.length)).toEqual(HAPPY);
    // The child's first snapshot and the wizard's own step may arrive in either order.
    expect(seen.slice(HAPPY.length, HAPPY.length + 2).sort()).toEqual([
      'kycLoad:passed',
      'selfie:entered',
    ]);
    expect(seen.slice(HAPPY.length + 2)).toEqual([
      'camera:entered',
      'camera:passed',
      'selfie:passed',
      // The documents go by 'Subir imagen' here: the rear camera never opened.
      'document:entered',
      'document:passed',
      'review:entered',
      'review:passed',
      'supplementary:entered',
      'supplementary:passed',
      'register:entered',
      'register:passed',
    ]);
    expect(new Set(r.events.map((e) => e.flow))).toEqual(new Set(['onboarding']));
    valid(r.events);
    expect(JSON.stringify(r.events)).not.toMatch(/981123456|735194|123456|6824773|FRANCO|sess-/);
  });

  it('a failed selfie, a retry with a new session, a rejected document, a retry, a refused register', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toSelfieRunning();
    h.k.sampling.last().send({
      type: 'poll.result',
      result: { liveness_detected: false, feedback: [], time_up: true },
    });
    h.kyc().send({ type: 'liveness.start' }); // 'Intentar nuevamente'
    await h.answerSession('sess-2');
    await h.passSelfie();
    await h.sendDocuments();
    h.k.verify.calls.at(-1)!.answer.resolve({
      success: false,
      kyc_complete: false,
      error: 'Face verification failed: la selfie y la foto del documento no coinciden.',
      reason: 'face_mismatch',
    });
    await h.flush();
    const failures = r.events.filter((e) => e.outcome === 'failed');
    expect(failures.map((e) => `${e.step}:${e.error}`)).toEqual([
      'selfie:livenessNotDetected',
      'document:faceMismatch',
    ]);
    const selfie = r.seen().filter((s) => s.startsWith('selfie'));
    expect(selfie).toEqual([
      'selfie:entered',
      'selfie:failed:livenessNotDetected',
      'selfie:retried',
      'selfie:passed',
    ]);
    expect(r.events.find((e) => e.step === 'selfie' && e.outcome === 'passed')!.attempt).toBe(2);
    // 'Reintentar' from the rejection: the document attempt ends, the selfie starts again.
    h.kyc().send({ type: 'kyc.retry' });
    await h.flush();
    expect(r.seen().slice(-2)).toEqual(['document:retried', 'selfie:entered']);
    expect(r.events.at(-1)!.attempt).toBe(3);
    valid(r.events);
  });

  it("the selfie's challenge refused it (issue 31): reported as such, not as 'unexpected'", async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toSelfieRunning();
    h.k.sampling.last().send({
      type: 'poll.error',
      error: { code: 'rejected', status: 422, serverMessage: 'x', reason: 'light_mismatch' },
    });
    await h.flush();
    expect(r.seen().filter((s) => s.startsWith('selfie'))).toEqual([
      'selfie:entered',
      'selfie:failed:challengeFailed',
    ]);
    valid(r.events);
  });

  it('a case opened (issue 30): the step the patient left ends as assisted, once', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toKyc();
    await h.answerSession('sess-1');
    await h.passSelfie();
    h.kyc().send({ type: 'assist.open' });
    h.kyc().send({ type: 'assist.choose', kind: 'review' });
    h.k.openCase.calls.at(-1)!.answer.resolve({
      kind: 'review',
      status: 'open',
      trigger: 'patient_choice',
      openedAt: '2026-11-26T13:00:00.000Z',
      expectedBy: '2026-11-28T13:00:00.000Z',
    });
    await h.flush();
    // The way out is the KYC's `assist` child (kyc.assist.machine.ts), read by its id.
    const assist = () => selectAssistActor(h.kyc().getSnapshot())!.getSnapshot();
    expect(h.kyc().getSnapshot().value).toBe('assist');
    expect(assist().value).toEqual({ case: 'waiting' });
    // 'Actualizar' (still open) is not a second end.
    h.kyc().send({ type: 'case.refresh' });
    h.k.caseStatus.calls.at(-1)!.answer.resolve(assist().context.case);
    await h.flush();
    const failures = r.events.filter((e) => e.outcome === 'failed');
    expect(failures.map((e) => `${e.step}:${e.error}`)).toEqual(['document:assisted']);
    valid(r.events);
  });

  // The way out became the KYC's `assist` child (issue 42 item 4): derive.ts reads it inside the
  // KYC (its value, tags and meta), so every event is the one its states gave as the KYC's own.
  // These lists were recorded on the KYC with the states inline (a failure screen of the way out,
  // tagged `error`, says the step's refusal again, as it always did).
  const net = () => new ApiError('network', undefined, undefined);
  it('the way out as a child: a refusal repeated, the case offline, the centres: the same events', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    const miss = async () => {
      h.k.camera.last().send({ type: 'camera.ready', stream });
      h.kyc().send({ type: 'liveness.start' });
      h.k.sampling.last().send({
        type: 'poll.result',
        result: { liveness_detected: false, feedback: [], time_up: true },
      });
      await h.flush();
    };
    await h.toKyc();
    await h.answerSession('sess-1');
    await miss();
    h.kyc().send({ type: 'liveness.start' });
    await h.answerSession('sess-2');
    await miss();
    h.kyc().send({ type: 'assist.choose', kind: 'review' });
    h.k.openCase.calls.at(-1)!.answer.reject(net());
    await h.flush();
    h.kyc().send({ type: 'assist.back' });
    h.kyc().send({ type: 'assist.choose', kind: 'centro' });
    h.k.openCase.calls.at(-1)!.answer.resolve({
      kind: 'centro',
      status: 'open',
      trigger: 'liveness_failed',
      openedAt: '2026-11-26T13:00:00.000Z',
      expectedBy: '2026-12-26T13:00:00.000Z',
      code: 'HK7MW3QA',
    });
    await h.flush();
    h.k.centres.calls.at(-1)!.answer.reject(net());
    await h.flush();
    h.kyc().send({ type: 'assist.retry' });
    h.k.centres.calls.at(-1)!.answer.resolve([]);
    await h.flush();
    expect(r.seen().slice(HAPPY.length)).toEqual([
      'selfie:entered',
      'kycLoad:passed',
      'camera:entered',
      'camera:passed',
      'selfie:failed:livenessNotDetected',
      'selfie:retried',
      'camera:entered',
      'camera:passed',
      'selfie:failed:livenessNotDetected',
      'selfie:failed:livenessNotDetected',
      'selfie:failed:assisted',
      'selfie:failed:livenessNotDetected',
    ]);
    valid(r.events);
  });

  it('the way out as a child: no camera, the case offline twice, Volver twice: the same events', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toKyc();
    await h.answerSession('sess-1');
    h.k.camera.last().send({ type: 'camera.error', code: 'notFound' });
    h.kyc().send({ type: 'assist.open' });
    h.kyc().send({ type: 'assist.choose', kind: 'centro' });
    h.k.openCase.calls.at(-1)!.answer.reject(net());
    await h.flush();
    h.kyc().send({ type: 'assist.retry' });
    h.k.openCase.calls.at(-1)!.answer.reject(net());
    await h.flush();
    h.kyc().send({ type: 'assist.back' });
    h.kyc().send({ type: 'assist.back' });
    expect(h.kyc().getSnapshot().value).toEqual({ selfie: 'opening' });
    expect(r.seen().slice(HAPPY.length)).toEqual([
      'selfie:entered',
      'kycLoad:passed',
      'camera:entered',
      'camera:failed:notFound',
      'camera:entered',
      'camera:failed:notFound',
      'camera:entered',
      'camera:failed:notFound',
      'selfie:entered',
    ]);
    valid(r.events);
  });

  it("the supplementary form's own machine: its failure and retry counted on its step", async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toDocumentsSent();
    h.k.verify.calls.at(-1)!.answer.resolve(verified);
    await h.flush();
    h.k.check.calls.at(-1)!.answer.resolve(false);
    await h.flush();
    h.kyc().send({ type: 'review.confirm' });
    h.k.departments.calls.at(-1)!.answer.reject(new TypeError('Failed to fetch'));
    await h.flush();
    h.kyc().send({ type: 'places.retry' });
    await h.flush();
    expect(r.seen().filter((s) => s.startsWith('supplementary'))).toEqual([
      'supplementary:entered',
      'supplementary:failed:departmentsFailed',
      'supplementary:retried',
    ]);
    valid(r.events);
  });

  it('camera refused: the camera step fails with the browser code; back cancels the step', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    await h.toKyc();
    await h.answerSession('sess-1');
    h.k.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    await h.flush();
    h.actor.send({ type: 'flow.back' });
    await h.flush();
    expect(r.seen().slice(-3)).toEqual([
      'camera:entered',
      'camera:failed:permissionDenied',
      'selfie:cancelled',
    ]);
    valid(r.events);
  });

  it('registration errors: an invalid phone, a failed send, a patient who exists', async () => {
    const r = recorder();
    const h = onboarding(r.inspect);
    h.step({ type: 'phone.change', value: '12' });
    h.step({ type: 'form.submit' });
    h.step({ type: 'phone.change', value: '981 123 456' });
    h.step({ type: 'form.submit' });
    await h.flush();
    expect(r.seen()).toEqual([
      'registration:entered',
      'registration:failed:phoneInvalidSubmit',
      'registration:retried',
    ]);
  });

  it('a failing sender changes nothing in the flow', async () => {
    const run = async (r: ReturnType<typeof recorder>) => {
      const h = onboarding(r.inspect);
      await h.toKyc();
      await h.answerSession('sess-1');
      await h.passSelfie();
      await h.sendDocuments();
      await h.finish();
      return h.values;
    };
    const a = await run(recorder());
    const b = await run(recorder({ failing: true }));
    expect(b).toEqual(a);
    expect(b.at(-1)).toBe('"complete"');
  });
});

// ---------------------------------------------------------------------------------------------
// face authentication

const started: FaceLoginStartResponse = {
  success: true,
  session_id: 's-1',
  recommended_interval_ms: 300,
  profile: 'kiosk',
};
const decided = (success: boolean): FaceLoginFrameResponse => ({
  stage: success ? 'authenticated' : 'failed',
  feedback: [],
  recommended_interval_ms: 300,
  result: {
    success,
    message: success ? 'Identidad verificada.' : 'No reconocido',
    user: success
      ? {
          full_name: 'EILEEN COLLINS',
          given_names: 'EILEEN',
          document_number: '4321987',
          face_match_confidence: 0.93,
        }
      : null,
    authentication: { confidence: success ? 0.93 : null, threshold_used: 0.7 },
  },
});

function faceLogin(
  inspect: (e: InspectionEvent) => void,
  base: typeof faceLoginMachine = faceLoginMachine,
) {
  const start = controlled<FaceLoginStartResponse, { prefix: string }>();
  const polls: Array<(e: unknown) => void> = [];
  const cameras: Array<(e: unknown) => void> = [];
  const watchdogs: Array<(e: unknown) => void> = [];
  const machine = base.provide({
    actors: {
      stopSession: fromPromise(async () => {}),
      camera: fromCallback(({ sendBack }) => void cameras.push(sendBack as (e: unknown) => void)),
      cameraWatchdog: fromCallback(
        ({ sendBack }) => void watchdogs.push(sendBack as (e: unknown) => void),
      ),
      attempt: attemptMachine.provide({
        actors: {
          startSession: start.logic,
          framePolling: fromCallback(
            ({ sendBack }) => void polls.push(sendBack as (e: unknown) => void),
          ),
        },
      }),
    },
  });
  const actor = createActor(machine, { input: {}, inspect }).start();
  const values: string[] = [];
  actor.subscribe((s) => values.push(JSON.stringify(s.value)));
  return { actor, start, polls, cameras, watchdogs, values };
}

/** The camera granted, one recognised and one not recognised attempt, a network failure. */
async function faceAttempts(h: ReturnType<typeof faceLogin>) {
  h.actor.send({ type: 'camera.enable' });
  h.cameras.at(-1)!({ type: 'camera.ready', stream });
  h.watchdogs.at(-1)!({ type: 'video.ready', video: {} as HTMLVideoElement });
  await vi.advanceTimersByTimeAsync(0);
  for (const success of [true, false]) {
    h.actor.send({ type: 'auth.start' });
    h.start.calls.at(-1)!.answer.resolve(started);
    await vi.advanceTimersByTimeAsync(0);
    h.polls.at(-1)!({ type: 'poll.result', result: decided(success) });
    await vi.advanceTimersByTimeAsync(0);
  }
  h.actor.send({ type: 'auth.start' });
  h.start.calls.at(-1)!.answer.reject(new TypeError('offline'));
  await vi.advanceTimersByTimeAsync(0);
}
const FACE_ATTEMPTS_SEEN = [
  'camera:entered',
  'camera:passed',
  'recognition:entered',
  'recognition:passed',
  'recognition:entered',
  'recognition:failed:notRecognised',
  'recognition:entered',
  'recognition:failed:network',
];

describe('face authentication', () => {
  it('camera granted, one recognised and one not recognised attempt, a network failure', async () => {
    const r = recorder();
    await faceAttempts(faceLogin(r.inspect));
    expect(r.seen()).toEqual(FACE_ATTEMPTS_SEEN);
    expect(r.events.map((e) => e.attempt).slice(2)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(JSON.stringify(r.events)).not.toMatch(/EILEEN|4321987/);
    valid(r.events);
  });

  it('its parallel regions with their states renamed: the same events (issue 27 part 2)', async () => {
    const r = recorder();
    const copy = renamed(faceLoginMachine, {
      live: 'enVivo',
      attempt: 'intento',
      decided: 'decidido',
      failed: 'fallo',
      manual: 'manos',
    });
    const h = faceLogin(r.inspect, copy);
    await faceAttempts(h);
    expect(JSON.parse(h.values.at(-1)!)).toMatchObject({
      camera: { on: 'enVivo' },
      auth: { manos: 'fallo' },
    });
    expect(r.seen()).toEqual(FACE_ATTEMPTS_SEEN);
  });

  it('camera refused: failed with its code; a failing sender changes nothing', async () => {
    const r = recorder();
    const quiet = recorder({ failing: true });
    const runs = [r, quiet].map((rec) => {
      const h = faceLogin(rec.inspect);
      h.actor.send({ type: 'camera.enable' });
      h.cameras.at(-1)!({ type: 'camera.error', code: 'permissionDenied' });
      return h.values;
    });
    expect(r.seen()).toEqual(['camera:entered', 'camera:failed:permissionDenied']);
    expect(runs[1]).toEqual(runs[0]);
  });
});

// ---------------------------------------------------------------------------------------------
// the sender

describe('sender', () => {
  const event = (seq: number): InsightEvent => ({
    journey: '0b5c0f7e-9d1a-4c3b-8a2e-5f6d7c8b9a01',
    seq,
    flow: 'login',
    step: 'login',
    outcome: 'entered',
    attempt: 1,
  });
  const context = () => ({ device: 'mobile' as const, browser: 'chrome' as const });

  it('batches by size and by time; on page hide it uses the beacon', async () => {
    const posts: Array<{ events: InsightEvent[] }> = [];
    const beacons: string[] = [];
    const s = createInsightSender({
      transport: {
        post: async (_url, batch) => void posts.push(batch as { events: InsightEvent[] }),
        beacon: (_url, body) => (beacons.push(body), true),
      },
      context,
      token: () => 'page-token',
      maxBatch: 3,
      flushMs: 5000,
    });
    for (let i = 0; i < 4; i++) s.add(event(i));
    expect(posts.map((p) => p.events.length)).toEqual([3]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(posts.map((p) => p.events.length)).toEqual([3, 1]);
    s.add(event(4));
    s.flush('beacon');
    expect(beacons).toHaveLength(1);
    expect(insightBatch.safeParse(JSON.parse(beacons[0]!)).success).toBe(true);
    expect(s.pending).toBe(0);
  });

  it("a flow's end goes out at once, on a request that outlives the page (issue 43 item 11)", async () => {
    // The page: a token answer, then every batch taken; no window of its own in this test.
    const fetch = vi.fn(
      async (url: string, _init?: RequestInit) =>
        new Response(
          JSON.stringify(
            url === insightPaths.token
              ? { success: true, token: 'page-token', expiresInSeconds: 600 }
              : { success: true },
          ),
          { status: 200 },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('addEventListener', () => {});
    vi.stubGlobal('document', { addEventListener: () => {}, visibilityState: 'visible' });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0' });
    try {
      const inspect = startJourneyInsight();
      await vi.advanceTimersByTimeAsync(0);
      await recoverySuccess(recovery(inspect));
      // No 5 s wait: 'PIN guardado' leaves as the flow ends, before the patient can leave the page,
      // and on a keepalive request, which the browser completes even when the page is left.
      const posts = fetch.mock.calls.filter(([url]) => url === insightPaths.events);
      expect(posts.length).toBeGreaterThan(0);
      const sent = posts.flatMap(([, init]) => {
        expect(init!.keepalive).toBe(true);
        return (JSON.parse(init!.body as string) as { events: InsightEvent[] }).events;
      });
      expect(sent.map((e) => `${e.step}:${e.outcome}`)).toEqual(RECOVERY_SUCCESS_SEEN);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('events carry the page token; they wait for it, and a beacon without one drops them (issue 29 item 7)', async () => {
    const posts: Array<{ token?: string; events: InsightEvent[] }> = [];
    const beacons: string[] = [];
    let token: string | null = null;
    const s = createInsightSender({
      transport: {
        post: async (_url, batch) => void posts.push(batch as (typeof posts)[number]),
        beacon: (_url, body) => (beacons.push(body), true),
      },
      context,
      token: () => token,
      maxBatch: 2,
      flushMs: 5000,
    });
    s.add(event(0));
    s.add(event(1));
    await vi.advanceTimersByTimeAsync(5000);
    expect(posts).toEqual([]);
    expect(s.pending).toBe(2);
    token = 'issued';
    s.flush();
    expect(posts.map((p) => [p.token, p.events.length])).toEqual([['issued', 2]]);
    token = null;
    s.add(event(2));
    s.flush('beacon');
    expect(beacons).toEqual([]);
    expect(s.pending).toBe(0);
  });

  it('sends numbers within the catalogue: durations and attempts at most their caps, no event past a journey (issue 29 item 6)', () => {
    const posts: Array<{ events: InsightEvent[] }> = [];
    const s = createInsightSender({
      transport: { post: async (_url, batch) => void posts.push(batch as (typeof posts)[number]) },
      context,
      token: () => 't',
      maxBatch: 1,
    });
    s.add({ ...event(1), outcome: 'passed', durationMs: 5 * 3_600_000, attempt: 4000 });
    s.add(event(INSIGHT_MAX_EVENTS_PER_JOURNEY));
    expect(posts.map((p) => p.events)).toEqual([
      [{ ...event(1), outcome: 'passed', durationMs: INSIGHT_MAX_DURATION_MS, attempt: 100 }],
    ]);
    expect(
      insightBatch.safeParse({ token: 't', context: context(), events: posts[0]!.events }).success,
    ).toBe(true);
  });

  it('a rejected or throwing transport is swallowed; the batch is dropped', async () => {
    const s = createInsightSender({
      transport: {
        post: () => Promise.reject(new Error('offline')),
        beacon: () => {
          throw new Error('no beacon');
        },
      },
      context,
      maxBatch: 2,
    });
    expect(() => {
      s.add(event(0));
      s.add(event(1));
      s.add(event(2));
      s.flush('beacon');
    }).not.toThrow();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.pending).toBe(0);
  });

  it('coarse context: device, browser family, effective type; nothing else', () => {
    expect(
      coarseContext({
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; SM-A145M) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0 Mobile Safari/537.36',
        connection: { effectiveType: '3g' },
      }),
    ).toEqual({ device: 'mobile', browser: 'samsung', network: '3g' });
    expect(
      coarseContext({
        userAgent:
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      }),
    ).toEqual({ device: 'desktop', browser: 'safari' });
  });
});
