import { formatDocumentNumber } from '../../machines/shared/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { LivenessResponse, ScanIdResponse } from '../../contract/identity';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { kycMachine } from '../../machines/kyc/kyc.machine';
import {
  formatBirthDate,
  selectDocumentView,
  selectKycScreen,
  selectKycView,
  selectReviewView,
  selectSelfieView,
  visibleFeedback,
} from '../../machines/kyc/kyc.selectors';
import { selectSupplementaryView } from '../../machines/kyc/supplementary.selectors';
import type { KycSession } from '../../machines/kyc/kyc.types';
import type { CameraInput } from '../../machines/shared/camera';
import { ApiError } from '../../machines/shared/errors';
import { harness, jpeg, probe, stream, verified } from './kyc.harness';

type Answer = { status: number; body?: unknown; raw?: string } | 'offline';

/** Stubs the browser's fetch (machines/shared/http.ts is the only caller) with answers in order. */
function stubFetch(...answers: Answer[]) {
  const calls: Array<{ url: string; method: string | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method });
      const answer = answers.shift() ?? 'offline';
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return new Response(answer.raw ?? JSON.stringify(answer.body), {
        status: answer.status,
        headers: {
          'content-type': 'application/json',
          ...(answer.status === 429 ? { 'retry-after': '600' } : {}),
        },
      });
    }),
  );
  return calls;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('kyc machine: entry', () => {
  it("creates a session on entry when there is none ('Cargando...'), then opens the front camera for the selfie", async () => {
    vi.useRealTimers();
    const calls = stubFetch({
      status: 200,
      body: { success: true, session_id: 'sess-42', liveness_seconds: 45, challenge: 'cues' },
    });
    const camera = probe<CameraInput>();
    const actor = createActor(kycMachine.provide({ actors: { camera: camera.logic as never } }), {
      input: {},
    }).start();
    expect(selectKycView(actor.getSnapshot())).toMatchObject({
      screen: 'loading',
      busy: true,
      canRetry: false,
    });
    await waitFor(actor, (s) => s.matches('selfie'));
    expect(calls).toEqual([{ url: '/api/onboarding/start-kyc', method: 'POST' }]);
    expect(actor.getSnapshot().context.sessionId).toBe('sess-42');
    // The selfie's time limit and its challenge (issue 31) are the server's.
    expect(actor.getSnapshot().context.livenessMs).toBe(45_000);
    expect(actor.getSnapshot().context.challenge).toBe('cues');
    expect(actor.getSnapshot().value).toEqual({ selfie: 'opening' });
    expect(camera.last().input).toEqual({ facing: 'user', width: 640, height: 480 });
  });

  it('reuses the session the wizard already holds without calling the server', async () => {
    vi.useRealTimers();
    const calls = stubFetch();
    const camera = probe<CameraInput>();
    const actor = createActor(kycMachine.provide({ actors: { camera: camera.logic as never } }), {
      input: { sessionId: 'held-1' },
    }).start();
    await waitFor(actor, (s) => s.matches('selfie'));
    expect(calls).toHaveLength(0);
    expect(actor.getSnapshot().context.sessionId).toBe('held-1');
  });

  it.each<[string, Answer, object]>([
    [
      'a 200 that is not the contract',
      { status: 200, body: { success: false } },
      { code: 'startKycFailed' },
    ],
    [
      'a 503 with a message',
      {
        status: 503,
        body: { success: false, message: 'El motor de identidad no está disponible.' },
      },
      { code: 'startKycFailed', serverMessage: 'El motor de identidad no está disponible.' },
    ],
    ['an answer that is not JSON', { status: 200, raw: '<html>' }, { code: 'startKycFailed' }],
    [
      'a 429',
      {
        status: 429,
        body: {
          success: false,
          message: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
        },
      },
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
      },
    ],
    ['no answer', 'offline', { code: 'network' }],
  ])('fails on %s and can retry', async (_label, answer, expected) => {
    vi.useRealTimers();
    const calls = stubFetch(answer, {
      status: 200,
      body: { success: true, session_id: 'sess-2', liveness_seconds: 120 },
    });
    const camera = probe<CameraInput>();
    const actor = createActor(kycMachine.provide({ actors: { camera: camera.logic as never } }), {
      input: {},
    }).start();
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(selectKycView(actor.getSnapshot())).toMatchObject({
      screen: 'failed',
      error: expected,
      canRetry: true,
    });
    actor.send({ type: 'kyc.retry' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('selfie'));
    expect(calls).toHaveLength(2);
  });
});

describe('kyc machine: selfie', () => {
  it('starts the blink challenge on the open camera, shows the hints, passes and moves on after 1.2 s', async () => {
    const h = harness();
    await h.answerSession();
    expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
      phase: 'opening',
      buttonEnabled: false,
    });
    h.camera.last().send({ type: 'camera.ready', stream });
    expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
      phase: 'idle',
      button: 'start',
      buttonEnabled: true,
      stream,
    });
    h.actor.send({ type: 'liveness.start' });
    // A new session: its challenge clock starts with the first frame, nothing asked yet; no light
    // in this session ('none'), so no look for a bright background.
    expect(h.sampling.last().input).toEqual({
      stream,
      sessionId: 'sess-1',
      clockOrigin: null,
      challenge: null,
      backlight: false,
    });
    expect(selectSelfieView(h.actor.getSnapshot()).button).toBe('stop');
    const hints: LivenessResponse = {
      liveness_detected: false,
      feedback: ['Parpadeá despacio (1 de 3).', 'frame duplicado: la imagen se repite, no cuenta.'],
      time_up: false,
    };
    h.sampling.last().send({ type: 'poll.result', result: hints });
    expect(selectSelfieView(h.actor.getSnapshot()).feedback).toEqual([
      'Parpadeá despacio (1 de 3).',
    ]);
    h.sampling.last().send({
      type: 'poll.result',
      result: { liveness_detected: true, feedback: ['¡Listo!'], time_up: false },
    });
    expect(h.value()).toEqual({ selfie: 'passed' });
    // Polling stopped at once; the button reads 'Redirigiendo...' and cannot be used.
    expect(h.sampling.last().running).toBe(false);
    expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
      button: 'redirecting',
      buttonEnabled: false,
    });
    await vi.advanceTimersByTimeAsync(1199);
    expect(h.value()).toEqual({ selfie: 'passed' });
    await vi.advanceTimersByTimeAsync(1);
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('frontal');
    // The front camera was released; the rear one opens for the document.
    expect(h.camera.runs[0]!.running).toBe(false);
    expect(h.camera.last().input).toEqual({ facing: 'environment', width: 1920, height: 1080 });
  });

  it("'Detener' returns to idle and stops the polling", async () => {
    const h = harness();
    await h.toRunning();
    h.actor.send({ type: 'liveness.stop' });
    expect(h.value()).toEqual({ selfie: 'idle' });
    expect(h.sampling.last().running).toBe(false);
    expect(h.camera.last().running).toBe(true);
  });

  it.each<[string, ApiError | TypeError, object]>([
    ['a failed request', new ApiError('server', 500, undefined), { code: 'livenessFailed' }],
    ['no answer', new TypeError('Failed to fetch'), { code: 'livenessFailed' }],
    [
      'an expired session',
      new ApiError(
        'server',
        400,
        'La sesión expiró. Volvé a empezar el proceso.',
        undefined,
        'session_expired',
      ),
      { code: 'sessionExpired', reason: 'session_expired' },
    ],
    [
      'an invalid session',
      new ApiError('server', 400, 'Sesión inválida.', undefined, 'session_invalid'),
      { code: 'sessionExpired', reason: 'session_invalid' },
    ],
    [
      // The sentence's words decide nothing (issue 27): without a code it is the generic problem.
      'an old sentence without a code',
      new ApiError('server', 400, 'La sesión expiró (session expired).'),
      { code: 'livenessFailed' },
    ],
    [
      'a 429',
      new ApiError(
        'tooManyAttempts',
        429,
        'Demasiados intentos. Esperá 2 minutos e intentá de nuevo.',
      ),
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 2 minutos e intentá de nuevo.',
      },
    ],
  ])(
    "stops on %s; 'Intentar nuevamente' starts over with a new session and the camera reopened",
    async (_l, err, expected) => {
      const h = harness();
      await h.toRunning();
      const { toFlowError } = await import('../../machines/shared/errors');
      h.sampling.last().send({ type: 'poll.error', error: toFlowError(err) });
      expect(h.value()).toEqual({ selfie: 'failed' });
      expect(h.sampling.last().running).toBe(false);
      expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
        error: expected,
        button: 'retry',
        buttonEnabled: true,
      });
      h.actor.send({ type: 'liveness.start' });
      expect(h.value()).toBe('starting');
      expect(h.session.calls.at(-1)!.input).toEqual({ sessionId: null, registrationToken: null });
      expect(h.camera.runs[0]!.running).toBe(false);
      await h.answerSession();
      expect(h.actor.getSnapshot().context.sessionId).toBe('sess-2');
      expect(h.camera.runs).toHaveLength(2);
      expect(h.camera.last().running).toBe(true);
    },
  );

  it.each<[string, string | KycSession, number]>([
    ['a held session: the default 120 s', 'sess-1', 120_000],
    [
      "a new session: the server's limit from start-kyc",
      { sessionId: 'sess-1', livenessMs: 30_000 },
      30_000,
    ],
  ])('gives up after the challenge time without a pass (%s)', async (_label, session, limit) => {
    const h = harness([session]);
    await h.answerSession();
    expect(h.actor.getSnapshot().context.livenessMs).toBe(limit);
    h.camera.last().send({ type: 'camera.ready', stream });
    h.actor.send({ type: 'liveness.start' });
    await vi.advanceTimersByTimeAsync(limit - 1);
    expect(h.actor.getSnapshot().matches({ selfie: 'running' })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(selectSelfieView(h.actor.getSnapshot()).error).toEqual({ code: 'livenessNotDetected' });
    expect(h.sampling.last().running).toBe(false);
  });

  it("stops at the server's 'time up' (its clock runs from the first frame, across a stop)", async () => {
    const h = harness();
    await h.toRunning();
    h.sampling.last().send({
      type: 'poll.result',
      result: {
        liveness_detected: false,
        feedback: ['Parpadeá despacio (1 de 3).'],
        time_up: false,
      },
    });
    expect(h.actor.getSnapshot().matches({ selfie: 'running' })).toBe(true);
    h.actor.send({ type: 'liveness.stop' });
    h.actor.send({ type: 'liveness.start' });
    h.sampling.last().send({
      type: 'poll.result',
      result: {
        liveness_detected: false,
        feedback: ['Se terminó el tiempo. Volvé a iniciar la validación.'],
        time_up: true,
      },
    });
    expect(h.value()).toEqual({ selfie: 'failed' });
    expect(selectSelfieView(h.actor.getSnapshot()).error).toEqual({ code: 'livenessNotDetected' });
    expect(h.sampling.last().running).toBe(false);
    // 'Intentar nuevamente' asks for a new session: only a new one can pass.
    h.actor.send({ type: 'liveness.start' });
    expect(h.value()).toBe('starting');
    expect(h.session.calls.at(-1)!.input).toEqual({ sessionId: null, registrationToken: null });
  });

  it('shows a denied camera as a code and resumes by itself when the camera opens later', async () => {
    const h = harness();
    await h.answerSession();
    h.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
      phase: 'cameraFailed',
      cameraError: 'permissionDenied',
      canRetryCamera: true,
    });
    h.actor.send({ type: 'camera.retry' });
    expect(h.camera.last().received).toEqual(['camera.retry']);
    // The camera actor saw the permission change to granted and opened the camera.
    h.camera.last().send({ type: 'camera.ready', stream });
    expect(selectSelfieView(h.actor.getSnapshot())).toMatchObject({
      phase: 'idle',
      cameraError: null,
    });
  });

  it('a hidden tab (camera released) stops the challenge; the camera coming back leaves it idle', async () => {
    const h = harness();
    await h.toRunning();
    h.camera.last().send({ type: 'camera.released' });
    expect(h.value()).toEqual({ selfie: 'opening' });
    expect(h.sampling.last().running).toBe(false);
    expect(h.actor.getSnapshot().context.stream).toBeNull();
    h.camera.last().send({ type: 'camera.ready', stream });
    expect(h.value()).toEqual({ selfie: 'idle' });
  });

  it('ignores start while the camera is not open, and results once the challenge stopped', async () => {
    const h = harness();
    await h.answerSession();
    h.actor.send({ type: 'liveness.start' });
    expect(h.value()).toEqual({ selfie: 'opening' });
    h.camera.last().send({ type: 'camera.ready', stream });
    h.actor.send({
      type: 'poll.result',
      result: { liveness_detected: true, feedback: [], time_up: false },
    });
    expect(h.value()).toEqual({ selfie: 'idle' });
  });
});

describe('kyc machine: documents', () => {
  async function atFront() {
    const h = harness();
    await h.toFront();
    return h;
  }

  it("'Capturar' works only once the video plays; the capture is the whole frame at most 2000 px, JPEG 0.92; the camera stops for the preview", async () => {
    const h = await atFront();
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      side: 'front',
      phase: 'opening',
      canCapture: false,
      cameraNotReady: true,
      canUpload: true,
    });
    h.camera.last().send({ type: 'camera.ready', stream });
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'waiting',
      canCapture: false,
      cameraNotReady: true,
    });
    h.actor.send({ type: 'document.capture' });
    expect(h.capture.calls).toHaveLength(0);
    h.actor.send({ type: 'video.playing' });
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'playing',
      canCapture: true,
      cameraNotReady: false,
    });
    h.actor.send({ type: 'document.capture' });
    expect(h.capture.calls[0]!.input).toEqual({
      stream,
      options: { maxSide: 2000, quality: 0.92 },
    });
    h.capture.calls[0]!.answer.resolve(jpeg('front'));
    await h.flush();
    const view = selectDocumentView(h.actor.getSnapshot());
    expect(view).toMatchObject({ phase: 'preview', live: false, stream: null });
    expect(await view.image!.text()).toBe('front');
    expect(h.camera.last().running).toBe(false);
  });

  it("'Volver a capturar' clears the photo and reopens the camera; 'Continuar' goes to the back", async () => {
    const h = await atFront();
    h.actor.send({ type: 'document.upload', file: jpeg('f') });
    h.scaling.calls[0]!.answer.resolve(jpeg('front'));
    await h.flush();
    const cameras = h.camera.runs.length;
    h.actor.send({ type: 'document.retake' });
    expect(h.actor.getSnapshot().context.front).toBeNull();
    expect(h.value()).toEqual({ document: { live: 'opening' } });
    expect(h.camera.runs).toHaveLength(cameras + 1);
    h.actor.send({ type: 'document.upload', file: jpeg('f2') });
    h.scaling.calls[1]!.answer.resolve(jpeg('front2'));
    await h.flush();
    h.actor.send({ type: 'document.accept' });
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('dorso');
    expect(h.value()).toEqual({ document: { live: 'opening' } });
    expect(await h.actor.getSnapshot().context.front!.text()).toBe('front2');
  });

  it('the preview says what to fix before sending (dark, too far), and never blocks', async () => {
    const h = await atFront();
    h.actor.send({ type: 'document.upload', file: jpeg('f') });
    h.scaling.calls[0]!.answer.resolve(jpeg('front'));
    await h.flush();
    expect(await h.hint.calls[0]!.input.photo.text()).toBe('front');
    expect(selectDocumentView(h.actor.getSnapshot()).photoHint).toBeNull();
    h.hint.calls[0]!.answer.resolve('dark');
    await h.flush();
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'preview',
      photoHint: 'dark',
    });
    // A retake forgets it; a hint that cannot be computed is no hint and the photo still goes on.
    h.actor.send({ type: 'document.retake' });
    expect(h.actor.getSnapshot().context.photoHint).toBeNull();
    h.actor.send({ type: 'document.upload', file: jpeg('f2') });
    h.scaling.calls[1]!.answer.resolve(jpeg('front2'));
    await h.flush();
    h.hint.calls[1]!.answer.reject(new Error('no decoder'));
    await h.flush();
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'preview',
      photoHint: null,
    });
    h.actor.send({ type: 'document.accept' });
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('dorso');
  });

  it("'Subir imagen' scales the chosen file (also when the camera failed) and shows it", async () => {
    const h = await atFront();
    h.camera.last().send({ type: 'camera.error', code: 'notFound' });
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'cameraFailed',
      cameraError: 'notFound',
      canUpload: true,
    });
    const file = new File(['big'], 'IMG_0001.HEIC.jpg', { type: 'image/jpeg' });
    h.actor.send({ type: 'document.upload', file });
    expect(h.value()).toEqual({ document: 'preparing' });
    expect(h.scaling.calls[0]!.input.file).toBe(file);
    h.scaling.calls[0]!.answer.reject(new Error('decode'));
    await h.flush();
    expect(h.value()).toEqual({ document: { live: 'failedCapture' } });
    expect(selectDocumentView(h.actor.getSnapshot()).error).toEqual({ code: 'imageFailed' });
  });

  it('a capture that fails shows imageFailed and can be tried again', async () => {
    const h = await atFront();
    h.camera.last().send({ type: 'camera.ready', stream });
    h.actor.send({ type: 'video.playing' });
    h.actor.send({ type: 'document.capture' });
    h.capture.calls[0]!.answer.reject(new Error('no frame'));
    await h.flush();
    expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
      phase: 'failedCapture',
      error: { code: 'imageFailed' },
    });
    h.actor.send({ type: 'document.capture' });
    expect(h.capture.calls).toHaveLength(2);
    expect(h.actor.getSnapshot().context.error).toBeNull();
  });
});

describe('kyc machine: document verification', () => {
  it('sends the session with both photos and shows the review on success', async () => {
    const h = harness();
    await h.toVerifying();
    expect(h.value()).toBe('verifying');
    const input = h.verify.calls[0]!.input;
    expect(input.sessionId).toBe('sess-1');
    expect([await input.front!.text(), await input.back!.text()]).toEqual(['front', 'back']);
    h.verify.calls[0]!.answer.resolve(verified);
    await h.flush();
    expect(h.value()).toEqual({ review: 'showing' });
    expect(selectReviewView(h.actor.getSnapshot()).data).toEqual({
      apellido: 'FRANCO LOPEZ',
      nombre: 'LIZ ANA',
      numeroDocumento: '6.824.773',
      fechaNacimiento: '08/10/1955',
      sexo: 'F',
      nacionalidad: 'PARAGUAYA',
      estado_civil: 'CASADA',
    });
  });

  it.each<[string, ScanIdResponse, object]>([
    [
      'a face mismatch',
      {
        success: false,
        kyc_complete: false,
        error: 'Face verification failed: la selfie y la foto del documento no coinciden.',
        reason: 'face_mismatch',
      },
      { code: 'faceMismatch', reason: 'face_mismatch' },
    ],
    [
      'an expired session',
      {
        success: false,
        kyc_complete: false,
        error: 'La sesión expiró. Volvé a empezar el proceso.',
        reason: 'session_expired',
      },
      { code: 'sessionExpired', reason: 'session_expired' },
    ],
    [
      'an invalid session',
      {
        success: false,
        kyc_complete: false,
        error: 'Sesión inválida. Volvé a empezar el proceso.',
        reason: 'session_invalid',
      },
      { code: 'sessionExpired', reason: 'session_invalid' },
    ],
    [
      "the session's document attempts spent",
      {
        success: false,
        kyc_complete: false,
        error: 'Usaste todos los intentos de esta verificación. Volvé a empezar el proceso.',
        reason: 'attempts_exhausted',
      },
      { code: 'sessionExpired', reason: 'attempts_exhausted' },
    ],
    [
      'another refusal',
      {
        success: false,
        kyc_complete: false,
        error: 'El número impreso en el frente no coincide con el del dorso.',
      },
      {
        code: 'documentRejected',
        serverMessage: 'El número impreso en el frente no coincide con el del dorso.',
      },
    ],
    [
      'a refusal by a code without a step of its own',
      {
        success: false,
        kyc_complete: false,
        error: 'El documento está vencido.',
        reason: 'document_expired',
      },
      {
        code: 'documentRejected',
        serverMessage: 'El documento está vencido.',
        reason: 'document_expired',
      },
    ],
    [
      'a code this browser does not know',
      { success: false, kyc_complete: false, error: 'Algo nuevo.', reason: 'something_new' },
      { code: 'documentRejected', serverMessage: 'Algo nuevo.' },
    ],
    [
      // The sentence's words decide nothing (issue 27): the mismatch text needs the code.
      'an old mismatch sentence without a code',
      {
        success: false,
        kyc_complete: false,
        error: 'Face verification failed: no encontramos una cara en el frente del documento.',
      },
      {
        code: 'documentRejected',
        serverMessage:
          'Face verification failed: no encontramos una cara en el frente del documento.',
      },
    ],
    [
      'a refusal without a message',
      { success: false, kyc_complete: false },
      { code: 'documentRejected' },
    ],
    [
      'success without kyc_complete',
      { success: true, kyc_complete: false },
      { code: 'documentRejected' },
    ],
  ])("shows 'No pudimos validar tu identidad' on %s", async (_l, answer, expected) => {
    const h = harness();
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(answer);
    await h.flush();
    expect(h.value()).toBe('rejected');
    expect(selectKycView(h.actor.getSnapshot())).toMatchObject({
      screen: 'rejected',
      error: expected,
      canRetry: true,
    });
  });

  it.each<[string, unknown, object, unknown]>([
    [
      'a 409 with a message',
      new ApiError('server', 409, 'Primero completá la validación de vida (selfie).'),
      {
        code: 'documentRejected',
        serverMessage: 'Primero completá la validación de vida (selfie).',
      },
      'rejected',
    ],
    [
      'a 400 for an expired session',
      new ApiError('server', 400, 'La sesión expiró.', undefined, 'session_expired'),
      { code: 'sessionExpired', reason: 'session_expired' },
      'rejected',
    ],
    [
      'a 409 for a closed session',
      new ApiError('server', 409, 'Esta verificación ya terminó.', undefined, 'session_closed'),
      { code: 'sessionExpired', reason: 'session_closed' },
      'rejected',
    ],
    [
      'a 400 whose code asks for the front again',
      new ApiError(
        'server',
        400,
        'La foto del frente no muestra una cédula.',
        undefined,
        'not_a_document',
      ),
      {
        code: 'frontRejected',
        serverMessage: 'La foto del frente no muestra una cédula.',
        reason: 'not_a_document',
      },
      { document: { live: 'opening' } },
    ],
    [
      'a 500 without a message',
      new ApiError('server', 500, undefined),
      { code: 'documentNetwork' },
      { document: 'preview' },
    ],
  ])('answers %s with the right screen', async (_l, err, expected, state) => {
    const h = harness();
    await h.toVerifying();
    h.verify.calls[0]!.answer.reject(err);
    await h.flush();
    expect(h.value()).toEqual(state);
    expect(h.actor.getSnapshot().context.error).toEqual(expected);
  });

  it.each<[string, unknown, object]>([
    ['no answer', new TypeError('Failed to fetch'), { code: 'documentNetwork' }],
    [
      'an unreadable answer',
      new ApiError('invalidResponse', 200, undefined),
      { code: 'documentNetwork' },
    ],
    [
      'a 429',
      new ApiError(
        'tooManyAttempts',
        429,
        'Demasiados intentos. Esperá 3 minutos e intentá de nuevo.',
        180,
      ),
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 3 minutos e intentá de nuevo.',
      },
    ],
    [
      // Issue 29 item 17: another scan of this session is running (a double tap, a second tab).
      'a 409 scan_in_progress',
      new ApiError(
        'server',
        409,
        'Ya estamos verificando tu cédula. Esperá el resultado antes de enviarla de nuevo.',
        undefined,
        'scan_in_progress',
      ),
      {
        code: 'scanInProgress',
        serverMessage:
          'Ya estamos verificando tu cédula. Esperá el resultado antes de enviarla de nuevo.',
        reason: 'scan_in_progress',
      },
    ],
  ])(
    'keeps the photos on %s: back to the preview of the back, to send again',
    async (_l, err, expected) => {
      const h = harness();
      await h.toVerifying();
      h.verify.calls[0]!.answer.reject(err);
      await h.flush();
      expect(h.value()).toEqual({ document: 'preview' });
      expect(selectDocumentView(h.actor.getSnapshot())).toMatchObject({
        side: 'back',
        error: expected,
      });
      h.actor.send({ type: 'document.accept' });
      expect(h.value()).toBe('verifying');
      expect(h.verify.calls).toHaveLength(2);
      expect(await h.verify.calls[1]!.input.front!.text()).toBe('front');
    },
  );

  it("'Reintentar' on the failure screen goes back to the selfie with every capture cleared and a new session", async () => {
    const h = harness();
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve({
      success: false,
      kyc_complete: false,
      error: 'Face verification failed',
    });
    await h.flush();
    h.actor.send({ type: 'kyc.retry' });
    expect(h.value()).toBe('starting');
    expect(h.session.calls.at(-1)!.input).toEqual({ sessionId: null, registrationToken: null });
    const c = h.actor.getSnapshot().context;
    expect([c.front, c.back, c.kycResult, c.error, c.side]).toEqual([
      null,
      null,
      null,
      null,
      'front',
    ]);
    await h.answerSession();
    expect(h.value()).toEqual({ selfie: 'opening' });
    expect(h.actor.getSnapshot().context.sessionId).toBe('sess-2');
  });
});

describe('kyc machine: a refused document asks again for the photos at fault, by its code', () => {
  const refusal = (reason: string, error?: string): ScanIdResponse => ({
    success: false,
    kyc_complete: false,
    reason,
    ...(error ? { error } : {}),
  });
  /** front and back captured and sent, the server's answer given */
  async function refused(answer: ScanIdResponse | ApiError) {
    const h = harness();
    await h.toVerifying();
    if (answer instanceof ApiError) h.verify.calls[0]!.answer.reject(answer);
    else h.verify.calls[0]!.answer.resolve(answer);
    await h.flush();
    return h;
  }
  const photos = async (h: ReturnType<typeof harness>) => {
    const c = h.actor.getSnapshot().context;
    return [(await c.front?.text()) ?? null, (await c.back?.text()) ?? null];
  };
  /** a new photo of the side on screen, accepted */
  const retake = async (h: ReturnType<typeof harness>, name: string) => {
    h.actor.send({ type: 'document.upload', file: jpeg(`${name}-file`) });
    h.scaling.calls.at(-1)!.answer.resolve(jpeg(name));
    await h.flush();
    expect(h.actor.getSnapshot().context.error).toBeNull();
    h.actor.send({ type: 'document.accept' });
  };

  it("no face on the card's front: its own text (never the mismatch), the front again, the back kept, in the same session", async () => {
    const h = await refused(
      refusal(
        'no_face_on_document',
        'Face verification failed: no encontramos una cara en el frente del documento.',
      ),
    );
    expect(h.value()).toEqual({ document: { live: 'opening' } });
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('frontal');
    expect(selectDocumentView(h.actor.getSnapshot()).error).toEqual({
      code: 'noFaceOnDocument',
      reason: 'no_face_on_document',
    });
    expect(await photos(h)).toEqual([null, 'back']);
    await retake(h, 'front2');
    // The back was kept: the new front goes straight to verification, in the same session.
    expect(h.value()).toBe('verifying');
    expect(h.session.calls).toHaveLength(1);
    const input = h.verify.calls[1]!.input;
    expect([input.sessionId, await input.front!.text(), await input.back!.text()]).toEqual([
      'sess-1',
      'front2',
      'back',
    ]);
  });

  it.each(['not_a_document', 'front_unreadable'])(
    "%s: the server's sentence and the front again",
    async (reason) => {
      const sentence = 'No pudimos leer el número y los nombres del frente del documento.';
      const h = await refused(refusal(reason, sentence));
      expect(selectKycScreen(h.actor.getSnapshot())).toBe('frontal');
      expect(selectDocumentView(h.actor.getSnapshot()).error).toEqual({
        code: 'frontRejected',
        serverMessage: sentence,
        reason,
      });
      expect(await photos(h)).toEqual([null, 'back']);
    },
  );

  it('front and back of different cards: both sides again, front first', async () => {
    const sentence = 'El frente y el dorso no son de la misma cédula.';
    const h = await refused(refusal('document_mismatch', sentence));
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('frontal');
    expect(selectDocumentView(h.actor.getSnapshot()).error).toEqual({
      code: 'documentMismatch',
      serverMessage: sentence,
      reason: 'document_mismatch',
    });
    expect(await photos(h)).toEqual([null, null]);
    await retake(h, 'front2');
    expect(selectKycScreen(h.actor.getSnapshot())).toBe('dorso');
    await retake(h, 'back2');
    expect(h.value()).toBe('verifying');
    const input = h.verify.calls[1]!.input;
    expect([await input.front!.text(), await input.back!.text()]).toEqual(['front2', 'back2']);
  });

  it.each(['mrz_unreadable', 'back_missing'])(
    '%s: the back again, the front kept',
    async (reason) => {
      const h = await refused(
        refusal(reason, 'No pudimos leer el código del dorso del documento.'),
      );
      expect(h.value()).toEqual({ document: { live: 'opening' } });
      expect(selectKycScreen(h.actor.getSnapshot())).toBe('dorso');
      expect(selectDocumentView(h.actor.getSnapshot()).error).toMatchObject({
        code: 'backRejected',
        reason,
      });
      expect(await photos(h)).toEqual(['front', null]);
      await retake(h, 'back2');
      expect(h.value()).toBe('verifying');
      const input = h.verify.calls[1]!.input;
      expect([await input.front!.text(), await input.back!.text()]).toEqual(['front', 'back2']);
    },
  );

  it("a face mismatch: the spec's text on the failure screen, and back to the selfie in a new session", async () => {
    const h = await refused(refusal('face_mismatch', 'Face verification failed: no coinciden.'));
    expect(selectKycView(h.actor.getSnapshot())).toMatchObject({
      screen: 'rejected',
      error: { code: 'faceMismatch', reason: 'face_mismatch' },
    });
    h.actor.send({ type: 'kyc.retry' });
    await h.answerSession();
    expect(h.value()).toEqual({ selfie: 'opening' });
    expect(h.actor.getSnapshot().context.sessionId).toBe('sess-2');
  });

  it('counts refusals by code, across a new attempt', async () => {
    const h = await refused(refusal('no_face_on_document'));
    expect(h.actor.getSnapshot().context.refusals).toEqual({ no_face_on_document: 1 });
    await retake(h, 'front2');
    h.verify.calls[1]!.answer.resolve(refusal('no_face_on_document'));
    await h.flush();
    await retake(h, 'front3');
    h.verify.calls[2]!.answer.resolve(refusal('face_mismatch'));
    await h.flush();
    expect(h.actor.getSnapshot().context.refusals).toEqual({
      no_face_on_document: 2,
      face_mismatch: 1,
    });
    h.actor.send({ type: 'kyc.retry' });
    expect(h.actor.getSnapshot().context.refusals).toEqual({
      no_face_on_document: 2,
      face_mismatch: 1,
    });
    // A refusal without a code, or a network failure, counts nothing.
    await h.answerSession();
    const before = h.actor.getSnapshot().context.refusals;
    h.camera.last().send({ type: 'camera.ready', stream });
    h.actor.send({ type: 'liveness.start' });
    h.sampling.last().send({ type: 'poll.error', error: { code: 'network' } });
    expect(h.actor.getSnapshot().context.refusals).toEqual(before);
  });
});

describe('kyc machine: review', () => {
  it("'Reintentar' posts kyc-reject for the session and returns to the selfie with every capture cleared", async () => {
    const h = harness();
    await h.toReview();
    h.actor.send({ type: 'review.retry' });
    expect(selectReviewView(h.actor.getSnapshot())).toMatchObject({
      busy: true,
      canRetry: false,
      canConfirm: false,
    });
    expect(h.reject.calls[0]!.input).toEqual({ sessionId: 'sess-1' });
    h.reject.calls[0]!.answer.resolve();
    await h.flush();
    expect(h.value()).toBe('starting');
    expect(h.actor.getSnapshot().context.kycResult).toBeNull();
    expect(h.actor.getSnapshot().context.front).toBeNull();
    await h.answerSession();
    expect(h.value()).toEqual({ selfie: 'opening' });
  });

  it('a failed rejection stays on the review with its message; both buttons still work', async () => {
    const h = harness();
    await h.toReview();
    h.actor.send({ type: 'review.retry' });
    h.reject.calls[0]!.answer.reject(new TypeError('Failed to fetch'));
    await h.flush();
    expect(selectReviewView(h.actor.getSnapshot())).toMatchObject({
      error: { code: 'rejectFailed' },
      canRetry: true,
      canConfirm: true,
    });
    h.actor.send({ type: 'review.retry' });
    expect(h.reject.calls).toHaveLength(2);
  });
});

// The form's own behaviour is its child's: tests/machines/kyc-supplementary.test.ts.
describe('kyc machine: supplementary data', () => {
  const central = [
    { id: '11-1', nombre: 'Areguá' },
    { id: '11-7', nombre: 'Luque' },
  ];

  it("'Finalizar' requires department and city, then ends with the wizard's output", async () => {
    const h = harness();
    await h.toSupplementary();
    expect(h.actor.getSnapshot().children.supplementary?.id).toBe('supplementary');
    h.actor.send({ type: 'supplementary.submit' });
    expect(selectSupplementaryView(h.supplementary()).fieldErrors).toEqual({
      departamento: 'departmentRequired',
      ciudad_id: 'cityRequired',
    });
    h.actor.send({ type: 'blood.change', value: 'AB-' });
    h.actor.send({ type: 'blood.change', value: 'Z+' });
    h.actor.send({ type: 'address.change', value: 'Av. España 123' });
    h.actor.send({ type: 'department.change', value: '11' });
    expect(selectSupplementaryView(h.supplementary()).fieldErrors.departamento).toBeNull();
    h.cities.calls[0]!.answer.resolve(central);
    await h.flush();
    h.actor.send({ type: 'supplementary.submit' });
    expect(selectSupplementaryView(h.supplementary()).fieldErrors).toEqual({
      departamento: null,
      ciudad_id: 'cityRequired',
    });
    h.actor.send({ type: 'city.change', value: '11-1' });
    h.actor.send({ type: 'supplementary.submit' });
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(h.actor.getSnapshot().output).toEqual({
      sessionId: 'sess-1',
      kycResult: verified,
      supplementaryData: {
        tipoSangre: 'AB-',
        direccion: 'Av. España 123',
        departamento: '11',
        ciudad_id: '11-1',
      },
    });
  });

  it("refuses to finish without a document number ('No se encontró el número de documento.')", async () => {
    const h = harness();
    await h.toSupplementary(undefined, {
      ...verified,
      id_data: { ...verified.id_data!, DocumentNumber: ' ' },
    });
    h.actor.send({ type: 'department.change', value: '11' });
    h.cities.calls[0]!.answer.resolve(central);
    await h.flush();
    h.actor.send({ type: 'city.change', value: '11-7' });
    h.actor.send({ type: 'supplementary.submit' });
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.supplementary().context.error).toEqual({ code: 'documentMissing' });
  });
});

describe('kyc selectors', () => {
  it("hides feedback lines containing 'frame duplicado'", () => {
    expect(visibleFeedback(['a', 'frame duplicado: x', 'b'])).toEqual(['a', 'b']);
  });

  it('shows the birth date as dd/mm/aaaa (es-PY), leaving anything else as it came', () => {
    expect(formatBirthDate('1990-04-12')).toBe('12/04/1990');
    expect(formatBirthDate('2001-12-31')).toBe('31/12/2001');
    expect(formatBirthDate('desconocida')).toBe('desconocida');
    expect(formatBirthDate('8/3/1987')).toBe('08/03/1987');
    expect(formatDocumentNumber('2719564')).toBe('2.719.564');
    expect(formatDocumentNumber('005123478')).toBe('5.123.478');
    expect(formatDocumentNumber('12345')).toBe('12.345');
    expect(formatDocumentNumber('4.567.890')).toBe('4.567.890');
  });

  it('names a screen for every fixture', () => {
    const screens = new Set(Object.values(kycFixtures).map((f) => selectKycScreen(f)));
    expect([...screens].sort()).toEqual(
      [
        'assist',
        'documentRegistered',
        'done',
        'dorso',
        'failed',
        'frontal',
        'loading',
        'rejected',
        'review',
        'selfie',
        'supplementary',
        'verifying',
      ].sort(),
    );
  });
});

describe('the card step after an upload (issue 29 item 14)', () => {
  it("offers another file ('Elegir otra imagen') straight from the preview; a captured photo offers the camera again", async () => {
    const h = harness();
    await h.toFront();
    h.actor.send({ type: 'document.upload', file: jpeg('front-file') });
    h.scaling.calls.at(-1)!.answer.resolve(jpeg('front'));
    await h.flush();
    expect(selectDocumentView(h.actor.getSnapshot()).retake).toBe('chooseFile');
    h.actor.send({ type: 'document.upload', file: jpeg('other-file') });
    expect(h.value()).toEqual({ document: 'preparing' });
    h.scaling.calls.at(-1)!.answer.resolve(jpeg('other'));
    await h.flush();
    expect(await h.actor.getSnapshot().context.front!.text()).toBe('other');
    // Back to the camera and a capture: the preview offers the camera again.
    h.actor.send({ type: 'document.retake' });
    h.camera.last().send({ type: 'camera.ready', stream });
    h.actor.send({ type: 'video.playing' });
    h.actor.send({ type: 'document.capture' });
    h.capture.calls.at(-1)!.answer.resolve(jpeg('captured'));
    await h.flush();
    expect(selectDocumentView(h.actor.getSnapshot()).retake).toBe('capture');
  });
});
