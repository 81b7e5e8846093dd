import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, waitFor, type AnyActorRef } from 'xstate';
import type {
  CaseDetail,
  ClaimResponse,
  DecisionResponse,
  EnrolOptionsResponse,
  LoginOptionsResponse,
  QueueResponse,
  SessionResponse,
} from '../../contract/operators';
import { caseMachine } from '../../machines/operators/case.machine';
import { deskMachine } from '../../machines/operators/desk.machine';
import { cardMissingCase } from '../../machines/operators/operators.fixtures';
import { operatorAuthMachine } from '../../machines/operators/operators.machine';
import { passkeyMachine } from '../../machines/operators/passkey.machine';
import {
  selectCase,
  selectCaseActor,
  selectCodeEntry,
  selectCorrection,
  selectDesk,
  selectEnrolment,
  selectLogin,
  selectOperatorScreen,
  selectQueue,
  selectQueueActor,
} from '../../machines/operators/operators.selectors';
import { formatCodeInput, queueMachine } from '../../machines/operators/queue.machine';
import type {
  Correction,
  DecisionRequest,
  LoadedCase,
} from '../../machines/operators/operators.types';
import type { FrameCaptureInput } from '../../machines/shared/frame-capture';
import type { CameraEvent } from '../../machines/shared/camera';
import {
  createCaseLoader,
  createDeskUploader,
  type DeskUpload,
} from '../../machines/operators/operators.actors';
import { ApiError } from '../../machines/shared/errors';
import { controlled } from './controlled';

const TOKEN = 'a'.repeat(43);
const operator = { usuario: 'ana', nombre: 'Ana Ruiz', rol: 'revisor' as const };
const session: SessionResponse = { success: true, operator };
const unauthorized = () => new ApiError('server', 401, 'Tu sesión terminó.');
const named = (name: string) => Object.assign(new Error(name), { name });

const detail = (over: Partial<CaseDetail> = {}): CaseDetail => ({
  id: 'c1',
  kind: 'review',
  status: 'open',
  trigger: 'face_mismatch',
  step: 'selfie',
  openedAt: '2026-11-26T05:00:00.000Z',
  fields: {
    FullName: 'MARÍA GONZÁLEZ',
    DocumentNumber: '1234567',
    DateOfBirth: '1990-01-02',
    Gender: 'F',
    Nationality: 'PRY',
    MaritalStatus: 'SOLTERA',
  },
  corrections: [],
  engineReasons: ['face_mismatch'],
  faceSimilarity: 0.41,
  faceThreshold: 0.6,
  attempts: { liveness: 1, scans: 2 },
  images: ['selfie', 'portrait', 'front', 'back'],
  approvals: [],
  needsSupervisor: false,
  claimedByMe: true,
  expiresAt: null,
  digest: 'a'.repeat(64),
  approvalRule: 'two',
  fieldOrigins: {
    FullName: 'read',
    DocumentNumber: 'read',
    DateOfBirth: 'read',
    Gender: 'read',
    Nationality: 'read',
    MaritalStatus: 'read',
  },
  ...over,
});

afterEach(() => vi.useRealTimers());

describe('formatCodeInput', () => {
  it('keeps the alphabet only, upper case, 8 characters, XXXX-XXXX as typed', () => {
    expect(formatCodeInput('ac')).toBe('AC');
    expect(formatCodeInput('acde')).toBe('ACDE');
    expect(formatCodeInput('acdef')).toBe('ACDE-F');
    expect(formatCodeInput('acde-fghj-kmn')).toBe('ACDE-FGHJ');
    // 0, O, 1, I, L, 2, Z, 5, S, 8, B are not in the alphabet
    expect(formatCodeInput('0O1IL2Z5S8B')).toBe('');
  });
});

// --- operatorAuth -------------------------------------------------------------------------

function startAuth(enrolToken: string | null = null) {
  const a = {
    fetchSession: controlled<SessionResponse, unknown>(),
    loginOptions: controlled<LoginOptionsResponse, unknown>(),
    // The passkey ceremony (the child `passkey`): the prompt and the verification, login or link.
    passkeyPrompt: controlled<
      Record<string, unknown>,
      { ceremony: 'login' | 'enrol'; options: Record<string, unknown> }
    >(),
    passkeyVerify: controlled<
      SessionResponse,
      { ceremony: 'login' | 'enrol'; key: string; credential: Record<string, unknown> }
    >(),
    enrolOptions: controlled<EnrolOptionsResponse, { token: string }>(),
    endSession: controlled<void, unknown>(),
  };
  const queue = {
    fetchQueue: controlled<QueueResponse, unknown>(),
    claimNext: controlled<ClaimResponse, unknown>(),
    lookupCode: controlled<string, { code: string }>(),
  };
  const kase = { loadCase: controlled<LoadedCase, { caseId: string }>() };
  const actor = createActor(
    operatorAuthMachine.provide({
      actors: {
        fetchSession: a.fetchSession.logic,
        passkey: passkeyMachine.provide({
          actors: {
            loginOptions: a.loginOptions.logic,
            passkeyPrompt: a.passkeyPrompt.logic,
            passkeyVerify: a.passkeyVerify.logic,
          },
        }),
        enrolOptions: a.enrolOptions.logic,
        endSession: a.endSession.logic,
        queue: queueMachine.provide({
          actors: {
            fetchQueue: queue.fetchQueue.logic,
            claimNext: queue.claimNext.logic,
            lookupCode: queue.lookupCode.logic,
          },
        }),
        case: caseMachine.provide({ actors: { loadCase: kase.loadCase.logic } }),
      },
    }),
    { input: { enrolToken } },
  ).start();
  return { actor, a, queue, kase };
}

/** The passkey child's state reached (the session's own state stays while the ceremony runs). */
const passkeyAt = (actor: AnyActorRef, state: 'prompting' | 'verifying') =>
  waitFor(actor.getSnapshot().children.passkey as AnyActorRef, (s) => s.matches(state));

const loginOptionsAnswer: LoginOptionsResponse = {
  success: true,
  challengeId: 'ch1',
  options: { challenge: 'xyz' },
};

describe('operatorAuth machine', () => {
  it('a live session goes straight to the desk (the queue)', async () => {
    const { actor, a } = startAuth();
    expect(selectOperatorScreen(actor.getSnapshot())).toBe('checking');
    a.fetchSession.calls[0]!.answer.resolve(session);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
    expect(actor.getSnapshot().context.operator).toEqual(operator);
    expect(selectQueueActor(actor.getSnapshot())).toBeDefined();
  });

  it('no session (401): the login; an unreachable server: the login with the error', async () => {
    const first = startAuth();
    first.a.fetchSession.calls[0]!.answer.reject(unauthorized());
    await waitFor(first.actor, (s) => s.matches({ loggedOut: 'idle' }));
    expect(selectLogin(first.actor.getSnapshot()).error).toBeNull();
    const second = startAuth();
    second.a.fetchSession.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(second.actor, (s) => s.matches({ loggedOut: 'failed' }));
    expect(selectLogin(second.actor.getSnapshot()).error).toEqual({ code: 'network' });
  });

  async function loggedOut() {
    const t = startAuth();
    t.a.fetchSession.calls[0]!.answer.reject(unauthorized());
    await waitFor(t.actor, (s) => s.matches({ loggedOut: 'idle' }));
    return t;
  }

  it('logs in with a passkey: options, the prompt with them, the verification with the challenge', async () => {
    const { actor, a } = await loggedOut();
    actor.send({ type: 'login.start' });
    expect(selectLogin(actor.getSnapshot()).busy).toBe(true);
    a.loginOptions.calls[0]!.answer.resolve(loginOptionsAnswer);
    await passkeyAt(actor, 'prompting');
    expect(a.passkeyPrompt.calls[0]!.input).toEqual({
      ceremony: 'login',
      options: { challenge: 'xyz' },
    });
    a.passkeyPrompt.calls[0]!.answer.resolve({ id: 'cred' });
    await passkeyAt(actor, 'verifying');
    expect(a.passkeyVerify.calls[0]!.input).toEqual({
      ceremony: 'login',
      key: 'ch1',
      credential: { id: 'cred' },
    });
    a.passkeyVerify.calls[0]!.answer.resolve(session);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
    // Nothing of the ceremony stays: its child is gone with its options and the credential.
    expect(actor.getSnapshot().context).toMatchObject({ operator, options: null });
    expect(actor.getSnapshot().children.passkey).toBeUndefined();
  });

  it.each([
    [
      'the operator closes the prompt (NotAllowedError)',
      'prompt',
      named('NotAllowedError'),
      'cancelled',
    ],
    ['a browser without passkeys', 'prompt', named('PasskeysUnsupported'), 'unsupported'],
    ['another authenticator failure', 'prompt', named('InvalidStateError'), 'passkeyFailed'],
    [
      'no answer for the options',
      'options',
      new ApiError('network', undefined, undefined),
      'network',
    ],
    ['the server refuses the passkey', 'verify', new ApiError('server', 400, 'No.'), 'rejected'],
  ] as const)('%s: back to the login with the code', async (_name, where, error, code) => {
    const { actor, a } = await loggedOut();
    actor.send({ type: 'login.start' });
    if (where === 'options') a.loginOptions.calls[0]!.answer.reject(error);
    else {
      a.loginOptions.calls[0]!.answer.resolve(loginOptionsAnswer);
      await passkeyAt(actor, 'prompting');
      if (where === 'prompt') a.passkeyPrompt.calls[0]!.answer.reject(error);
      else {
        a.passkeyPrompt.calls[0]!.answer.resolve({ id: 'cred' });
        await passkeyAt(actor, 'verifying');
        a.passkeyVerify.calls[0]!.answer.reject(error);
      }
    }
    await waitFor(actor, (s) => s.matches({ loggedOut: 'failed' }));
    expect(selectLogin(actor.getSnapshot()).error?.code).toBe(code);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    // and it can be tried again
    actor.send({ type: 'login.start' });
    expect(actor.getSnapshot().matches('authenticating')).toBe(true);
    expect(actor.getSnapshot().children.passkey?.getSnapshot().matches('options')).toBe(true);
  });

  it('an enrolment link: no session check; the operator named, the passkey created and registered', async () => {
    const { actor, a } = startAuth(TOKEN);
    expect(actor.getSnapshot().matches({ enrolment: 'loading' })).toBe(true);
    expect(a.fetchSession.calls).toHaveLength(0);
    expect(a.enrolOptions.calls[0]!.input).toEqual({ token: TOKEN });
    a.enrolOptions.calls[0]!.answer.resolve({ success: true, operator, options: { rp: 'x' } });
    await waitFor(actor, (s) => s.matches({ enrolment: 'ready' }));
    expect(selectEnrolment(actor.getSnapshot())).toMatchObject({ status: 'ready', operator });
    actor.send({ type: 'enrol.start' });
    expect(a.passkeyPrompt.calls[0]!.input).toEqual({ ceremony: 'enrol', options: { rp: 'x' } });
    // The link brings its options: none asked for.
    expect(a.loginOptions.calls).toHaveLength(0);
    a.passkeyPrompt.calls[0]!.answer.resolve({ id: 'new' });
    await passkeyAt(actor, 'verifying');
    expect(a.passkeyVerify.calls[0]!.input).toEqual({
      ceremony: 'enrol',
      key: TOKEN,
      credential: { id: 'new' },
    });
    a.passkeyVerify.calls[0]!.answer.resolve(session);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
    expect(actor.getSnapshot().context).toMatchObject({ enrolToken: null, operator });
  });

  it('a spent or expired link cannot be retried; the login is offered', async () => {
    const { actor, a } = startAuth(TOKEN);
    a.enrolOptions.calls[0]!.answer.reject(new ApiError('server', 410, 'El enlace venció.'));
    await waitFor(actor, (s) => s.matches({ enrolment: 'failed' }));
    expect(selectEnrolment(actor.getSnapshot())).toMatchObject({
      status: 'failed',
      error: { code: 'linkInvalid' },
      canRetry: false,
    });
    actor.send({ type: 'enrol.retry' });
    expect(actor.getSnapshot().matches({ enrolment: 'failed' })).toBe(true);
    actor.send({ type: 'login.start' });
    expect(actor.getSnapshot().matches('authenticating')).toBe(true);
    expect(actor.getSnapshot().context.enrolToken).toBeNull();
  });

  it('a cancelled creation can be retried with new options', async () => {
    const { actor, a } = startAuth(TOKEN);
    a.enrolOptions.calls[0]!.answer.resolve({ success: true, operator, options: { rp: 'x' } });
    await waitFor(actor, (s) => s.matches({ enrolment: 'ready' }));
    actor.send({ type: 'enrol.start' });
    a.passkeyPrompt.calls[0]!.answer.reject(named('NotAllowedError'));
    await waitFor(actor, (s) => s.matches({ enrolment: 'failed' }));
    expect(selectEnrolment(actor.getSnapshot())).toMatchObject({
      error: { code: 'cancelled' },
      canRetry: true,
    });
    actor.send({ type: 'enrol.retry' });
    expect(actor.getSnapshot().matches({ enrolment: 'loading' })).toBe(true);
    expect(a.enrolOptions.calls).toHaveLength(2);
  });

  it.each([
    [410, 'linkInvalid', false],
    [400, 'rejected', true],
  ] as const)('a refused registration (%i): %s, retry %s', async (status, code, canRetry) => {
    const { actor, a } = startAuth(TOKEN);
    a.enrolOptions.calls[0]!.answer.resolve({ success: true, operator, options: { rp: 'x' } });
    await waitFor(actor, (s) => s.matches({ enrolment: 'ready' }));
    actor.send({ type: 'enrol.start' });
    a.passkeyPrompt.calls[0]!.answer.resolve({ id: 'new' });
    await passkeyAt(actor, 'verifying');
    a.passkeyVerify.calls[0]!.answer.reject(new ApiError('server', status, undefined));
    await waitFor(actor, (s) => s.matches({ enrolment: 'failed' }));
    expect(selectEnrolment(actor.getSnapshot())).toMatchObject({ error: { code }, canRetry });
  });

  it('a 401 in the queue ends the desk: the login with the notice', async () => {
    const { actor, a, queue } = startAuth();
    a.fetchSession.calls[0]!.answer.resolve(session);
    await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
    queue.fetchQueue.calls[0]!.answer.reject(unauthorized());
    await waitFor(actor, (s) => s.matches({ loggedOut: 'idle' }));
    expect(selectLogin(actor.getSnapshot()).notice).toBe('sessionExpired');
    expect(actor.getSnapshot().context.operator).toBeNull();
  });

  /** Logged in, the queue loaded, 'Tomar el siguiente' answered with case c1. */
  async function atClaimedCase() {
    const t = startAuth();
    t.a.fetchSession.calls[0]!.answer.resolve(session);
    await waitFor(t.actor, (s) => s.matches({ loggedIn: 'queue' }));
    t.queue.fetchQueue.calls[0]!.answer.resolve({ success: true, cases: [], total: 0 });
    const q = selectQueueActor(t.actor.getSnapshot()) as AnyActorRef;
    await waitFor(q, (s) => s.matches('showing'));
    q.send({ type: 'queue.claim' });
    t.queue.claimNext.calls[0]!.answer.resolve({ success: true, caseId: 'c1' });
    await waitFor(t.actor, (s) => s.matches({ loggedIn: 'case' }));
    return t;
  }

  it('a claimed case opens as the child `case`; closing it goes back to a fresh queue', async () => {
    const { actor, queue, kase } = await atClaimedCase();
    expect(kase.loadCase.calls[0]!.input).toEqual({ caseId: 'c1' });
    kase.loadCase.calls[0]!.answer.resolve({ detail: detail(), images: {} });
    const c = selectCaseActor(actor.getSnapshot()) as AnyActorRef;
    await waitFor(c, (s) => s.matches('reviewing'));
    c.send({ type: 'case.close' });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
    expect(queue.fetchQueue.calls).toHaveLength(2);
    expect(actor.getSnapshot().context.caseId).toBeNull();
  });

  it('a 401 in the case ends the desk too', async () => {
    const { actor, kase } = await atClaimedCase();
    kase.loadCase.calls[0]!.answer.reject(unauthorized());
    await waitFor(actor, (s) => s.matches({ loggedOut: 'idle' }));
    expect(actor.getSnapshot().context.notice).toBe('sessionExpired');
  });

  it('logs out: the login with its notice, whatever the server answers', async () => {
    for (const fail of [false, true]) {
      const { actor, a } = startAuth();
      a.fetchSession.calls[0]!.answer.resolve(session);
      await waitFor(actor, (s) => s.matches({ loggedIn: 'queue' }));
      actor.send({ type: 'session.logout' });
      expect(actor.getSnapshot().matches({ loggedIn: 'loggingOut' })).toBe(true);
      if (fail) a.endSession.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
      else a.endSession.calls[0]!.answer.resolve();
      await waitFor(actor, (s) => s.matches({ loggedOut: 'idle' }));
      expect(actor.getSnapshot().context).toMatchObject({ operator: null, notice: 'loggedOut' });
    }
  });
});

// --- operatorQueue ------------------------------------------------------------------------

function startQueue() {
  const q = {
    fetchQueue: controlled<QueueResponse, unknown>(),
    claimNext: controlled<ClaimResponse, unknown>(),
    lookupCode: controlled<string, { code: string }>(),
  };
  const actor = createActor(
    queueMachine.provide({
      actors: {
        fetchQueue: q.fetchQueue.logic,
        claimNext: q.claimNext.logic,
        lookupCode: q.lookupCode.logic,
      },
    }),
  ).start();
  return { actor, q };
}
const queued = {
  id: 'c1',
  kind: 'review' as const,
  trigger: 'face_mismatch' as const,
  openedAt: '2026-11-26T05:00:00.000Z',
  needsSupervisor: true,
};

describe('operatorQueue machine', () => {
  it('loads the list with the total and each age', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T06:30:00.000Z'));
    const { actor, q } = startQueue();
    expect(selectQueue(actor.getSnapshot()).status).toBe('loading');
    q.fetchQueue.calls[0]!.answer.resolve({ success: true, cases: [queued], total: 7 });
    await waitFor(actor, (s) => s.matches({ showing: 'list' }));
    const view = selectQueue(actor.getSnapshot());
    expect(view.total).toBe(7);
    expect(view.cases[0]).toMatchObject({ id: 'c1', ageMinutes: 90, needsSupervisor: true });
  });

  it('a failed load says so and can be tried again', async () => {
    const { actor, q } = startQueue();
    q.fetchQueue.calls[0]!.answer.reject(new ApiError('server', 500, undefined));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectQueue(actor.getSnapshot()).error).toEqual({ code: 'server' });
    actor.send({ type: 'queue.refresh' });
    expect(q.fetchQueue.calls).toHaveLength(2);
  });

  it("'Tomar el siguiente': the case taken ends the queue with it; nothing to take says so", async () => {
    const { actor, q } = startQueue();
    q.fetchQueue.calls[0]!.answer.resolve({ success: true, cases: [], total: 0 });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'queue.claim' });
    expect(selectQueue(actor.getSnapshot()).status).toBe('claiming');
    q.claimNext.calls[0]!.answer.resolve({ success: true, caseId: null });
    await waitFor(actor, (s) => s.matches({ showing: 'nothingToTake' }));
    expect(selectQueue(actor.getSnapshot()).nothingToTake).toBe(true);
    actor.send({ type: 'queue.claim' });
    q.claimNext.calls[1]!.answer.resolve({ success: true, caseId: 'c9' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ caseId: 'c9', expired: false });
  });

  it('a failed claim goes to failed; a 401 ends the queue as expired', async () => {
    const { actor, q } = startQueue();
    q.fetchQueue.calls[0]!.answer.resolve({ success: true, cases: [], total: 0 });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'queue.claim' });
    q.claimNext.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'queue.refresh' });
    q.fetchQueue.calls[1]!.answer.reject(unauthorized());
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ caseId: null, expired: true });
  });

  async function atCode() {
    const t = startQueue();
    t.q.fetchQueue.calls[0]!.answer.resolve({ success: true, cases: [], total: 0 });
    await waitFor(t.actor, (s) => s.matches('showing'));
    t.actor.send({ type: 'code.open' });
    return t;
  }

  it("'Buscar por código': formats as typed, refuses an incomplete code, looks up the normalised one", async () => {
    const { actor, q } = await atCode();
    actor.send({ type: 'code.change', value: 'acde' });
    actor.send({ type: 'code.submit' });
    expect(selectCodeEntry(actor.getSnapshot()).status).toBe('incomplete');
    expect(q.lookupCode.calls).toHaveLength(0);
    actor.send({ type: 'code.change', value: 'acdefghj' });
    expect(selectCodeEntry(actor.getSnapshot())).toMatchObject({
      status: 'editing',
      code: 'ACDE-FGHJ',
    });
    actor.send({ type: 'code.submit' });
    expect(q.lookupCode.calls[0]!.input).toEqual({ code: 'ACDEFGHJ' });
    q.lookupCode.calls[0]!.answer.resolve('c4');
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ caseId: 'c4', expired: false });
  });

  it('an unknown code says so and can be corrected; cancel goes back to the list', async () => {
    const { actor, q } = await atCode();
    actor.send({ type: 'code.change', value: 'ACDEFGHJ' });
    actor.send({ type: 'code.submit' });
    q.lookupCode.calls[0]!.answer.reject(
      new ApiError('server', 404, 'No hay un caso con ese código.'),
    );
    await waitFor(actor, (s) => s.matches({ code: 'failed' }));
    expect(selectCodeEntry(actor.getSnapshot()).error?.code).toBe('notFound');
    actor.send({ type: 'code.change', value: 'ACDEFGHK' });
    expect(actor.getSnapshot().matches({ code: 'editing' })).toBe(true);
    actor.send({ type: 'code.cancel' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
  });

  it('429: the wait is shown, submitting is blocked until Retry-After has passed', async () => {
    vi.useFakeTimers();
    const { actor, q } = await atCode();
    actor.send({ type: 'code.change', value: 'ACDEFGHJ' });
    actor.send({ type: 'code.submit' });
    q.lookupCode.calls[0]!.answer.reject(new ApiError('tooManyAttempts', 429, undefined, 20));
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ code: 'limited' })).toBe(true));
    expect(selectCodeEntry(actor.getSnapshot())).toMatchObject({
      status: 'limited',
      canSubmit: false,
      error: { code: 'tooManyAttempts', retryAfterSeconds: 20 },
    });
    actor.send({ type: 'code.submit' });
    expect(q.lookupCode.calls).toHaveLength(1);
    vi.advanceTimersByTime(19_000);
    expect(actor.getSnapshot().matches({ code: 'limited' })).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(actor.getSnapshot().matches({ code: 'editing' })).toBe(true);
  });
});

// --- operatorCase -------------------------------------------------------------------------

function startCase(over: Partial<CaseDetail> = {}) {
  const c = {
    loadCase: controlled<LoadedCase, { caseId: string }>(),
    saveCorrection: controlled<CaseDetail, { caseId: string; correction: Correction }>(),
    decide: controlled<DecisionResponse, { caseId: string; decision: DecisionRequest }>(),
    releaseCase: controlled<void, { caseId: string }>(),
    frameCapture: controlled<Blob, FrameCaptureInput>(),
    uploadDeskPhoto: controlled<DeskUpload, { caseId: string; photo: Blob }>(),
  };
  // The desk camera (the child `desk`'s own camera): what it was asked, and what it says.
  const camera = {
    started: 0,
    stopped: 0,
    retried: 0,
    send: (() => {}) as (event: CameraEvent) => void,
  };
  const actor = createActor(
    caseMachine.provide({
      actors: {
        loadCase: c.loadCase.logic,
        saveCorrection: c.saveCorrection.logic,
        decide: c.decide.logic,
        releaseCase: c.releaseCase.logic,
        uploadDeskPhoto: c.uploadDeskPhoto.logic,
        desk: deskMachine.provide({
          actors: {
            frameCapture: c.frameCapture.logic,
            camera: fromCallback(({ receive, sendBack }) => {
              camera.started++;
              camera.send = sendBack;
              receive(() => camera.retried++);
              return () => camera.stopped++;
            }),
          },
        }),
      },
    }),
    { input: { caseId: 'c1' } },
  ).start();
  const loaded = async () => {
    c.loadCase.calls[0]!.answer.resolve({ detail: detail(over), images: { selfie: 'blob:1' } });
    await waitFor(actor, (s) => s.matches({ reviewing: 'idle' }));
  };
  return { actor, c, camera, loaded };
}

describe('operatorCase machine', () => {
  it('loads the case and its images, shows similarity and threshold as percentages', async () => {
    const { actor, c, loaded } = startCase();
    expect(selectCase(actor.getSnapshot()).status).toBe('loading');
    expect(c.loadCase.calls[0]!.input).toEqual({ caseId: 'c1' });
    await loaded();
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      status: 'reviewing',
      panel: 'none',
      images: { selfie: 'blob:1' },
      similarityPercent: 41,
      thresholdPercent: 60,
      canDecide: true,
      canApprove: true,
      needsDeskPhoto: false,
    });
  });

  it('a failed load can be retried or left; a 401 ends the case as expired', async () => {
    const { actor, c } = startCase();
    c.loadCase.calls[0]!.answer.reject(new ApiError('server', 403, undefined));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectCase(actor.getSnapshot()).error).toEqual({ code: 'forbidden' });
    actor.send({ type: 'case.retry' });
    c.loadCase.calls[1]!.answer.reject(unauthorized());
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ caseId: null, expired: true });
  });

  it('a case not claimed by this operator is read-only', async () => {
    const { actor, loaded } = startCase({ claimedByMe: false });
    await loaded();
    for (const type of ['approve.start', 'reject.start', 'repeat.start', 'case.release'] as const) {
      actor.send({ type });
      expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
    }
    actor.send({ type: 'field.edit', field: 'FullName' });
    expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
  });

  it("'Corregir' needs a new value and a reason; saving reads the case again", async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'field.edit', field: 'FullName' });
    expect(actor.getSnapshot().context.correction).toEqual({
      field: 'FullName',
      value: 'MARÍA GONZÁLEZ',
      reason: '',
    });
    actor.send({ type: 'correction.submit' });
    expect(selectCorrection(actor.getSnapshot())).toMatchObject({
      incomplete: true,
      problem: 'unchanged',
    });
    actor.send({ type: 'correction.change', value: 'MARÍA GONZÁLES' });
    actor.send({ type: 'correction.submit' });
    expect(selectCorrection(actor.getSnapshot()).incomplete).toBe(true);
    expect(selectCorrection(actor.getSnapshot()).problem).toBe('reason');
    actor.send({ type: 'correction.change', reason: ' Así figura en la cédula ' });
    actor.send({ type: 'correction.submit' });
    expect(c.saveCorrection.calls[0]!.input).toEqual({
      caseId: 'c1',
      correction: { field: 'FullName', value: 'MARÍA GONZÁLES', reason: 'Así figura en la cédula' },
    });
    c.saveCorrection.calls[0]!.answer.resolve(
      detail({ fields: { ...detail().fields, FullName: 'MARÍA GONZÁLES' } }),
    );
    await waitFor(actor, (s) => s.matches({ reviewing: 'idle' }));
    expect(actor.getSnapshot().context.detail?.fields.FullName).toBe('MARÍA GONZÁLES');
    expect(actor.getSnapshot().context.correction).toBeNull();
  });

  it("the value by its field's rule, the server's: digits for the number, the card's date, lists", async () => {
    const { actor, c, loaded } = startCase({
      fields: { ...detail().fields, Nationality: 'PRY' },
    });
    await loaded();
    const problem = (field: Correction['field'], value: string) => {
      actor.send({ type: 'field.edit', field });
      actor.send({ type: 'correction.change', value, reason: 'Así figura en la cédula' });
      actor.send({ type: 'correction.submit' });
      const p = selectCorrection(actor.getSnapshot()).problem;
      actor.send({ type: 'action.cancel' });
      return p;
    };
    expect(problem('DocumentNumber', 'ABC')).toBe('value');
    expect(problem('DocumentNumber', '1'.repeat(120))).toBe('value');
    expect(problem('DocumentNumber', '1.234.568')).toBe('value');
    expect(problem('DateOfBirth', '31/02/1990')).toBe('value');
    // The same date written as the card prints it is no change.
    expect(problem('DateOfBirth', '02/01/1990')).toBe('unchanged');
    expect(problem('Gender', 'Q')).toBe('value');
    expect(problem('FullName', 'MARÍA 2')).toBe('value');
    expect(c.saveCorrection.calls).toHaveLength(0);
    // A list starts at the current value when it holds it, else at nothing to pick.
    actor.send({ type: 'field.edit', field: 'Nationality' });
    expect(selectCorrection(actor.getSnapshot())).toMatchObject({
      input: 'choice',
      correction: { value: '' },
    });
    expect(selectCorrection(actor.getSnapshot()).choices).toContain('PARAGUAYA');
    actor.send({ type: 'action.cancel' });
    actor.send({ type: 'field.edit', field: 'DateOfBirth' });
    expect(selectCorrection(actor.getSnapshot())).toMatchObject({
      input: 'date',
      correction: { value: '02/01/1990' },
    });
    actor.send({ type: 'correction.change', value: '14/05/1990', reason: 'La cédula dice 14' });
    actor.send({ type: 'correction.submit' });
    expect(c.saveCorrection.calls[0]!.input.correction).toMatchObject({ value: '14/05/1990' });
    // The server refuses (400): the form stays and says why; a change edits again.
    c.saveCorrection.calls[0]!.answer.reject(
      new ApiError('server', 400, 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.'),
    );
    await waitFor(actor, (s) => selectCorrection(s).refusal !== null);
    expect(selectCorrection(actor.getSnapshot()).refusal).toEqual({
      code: 'server',
      serverMessage: 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.',
    });
    expect(selectCase(actor.getSnapshot()).error).toBeNull();
    actor.send({ type: 'correction.change', value: '15/05/1990' });
    const form = actor.getSnapshot().children.correction?.getSnapshot();
    expect(form?.matches('editing')).toBe(true);
  });

  it('a failed save is said in the review; cancel drops the draft', async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'field.edit', field: 'Gender' });
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().context.correction).toBeNull();
    actor.send({ type: 'field.edit', field: 'Gender' });
    actor.send({ type: 'correction.change', value: 'M', reason: 'Error de lectura' });
    actor.send({ type: 'correction.submit' });
    c.saveCorrection.calls[0]!.answer.reject(new ApiError('server', 409, 'Otro operador decidió.'));
    await waitFor(actor, (s) => s.matches({ reviewing: 'failed' }));
    expect(selectCase(actor.getSnapshot()).error).toEqual({
      code: 'conflict',
      serverMessage: 'Otro operador decidió.',
    });
  });

  it("'Aprobar' asks to confirm, then decides; the outcome may await a supervisor", async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'approve.start' });
    expect(selectCase(actor.getSnapshot()).panel).toBe('confirmingApproval');
    actor.send({ type: 'action.cancel' });
    expect(selectCase(actor.getSnapshot()).panel).toBe('none');
    actor.send({ type: 'approve.start' });
    actor.send({ type: 'approve.confirm' });
    expect(selectCase(actor.getSnapshot()).status).toBe('deciding');
    expect(c.decide.calls[0]!.input).toEqual({
      caseId: 'c1',
      decision: { decision: 'approve', digest: 'a'.repeat(64) },
    });
    c.decide.calls[0]!.answer.resolve({ success: true, outcome: 'awaiting_supervisor' });
    await waitFor(actor, (s) => s.matches('decided'));
    expect(selectCase(actor.getSnapshot()).outcome).toBe('awaiting_supervisor');
    actor.send({ type: 'case.close' });
    expect(actor.getSnapshot().output).toEqual({ caseId: null, expired: false });
  });

  it('an approval of a case that changed since it was shown: read again, said, and approved as it is now', async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'approve.start' });
    actor.send({ type: 'approve.confirm' });
    const changed =
      'El caso cambió desde que lo abriste (una corrección o una foto nueva). Revisalo de nuevo antes de aprobar.';
    c.decide.calls[0]!.answer.reject(
      new ApiError('server', 409, changed, undefined, 'case_changed'),
    );
    await waitFor(actor, (s) => s.matches('loading'));
    c.loadCase.calls[1]!.answer.resolve({
      detail: detail({ digest: 'b'.repeat(64), approvals: [] }),
      images: { selfie: 'blob:2' },
    });
    await waitFor(actor, (s) => s.matches({ reviewing: 'failed' }));
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      error: { code: 'caseChanged', serverMessage: changed },
      version: 'BBBB-BBBB',
      canApprove: true,
    });
    actor.send({ type: 'approve.start' });
    actor.send({ type: 'approve.confirm' });
    expect(c.decide.calls[1]!.input.decision).toEqual({
      decision: 'approve',
      digest: 'b'.repeat(64),
    });
  });

  it('a remote case where nobody saw a card cannot be approved here; typed fields are named', async () => {
    const { actor, loaded } = startCase({ ...cardMissingCase, id: 'c1' });
    await loaded();
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      canApprove: false,
      needsCard: true,
      typedFields: ['FullName', 'DocumentNumber'],
    });
    actor.send({ type: 'approve.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
    actor.send({ type: 'repeat.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'repeating' })).toBe(true);
  });

  it("'Rechazar' needs a reason from the list; the note is optional and trimmed", async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'reject.start' });
    actor.send({ type: 'reject.confirm' });
    expect(actor.getSnapshot().matches({ reviewing: 'rejecting' })).toBe(true);
    actor.send({ type: 'reject.change', reason: 'faces_differ' });
    actor.send({ type: 'reject.change', note: '  otra persona ' });
    actor.send({ type: 'reject.confirm' });
    expect(c.decide.calls[0]!.input).toEqual({
      caseId: 'c1',
      decision: { decision: 'reject', reason: 'faces_differ', note: 'otra persona' },
    });
    c.decide.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(actor, (s) => s.matches({ reviewing: 'failed' }));
    expect(selectCase(actor.getSnapshot()).error).toEqual({ code: 'network' });
  });

  it("'Pedir que repita' names one step", async () => {
    const { actor, c, loaded } = startCase();
    await loaded();
    actor.send({ type: 'repeat.start' });
    actor.send({ type: 'repeat.confirm' });
    expect(actor.getSnapshot().matches({ reviewing: 'repeating' })).toBe(true);
    actor.send({ type: 'repeat.choose', step: 'front' });
    actor.send({ type: 'repeat.confirm' });
    expect(c.decide.calls[0]!.input).toEqual({
      caseId: 'c1',
      decision: { decision: 'repeat', step: 'front' },
    });
    c.decide.calls[0]!.answer.resolve({ success: true, outcome: 'repeat' });
    await waitFor(actor, (s) => s.matches('decided'));
  });

  it("'Soltar' releases the claim and ends the case; a failure stays in the review", async () => {
    const first = startCase();
    await first.loaded();
    first.actor.send({ type: 'case.release' });
    expect(first.c.releaseCase.calls[0]!.input).toEqual({ caseId: 'c1' });
    first.c.releaseCase.calls[0]!.answer.resolve();
    await waitFor(first.actor, (s) => s.status === 'done');
    const second = startCase();
    await second.loaded();
    second.actor.send({ type: 'case.release' });
    second.c.releaseCase.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await waitFor(second.actor, (s) => s.matches({ reviewing: 'failed' }));
  });

  it('a centro case: no approval before the desk photo; the photo taken, uploaded, its match shown', async () => {
    const { actor, c, camera, loaded } = startCase({
      kind: 'centro',
      trigger: 'no_camera',
      approvalRule: 'one',
    });
    await loaded();
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      canApprove: false,
      needsDeskPhoto: true,
    });
    actor.send({ type: 'approve.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
    actor.send({ type: 'desk.start' });
    expect(camera.started).toBe(1);
    expect(selectDesk(actor.getSnapshot()).camera).toBe('opening');
    actor.send({ type: 'desk.capture' });
    expect(c.frameCapture.calls).toHaveLength(0);
    const stream = {} as MediaStream;
    camera.send({ type: 'camera.ready', stream });
    expect(selectDesk(actor.getSnapshot())).toMatchObject({ camera: 'live', canCapture: true });
    actor.send({ type: 'desk.capture' });
    expect(c.frameCapture.calls[0]!.input).toMatchObject({ stream });
    const photo = new Blob(['jpeg'], { type: 'image/jpeg' });
    c.frameCapture.calls[0]!.answer.resolve(photo);
    await waitFor(actor, (s) => s.matches({ reviewing: 'uploading' }));
    expect(camera.stopped).toBe(1);
    expect(c.uploadDeskPhoto.calls[0]!.input).toEqual({ caseId: 'c1', photo });
    c.uploadDeskPhoto.calls[0]!.answer.resolve({
      success: true,
      faceSimilarity: 0.72,
      faceThreshold: 0.6,
      url: 'blob:desk',
      // the case read again: the new face changed its digest
      detail: detail({
        kind: 'centro',
        trigger: 'no_camera',
        approvalRule: 'one',
        digest: 'c'.repeat(64),
        images: ['selfie', 'portrait', 'front', 'back', 'desk'],
      }),
    });
    await waitFor(actor, (s) => s.matches({ reviewing: 'idle' }));
    expect(selectDesk(actor.getSnapshot()).match).toEqual({
      similarityPercent: 72,
      thresholdPercent: 60,
      above: true,
    });
    expect(actor.getSnapshot().context.deskPhoto).toBeNull();
    expect(selectCase(actor.getSnapshot()).images).toMatchObject({
      selfie: 'blob:1',
      desk: 'blob:desk',
    });
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      canApprove: true,
      needsDeskPhoto: false,
      version: 'CCCC-CCCC',
    });
  });

  it('the desk camera: a failure can be retried; cancel closes it; a failed upload is said', async () => {
    const { actor, c, camera, loaded } = startCase({ kind: 'centro' });
    await loaded();
    actor.send({ type: 'desk.start' });
    camera.send({ type: 'camera.error', code: 'permissionDenied' });
    expect(selectDesk(actor.getSnapshot())).toMatchObject({
      camera: 'failed',
      cameraError: 'permissionDenied',
    });
    actor.send({ type: 'camera.retry' });
    expect(camera.retried).toBe(1);
    actor.send({ type: 'action.cancel' });
    expect(camera.stopped).toBe(1);
    actor.send({ type: 'desk.start' });
    camera.send({ type: 'camera.ready', stream: {} as MediaStream });
    actor.send({ type: 'desk.capture' });
    c.frameCapture.calls[0]!.answer.resolve(new Blob(['x'], { type: 'image/jpeg' }));
    await waitFor(actor, (s) => s.matches({ reviewing: 'uploading' }));
    c.uploadDeskPhoto.calls[0]!.answer.reject(new ApiError('server', 422, 'No se ve una cara.'));
    await waitFor(actor, (s) => s.matches({ reviewing: 'failed' }));
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      canApprove: false,
      error: { code: 'server', serverMessage: 'No se ve una cara.' },
    });
  });

  it('the images are revoked when the case ends (back to the queue, or the desk stopped)', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    try {
      const first = startCase();
      await first.loaded();
      expect(revoke).not.toHaveBeenCalled();
      first.actor.send({ type: 'case.close' });
      expect(revoke).toHaveBeenCalledWith('blob:1');
      revoke.mockClear();
      const second = startCase();
      await second.loaded();
      second.actor.stop();
      expect(revoke).toHaveBeenCalledWith('blob:1');
    } finally {
      revoke.mockRestore();
    }
  });
});

describe('the case loader', () => {
  it('fetches the detail, then each image alone; an image that fails is left out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/casos/c1'))
          return new Response(JSON.stringify({ success: true, case: detail() }), { status: 200 });
        if (url.endsWith('/imagen/back')) return new Response('{}', { status: 404 });
        return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }), { status: 200 });
      }),
    );
    try {
      const created: string[] = [];
      const loader = createCaseLoader({
        create: () => {
          created.push(`blob:${created.length}`);
          return created.at(-1)!;
        },
        revoke: () => {},
      });
      const actor = createActor(loader, { input: { caseId: 'c1' } }).start();
      const out = await new Promise<LoadedCase>((resolve, reject) =>
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output!), error: reject }),
      );
      expect(Object.keys(out.images).sort()).toEqual(['front', 'portrait', 'selfie']);
      expect(created).toHaveLength(3);
      const calls = (fetch as unknown as { mock: { calls: [string][] } }).mock.calls.map(
        (c) => c[0],
      );
      expect(calls).toEqual(
        expect.arrayContaining([
          '/api/operador/casos/c1',
          '/api/operador/casos/c1/imagen/selfie',
          '/api/operador/casos/c1/imagen/back',
        ]),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the desk photo upload', () => {
  it('posts the JPEG as it is and answers the match with the photo as an object URL and the case read again', async () => {
    const fetch = vi.fn(async (url: string) =>
      url.endsWith('/foto')
        ? new Response(JSON.stringify({ success: true, faceSimilarity: 0.7, faceThreshold: 0.6 }), {
            status: 200,
          })
        : new Response(JSON.stringify({ success: true, case: detail() }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    try {
      const photo = new Blob(['jpeg'], { type: 'image/jpeg' });
      const upload = createDeskUploader({ create: () => 'blob:desk', revoke: () => {} });
      const actor = createActor(upload, { input: { caseId: 'c 1', photo } }).start();
      const out = await new Promise<DeskUpload>((resolve, reject) =>
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output!), error: reject }),
      );
      expect(out).toEqual({
        success: true,
        faceSimilarity: 0.7,
        faceThreshold: 0.6,
        url: 'blob:desk',
        detail: detail(),
      });
      const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
      expect(fetch.mock.calls[1]![0]).toBe('/api/operador/casos/c%201');
      expect(url).toBe('/api/operador/casos/c%201/foto');
      expect(init.method).toBe('POST');
      expect(init.body).toBe(photo);
      expect((init.headers as Record<string, string>)['content-type']).toBe('image/jpeg');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
