import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { FaceLoginFrameResponse, FaceLoginStartResponse } from '../../contract/face-login';
import {
  createWatchdog,
  type FramePollingInput,
} from '../../machines/face-login/face-login.actors';
import { attemptMachine } from '../../machines/face-login/attempt.machine';
import { faceLoginMachine } from '../../machines/face-login/face-login.machine';
import {
  FAILURE_COOLDOWN_MS,
  SUCCESS_COOLDOWN_MS,
} from '../../machines/face-login/face-login.setup';
import {
  selectFaceLoginView,
  selectKioskView,
} from '../../machines/face-login/face-login.selectors';
import type { AttemptReport, FaceLoginInput } from '../../machines/face-login/face-login.types';
import { ApiError } from '../../machines/shared/errors';
import { controlled } from './controlled';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const stream = { id: 'stream' } as unknown as MediaStream;
const video = { id: 'video' } as unknown as HTMLVideoElement;
const started = (id: string, interval = 300): FaceLoginStartResponse => ({
  success: true,
  session_id: id,
  recommended_interval_ms: interval,
  profile: 'kiosk',
});
const liveness = (feedback: string[], interval = 300): FaceLoginFrameResponse => ({
  stage: 'liveness',
  feedback,
  recommended_interval_ms: interval,
  result: null,
});
const recognised: FaceLoginFrameResponse = {
  stage: 'authenticated',
  feedback: ['¡Listo!'],
  recommended_interval_ms: 300,
  result: {
    success: true,
    message: 'Identidad verificada.',
    user: {
      full_name: 'EILEEN COLLINS',
      given_names: 'EILEEN',
      document_number: '4321987',
      face_match_confidence: 0.93,
    },
    authentication: { confidence: 0.93, threshold_used: 0.7 },
  },
};
const notRecognised: FaceLoginFrameResponse = {
  stage: 'failed',
  feedback: [],
  recommended_interval_ms: 300,
  result: {
    success: false,
    message: 'No reconocido',
    user: null,
    authentication: { confidence: null, threshold_used: 0.7 },
  },
};

/** The machine with every collaborator under the test's hand. */
function harness(input: FaceLoginInput = {}, permission: PermissionState | 'unknown' = 'prompt') {
  const start = controlled<FaceLoginStartResponse, { prefix: string }>();
  const activate = controlled<
    { success: true; message: string; device: string },
    { token: string }
  >();
  const stops: Array<string | null> = [];
  const polls: Array<{ input: FramePollingInput; send: (e: unknown) => void; stopped: boolean }> =
    [];
  const cameras: Array<{ send: (e: unknown) => void; stopped: boolean }> = [];
  const watchdogs: Array<{ send: (e: unknown) => void; stopped: boolean }> = [];
  const attempt = attemptMachine.provide({
    actors: {
      startSession: start.logic,
      framePolling: fromCallback(({ input, sendBack }) => {
        const p = {
          input: input as FramePollingInput,
          send: sendBack as (e: unknown) => void,
          stopped: false,
        };
        polls.push(p);
        return () => (p.stopped = true);
      }),
    },
  });
  const machine = faceLoginMachine.provide({
    actors: {
      attempt,
      activateDevice: activate.logic,
      cameraPermission: fromPromise(async () => permission),
      stopSession: fromPromise(
        async ({ input }: { input: { prefix: string; sessionId: string | null } }) => {
          if (input.sessionId) stops.push(input.sessionId);
        },
      ),
      camera: fromCallback(({ sendBack }) => {
        const c = { send: sendBack as (e: unknown) => void, stopped: false };
        cameras.push(c);
        return () => (c.stopped = true);
      }),
      cameraWatchdog: fromCallback(({ sendBack }) => {
        const w = { send: sendBack as (e: unknown) => void, stopped: false };
        watchdogs.push(w);
        return () => (w.stopped = true);
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  const view = () => selectFaceLoginView(actor.getSnapshot());
  /** 'Habilitar cámara', the camera opens, the watchdog's video plays. */
  const openCamera = async () => {
    actor.send({ type: 'camera.enable' });
    cameras.at(-1)!.send({ type: 'camera.ready', stream });
    watchdogs.at(-1)!.send({ type: 'video.ready', video });
    await vi.advanceTimersByTimeAsync(0);
  };
  const answer = async (r: FaceLoginFrameResponse) => {
    polls.at(-1)!.send({ type: 'poll.result', result: r });
    await vi.advanceTimersByTimeAsync(0);
  };
  return { actor, view, start, activate, stops, polls, cameras, watchdogs, openCamera, answer };
}
const value = (a: AnyActorRef) => a.getSnapshot().value;

describe('faceLogin machine: camera', () => {
  it('stays off until "Habilitar cámara"; opens the front camera, 640x480', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    expect(value(h.actor)).toMatchObject({ camera: { off: 'idle' }, auth: { manual: 'idle' } });
    expect(h.cameras).toHaveLength(0);
    expect(h.view().canStart).toBe(false);
    await h.openCamera();
    expect(value(h.actor)).toMatchObject({ camera: { on: 'live' } });
    expect(h.view()).toMatchObject({ camera: 'live', canStart: true });
  });

  it('a kiosk whose browser already allows the camera starts by itself (a reload, a power cut)', async () => {
    const h = harness({ mode: 'kiosk' }, 'granted');
    await vi.advanceTimersByTimeAsync(0);
    expect(value(h.actor)).toMatchObject({ camera: { on: 'opening' }, auth: { kiosk: 'waiting' } });
    expect(h.cameras).toHaveLength(1);
    h.cameras[0]!.send({ type: 'camera.ready', stream });
    h.watchdogs.at(-1)!.send({ type: 'video.ready', video });
    await vi.advanceTimersByTimeAsync(0);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: { attempt: 'starting' } } });
    expect(h.start.calls).toHaveLength(1);
  });

  it.each([
    ['manual mode with the camera allowed', {}, 'granted'],
    ['a kiosk whose browser would ask', { mode: 'kiosk' }, 'prompt'],
    ['a kiosk whose browser has no Permissions API', { mode: 'kiosk' }, 'unknown'],
  ] as const)('%s waits for "Habilitar cámara"', async (_l, input, permission) => {
    const h = harness(input, permission);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.cameras).toHaveLength(0);
    expect(h.view().camera).toBe('off');
    expect(h.view().canEnableCamera).toBe(true);
  });

  it('manual mode with the camera allowed starts it by itself once switched to kiosk', async () => {
    const h = harness({}, 'granted');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.cameras).toHaveLength(0);
    h.actor.send({ type: 'mode.kiosk' });
    expect(h.cameras).toHaveLength(1);
  });

  it('a camera error is shown and "Reintentar" opens it again', async () => {
    const h = harness();
    h.actor.send({ type: 'camera.enable' });
    h.cameras[0]!.send({ type: 'camera.error', code: 'permissionDenied' });
    expect(h.view()).toMatchObject({ camera: 'failed', cameraError: 'permissionDenied' });
    h.actor.send({ type: 'camera.retry' });
    expect(h.cameras).toHaveLength(2);
    expect(h.cameras[0]!.stopped).toBe(true);
  });

  it('the watchdog reopens the camera when the stream ends or freezes', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('s1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: { attempt: 'polling' } } });
    h.watchdogs[0]!.send({ type: 'camera.stalled' });
    await vi.advanceTimersByTimeAsync(0);
    // The old camera is let go, a new one opens; the attempt ended (stop sent) and waits for it.
    expect(h.cameras).toHaveLength(2);
    expect(h.cameras[0]!.stopped).toBe(true);
    expect(h.polls[0]!.stopped).toBe(true);
    expect(h.stops).toContain('s1');
    expect(value(h.actor)).toMatchObject({ camera: { on: 'opening' }, auth: { kiosk: 'waiting' } });
    expect(h.actor.getSnapshot().context.cameraRestarts).toBe(1);
    h.cameras[1]!.send({ type: 'camera.ready', stream });
    h.watchdogs[1]!.send({ type: 'video.ready', video });
    await vi.advanceTimersByTimeAsync(0);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: { attempt: 'starting' } } });
    expect(h.start.calls).toHaveLength(2);
  });
});

describe('faceLogin machine: manual mode', () => {
  it('start, frames, a result with name and number; the session is stopped', async () => {
    const h = harness();
    await h.openCamera();
    h.actor.send({ type: 'auth.start' });
    expect(h.view()).toMatchObject({ status: 'starting', busy: true });
    h.start.calls[0]!.answer.resolve(started('s1', 250));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.polls[0]!.input).toMatchObject({
      sessionId: 's1',
      intervalMs: 250,
      mirror: true,
      video,
    });
    await h.answer(liveness(['Parpadeá despacio (0 de 1).'], 400));
    expect(h.view()).toMatchObject({
      status: 'polling',
      feedback: ['Parpadeá despacio (0 de 1).'],
      intervalMs: 400,
      sessionId: 's1',
      profile: 'kiosk',
    });
    await h.answer(recognised);
    expect(value(h.actor)).toMatchObject({ auth: { manual: 'decided' } });
    expect(h.view().result).toEqual(recognised.result);
    expect(h.polls[0]!.stopped).toBe(true);
    expect(h.stops).toEqual(['s1']);
    // A new start clears the last result first.
    h.actor.send({ type: 'auth.start' });
    expect(h.view().result).toBeNull();
  });

  it('"Stop" ends the polling and the session', async () => {
    const h = harness();
    await h.openCamera();
    h.actor.send({ type: 'auth.start' });
    h.start.calls[0]!.answer.resolve(started('s9'));
    await vi.advanceTimersByTimeAsync(0);
    h.actor.send({ type: 'auth.stop' });
    expect(value(h.actor)).toMatchObject({ auth: { manual: 'stopped' } });
    expect(h.polls[0]!.stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.stops).toEqual(['s9']);
  });

  it('errors are typed codes: start failed, frame failed, device not activated, network', async () => {
    const h = harness();
    await h.openCamera();
    h.actor.send({ type: 'auth.start' });
    h.start.calls[0]!.answer.reject(new ApiError('server', 500, undefined));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view()).toMatchObject({ status: 'failed', error: { code: 'startFailed' } });
    h.actor.send({ type: 'auth.start' });
    h.start.calls[1]!.answer.reject(
      new ApiError('server', 403, 'Este dispositivo no está habilitado'),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view().error).toEqual({
      code: 'deviceNotActivated',
      serverMessage: 'Este dispositivo no está habilitado',
    });
    h.actor.send({ type: 'auth.start' });
    h.start.calls[2]!.answer.resolve(started('s3'));
    await vi.advanceTimersByTimeAsync(0);
    h.polls[0]!.send({ type: 'poll.error', error: { code: 'network' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view()).toMatchObject({ status: 'failed', error: { code: 'network' } });
    expect(h.stops).toContain('s3');
  });

  it('"Start" does nothing before the camera plays', () => {
    const h = harness();
    h.actor.send({ type: 'auth.start' });
    expect(h.start.calls).toHaveLength(0);
  });

  it('the mirror switch applies to the next attempt', async () => {
    const h = harness();
    await h.openCamera();
    h.actor.send({ type: 'mirror.toggle' });
    h.actor.send({ type: 'auth.start' });
    h.start.calls[0]!.answer.resolve(started('s1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.polls[0]!.input.mirror).toBe(false);
  });
});

describe('faceLogin machine: kiosk mode', () => {
  it('loops by itself: result, stop, 1500 ms after success, 700 ms after failure, cleared', async () => {
    const h = harness({ mode: 'kiosk' });
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: 'waiting' } });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    await h.answer(recognised);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: 'cooldown' } });
    expect(h.view().result?.user?.full_name).toBe('EILEEN COLLINS');
    expect(h.stops).toEqual(['k1']);
    await vi.advanceTimersByTimeAsync(SUCCESS_COOLDOWN_MS - 1);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: 'cooldown' } });
    await vi.advanceTimersByTimeAsync(1);
    // After the cooldown nothing of the patient stays in the machine.
    const ctx = h.actor.getSnapshot().context;
    expect(JSON.stringify(ctx)).not.toContain('EILEEN');
    expect(JSON.stringify(ctx)).not.toContain('4321987');
    expect(ctx).toMatchObject({ result: null, sessionId: null, feedback: [] });
    expect(h.start.calls).toHaveLength(2);

    h.start.calls[1]!.answer.resolve(started('k2'));
    await vi.advanceTimersByTimeAsync(0);
    await h.answer(notRecognised);
    expect(h.view().result?.message).toBe('No reconocido');
    await vi.advanceTimersByTimeAsync(FAILURE_COOLDOWN_MS - 1);
    expect(h.start.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.start.calls).toHaveLength(3);
    expect(h.view().result).toBeNull();
    expect(h.stops).toEqual(['k1', 'k2']);
  });

  it('network errors back off and retry: 1 s, 2 s, 4 s; a success resets the backoff', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    for (const [i, wait] of [1000, 2000, 4000].entries()) {
      h.start.calls[i]!.answer.reject(new ApiError('network', undefined, undefined));
      await vi.advanceTimersByTimeAsync(0);
      expect(h.view()).toMatchObject({ status: 'retrying', error: { code: 'network' } });
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(h.start.calls).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.start.calls).toHaveLength(i + 2);
    }
    h.start.calls[3]!.answer.resolve(started('k4'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.actor.getSnapshot().context.failures).toBe(0);
    // A frame that fails also ends the attempt and retries after the backoff.
    h.polls[0]!.send({ type: 'poll.error', error: { code: 'network' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.stops).toContain('k4');
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.start.calls).toHaveLength(5);
  });

  it("429 waits the server's Retry-After", async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.reject(
      new ApiError('tooManyAttempts', 429, 'Demasiados intentos.', 20),
    );
    await vi.advanceTimersByTimeAsync(19_999);
    expect(h.start.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.start.calls).toHaveLength(2);
  });

  it('a device that is not activated stops the loop and says so', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.reject(new ApiError('server', 403, 'no está habilitado'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: 'blocked' } });
    expect(h.start.calls).toHaveLength(1);
    expect(h.view().error?.code).toBe('deviceNotActivated');
  });

  it('a frame refused as from a device not activated backs off like other errors (only a start blocks)', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    h.polls[0]!.send({ type: 'poll.error', error: { code: 'server', status: 403 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view()).toMatchObject({ status: 'retrying', error: { code: 'deviceNotActivated' } });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.start.calls).toHaveLength(2);
  });

  it('a time-up (nobody blinked) ends the loop until "Iniciar validación" (issue 29 item 17)', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    await h.answer({
      stage: 'failed',
      feedback: ['Se terminó el tiempo. Volvé a iniciar la validación.'],
      recommended_interval_ms: 300,
      result: {
        success: false,
        message: 'Se terminó el tiempo. Volvé a iniciar la validación.',
        time_up: true,
        user: null,
        authentication: null,
      },
    });
    expect(value(h.actor)).toMatchObject({ auth: { kiosk: 'timedOut' } });
    expect(h.stops).toEqual(['k1']);
    expect(selectKioskView(h.actor.getSnapshot())).toMatchObject({
      moment: 'timedOut',
      canRestart: true,
    });
    // No loop of its own: a photo left in front of the camera does not run for ever.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.start.calls).toHaveLength(1);
    h.actor.send({ type: 'auth.start' });
    expect(h.start.calls).toHaveLength(2);
    expect(h.view().result).toBeNull();
  });

  it("a still photo's duplicate-only frames keep the hint shown: the prompt does not flicker (issue 29 item 17)", async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    const duplicate = 'frame duplicado: la imagen se repite, no cuenta.';
    const shown: Array<string | null> = [];
    for (const feedback of [
      ['Parpadeá despacio (0 de 1).'],
      [duplicate],
      [],
      [duplicate],
      ['Parpadeá despacio (0 de 1).', duplicate],
      [duplicate],
    ]) {
      await h.answer(liveness(feedback));
      shown.push(selectKioskView(h.actor.getSnapshot()).hint);
    }
    expect(new Set(shown)).toEqual(new Set(['Parpadeá despacio (0 de 1).']));
    // A new hint replaces it; the next attempt starts without it.
    await h.answer(liveness(['Acercate un poco más a la cámara.']));
    expect(selectKioskView(h.actor.getSnapshot()).hint).toBe('Acercate un poco más a la cámara.');
    await h.answer(notRecognised);
    await vi.advanceTimersByTimeAsync(FAILURE_COOLDOWN_MS);
    expect(h.actor.getSnapshot().context.hint).toBeNull();
  });

  it('switching modes ends the attempt; manual does not loop', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    h.actor.send({ type: 'mode.manual' });
    expect(value(h.actor)).toMatchObject({ auth: { manual: 'idle' } });
    expect(h.polls[0]!.stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.start.calls).toHaveLength(1);
    h.actor.send({ type: 'mode.kiosk' });
    expect(h.start.calls).toHaveLength(2);
  });

  it('stopping the page (the actor) stops camera, polling and timers', async () => {
    const h = harness({ mode: 'kiosk' });
    await h.openCamera();
    h.start.calls[0]!.answer.resolve(started('k1'));
    await vi.advanceTimersByTimeAsync(0);
    h.actor.stop();
    expect(h.cameras[0]!.stopped).toBe(true);
    expect(h.watchdogs[0]!.stopped).toBe(true);
    expect(h.polls[0]!.stopped).toBe(true);
  });
});

describe('attempt machine (both modes invoke it)', () => {
  /** The attempt under a parent that records its reports, with controlled session and frames. */
  function attemptUnderParent() {
    const start = controlled<FaceLoginStartResponse, { prefix: string }>();
    const polls: Array<{ input: FramePollingInput; send: (e: unknown) => void; stopped: boolean }> =
      [];
    const reports: AttemptReport[] = [];
    const logic = attemptMachine.provide({
      actors: {
        startSession: start.logic,
        framePolling: fromCallback(({ input, sendBack }) => {
          const p = { input, send: sendBack as (e: unknown) => void, stopped: false };
          polls.push(p);
          return () => (p.stopped = true);
        }),
      },
    });
    const parent = setup({
      types: { events: {} as AttemptReport },
      actors: { logic },
    }).createMachine({
      invoke: {
        id: 'attempt',
        src: 'logic',
        input: { prefix: '/api/liveness', video, mirror: false },
      },
      on: { 'attempt.*': { actions: ({ event }) => reports.push(event) } },
    });
    const actor = createActor(parent).start();
    const child = () => actor.getSnapshot().children.attempt;
    return { start, polls, reports, child };
  }

  it('reports its session, each frame, then the deciding frame, and ends', async () => {
    const a = attemptUnderParent();
    a.start.calls[0]!.answer.resolve(started('a1', 50));
    await vi.advanceTimersByTimeAsync(0);
    // The server's interval is kept, never below 100 ms; the mirror as the attempt began.
    expect(a.polls[0]!.input).toMatchObject({ sessionId: 'a1', intervalMs: 100, mirror: false });
    a.polls[0]!.send({ type: 'poll.result', result: liveness(['Parpadeá despacio (0 de 1).']) });
    // A result during the liveness stage is not a decision, nor a decided stage without a result.
    a.polls[0]!.send({
      type: 'poll.result',
      result: { ...liveness([]), result: recognised.result },
    });
    a.polls[0]!.send({ type: 'poll.result', result: { ...notRecognised, result: null } });
    expect(a.child()?.getSnapshot().value).toBe('polling');
    a.polls[0]!.send({ type: 'poll.result', result: notRecognised });
    await vi.advanceTimersByTimeAsync(0);
    expect(a.reports.map((r) => r.type)).toEqual([
      'attempt.started',
      'attempt.frame',
      'attempt.frame',
      'attempt.frame',
      'attempt.decided',
    ]);
    expect(a.reports.at(-1)).toEqual({ type: 'attempt.decided', frame: notRecognised });
    expect(a.polls[0]!.stopped).toBe(true);
    expect(a.child()?.getSnapshot().status).toBe('done');
  });

  it('reports a failure while starting or while sending frames, as a typed code', async () => {
    const a = attemptUnderParent();
    a.start.calls[0]!.answer.reject(new ApiError('server', 403, 'no está habilitado'));
    await vi.advanceTimersByTimeAsync(0);
    expect(a.reports).toEqual([
      {
        type: 'attempt.failed',
        error: { code: 'deviceNotActivated', serverMessage: 'no está habilitado' },
        during: 'start',
      },
    ]);
    const b = attemptUnderParent();
    b.start.calls[0]!.answer.resolve(started('b1'));
    await vi.advanceTimersByTimeAsync(0);
    b.polls[0]!.send({ type: 'poll.error', error: { code: 'server', status: 500 } });
    expect(b.reports.at(-1)).toEqual({
      type: 'attempt.failed',
      error: { code: 'frameFailed' },
      during: 'frame',
    });
  });
});

describe('faceLogin machine: device activation', () => {
  it('an activation link activates the device and forgets the token', async () => {
    const h = harness({ activationToken: 'tok', mode: 'kiosk' });
    expect(value(h.actor)).toMatchObject({ device: 'activating' });
    expect(h.activate.calls[0]!.input).toEqual({ token: 'tok' });
    h.activate.calls[0]!.answer.resolve({
      success: true,
      message: 'ok',
      device: 'Recepción central',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view()).toMatchObject({ device: 'activated', activatedDevice: 'Recepción central' });
    expect(h.actor.getSnapshot().context.activationToken).toBeNull();
  });

  it('a used or expired link is an error', async () => {
    const h = harness({ activationToken: 'tok' });
    h.activate.calls[0]!.answer.reject(new ApiError('server', 400, 'usado'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.view()).toMatchObject({ device: 'activationFailed', activationError: 'invalidLink' });
  });
});

describe('camera watchdog actor', () => {
  function fakeStream() {
    const listeners: Array<() => void> = [];
    const track = {
      addEventListener: (_: string, l: () => void) => listeners.push(l),
      removeEventListener: (_: string, l: () => void) => listeners.splice(listeners.indexOf(l), 1),
    };
    const stream = { getVideoTracks: () => [track] } as unknown as MediaStream;
    return { stream, end: () => [...listeners].forEach((l) => l()) };
  }
  /** The watchdog invoked by a parent that records what it reports. */
  function watch(stream: MediaStream) {
    const v = { currentTime: 0 };
    const released: unknown[] = [];
    const logic = createWatchdog({
      videoOf: async () => v as unknown as HTMLVideoElement,
      release: (x) => released.push(x),
      everyMs: 1000,
      stallMs: 4000,
    });
    const events: string[] = [];
    const parent = setup({
      types: { events: {} as { type: string } },
      actors: { logic },
    }).createMachine({
      invoke: { id: 'watchdog', src: 'logic', input: { stream } },
      on: { '*': { actions: ({ event }) => events.push(event.type) } },
    });
    const actor = createActor(parent).start();
    return { v, released, events, actor };
  }

  it('reports a frozen video after 4 s without a new frame', async () => {
    const w = watch(fakeStream().stream);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.events).toEqual(['video.ready']);
    for (let i = 1; i <= 6; i++) {
      w.v.currentTime = i * 0.033;
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(w.events).toEqual(['video.ready']);
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.events).toEqual(['video.ready', 'camera.stalled']);
    w.actor.stop();
    expect(w.released).toEqual([w.v]);
  });

  it('reports an ended track at once', async () => {
    const s = fakeStream();
    const w = watch(s.stream);
    await vi.advanceTimersByTimeAsync(0);
    s.end();
    expect(w.events).toEqual(['video.ready', 'camera.stalled']);
    w.actor.stop();
  });
});

describe('the kiosk view (selectKioskView)', () => {
  it('names the patient by the given names, as a greeting says them, and keeps 3 digits of the number', async () => {
    const { faceLoginFixtures } = await import('../../machines/face-login/face-login.fixtures');
    expect(selectKioskView(faceLoginFixtures.kioskCooldownRecognised)).toMatchObject({
      moment: 'recognised',
      greeting: { names: 'María José', documentTail: '567' },
      detail: null,
    });
    expect(selectKioskView(faceLoginFixtures.kioskCooldownNotRecognised)).toMatchObject({
      moment: 'notRecognised',
      greeting: null,
      detail: 'No reconocido',
    });
    expect(selectKioskView(faceLoginFixtures.kioskPolling)).toMatchObject({
      moment: 'looking',
      hint: 'Parpadeá despacio (0 de 1).',
    });
    expect(selectKioskView(faceLoginFixtures.kioskRetrying).moment).toBe('paused');
    // Not activated: said as such (not 'Volvemos a intentar', nothing retries).
    expect(selectKioskView(faceLoginFixtures.kioskBlocked).moment).toBe('blocked');
    expect(selectKioskView(faceLoginFixtures.kioskTimedOut)).toMatchObject({
      moment: 'timedOut',
      canRestart: true,
    });
    expect(selectKioskView(faceLoginFixtures.kioskWaiting).moment).toBe('preparing');
  });
});
