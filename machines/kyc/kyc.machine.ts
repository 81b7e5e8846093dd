import { assign, not, sendParent, sendTo, setup } from 'xstate';
import { BLOOD_TYPES, type BloodType } from '../../contract/onboarding';
import {
  FACE_MISMATCH_MARK,
  INVALID_SESSION_MARK,
  SESSION_EXPIRED_MARK,
  type ScanIdResponse,
} from '../../contract/identity';
import { cameraActor, type CameraInput } from '../shared/camera';
import { toFlowError, type FlowError } from '../shared/errors';
import { frameCaptureActor, imageScalingActor, photoHintActor } from '../shared/frame-capture';
import {
  DOCUMENT_CAPTURE,
  ensureSession,
  livenessSampling,
  loadCities,
  loadDepartments,
  rejectKyc,
  verifyDocuments,
} from './kyc.actors';
import type {
  KycContext,
  KycError,
  KycEvent,
  KycInput,
  KycOutput,
  KycSession,
  SupplementaryForm,
} from './kyc.types';

const withMessage = (code: KycError['code'], serverMessage: string | undefined): KycError =>
  serverMessage ? { code, serverMessage } : { code };

/** POST /start-kyc failures. */
function kycErrorFrom(err: unknown): KycError {
  const e = toFlowError(err);
  switch (e.code) {
    case 'tooManyAttempts':
      return withMessage('tooManyAttempts', e.serverMessage);
    case 'network':
      return { code: 'network' };
    default:
      return withMessage('startKycFailed', e.serverMessage);
  }
}

const isSessionProblem = (message: string | undefined): boolean =>
  Boolean(
    message &&
    (message.toLowerCase().includes(SESSION_EXPIRED_MARK) ||
      message.toLowerCase().includes(INVALID_SESSION_MARK)),
  );

/** A failed liveness request: expiry, too many attempts, or the spec's generic selfie problem. */
export function livenessErrorFrom(error: FlowError): KycError {
  if (isSessionProblem(error.serverMessage)) return { code: 'sessionExpired' };
  if (error.code === 'tooManyAttempts') return withMessage('tooManyAttempts', error.serverMessage);
  return { code: 'livenessFailed' };
}

/** scan-id answered `success: false` (or not complete): which failure screen (spec 8, Document). */
function scanIdRefusal(answer: ScanIdResponse): KycError {
  const message = answer.error;
  if (isSessionProblem(message)) return { code: 'sessionExpired' };
  if (message?.includes(FACE_MISMATCH_MARK)) return { code: 'faceMismatch' };
  return withMessage('documentRejected', message);
}

/** scan-id did not answer 2xx JSON. */
function scanIdErrorFrom(err: unknown): KycError {
  const e = toFlowError(err);
  if (isSessionProblem(e.serverMessage)) return { code: 'sessionExpired' };
  if (e.serverMessage?.includes(FACE_MISMATCH_MARK)) return { code: 'faceMismatch' };
  if (e.code === 'tooManyAttempts') return withMessage('tooManyAttempts', e.serverMessage);
  if (e.code === 'server' && e.serverMessage)
    return withMessage('documentRejected', e.serverMessage);
  return { code: 'documentNetwork' };
}

/** Failures worth sending the same photos again (nothing the patient did is wrong). */
const isTransient = (e: KycError): boolean =>
  e.code === 'documentNetwork' || e.code === 'tooManyAttempts';

const emptySupplementaryForm: SupplementaryForm = {
  tipoSangre: 'No sé',
  direccion: '',
  departamento: '',
  ciudad_id: '',
};

const DIRECCION_MAX_LENGTH = 200;

/** The selfie time limit until the server names its own (its IDENTITY_LIVENESS_SECONDS default). */
const DEFAULT_LIVENESS_MS = 120_000;

/** A fresh identity step (after the wizard's input, a retry or a rejection). */
export const initialKycContext = (
  sessionId: string | null,
  livenessMs = DEFAULT_LIVENESS_MS,
  input: NonNullable<KycInput> = {},
): KycContext => ({
  sessionId,
  registrationToken: input.registrationToken ?? null,
  resume: input.resume ?? null,
  canHandOff: input.canHandOff ?? false,
  livenessMs,
  error: null,
  side: 'front',
  stream: null,
  cameraError: null,
  feedback: [],
  front: null,
  back: null,
  photoHint: null,
  kycResult: null,
  departments: [],
  cities: [],
  form: emptySupplementaryForm,
  fieldErrors: { departamento: null, ciudad_id: null },
  failures: 0,
});

const SELFIE_CAMERA: CameraInput = { facing: 'user', width: 640, height: 480 };
const DOCUMENT_CAMERA: CameraInput = { facing: 'environment', width: 1920, height: 1080 };

/**
 * The wizard's identity step (step 4): a session (created when absent, 'Cargando...'), then
 * selfie (blink liveness) -> frontal -> dorso -> document verification -> review ->
 * supplementary, ending with `{ sessionId, kycResult, supplementaryData }` for the wizard's
 * register call. Failures that need a new attempt land in `rejected` ('No pudimos validar tu
 * identidad'), whose 'Reintentar' starts again at the selfie with every capture cleared and a new
 * session. Camera, frame capture and liveness polling are actors of the states that show them.
 */
export const kycMachine = setup({
  types: {
    context: {} as KycContext,
    events: {} as KycEvent,
    input: {} as KycInput,
    output: {} as KycOutput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      ensureSession: 'ensureSession';
      camera: 'camera';
      livenessSampling: 'livenessSampling';
      frameCapture: 'frameCapture';
      imageScaling: 'imageScaling';
      photoHint: 'photoHint';
      verifyDocuments: 'verifyDocuments';
      rejectKyc: 'rejectKyc';
      loadDepartments: 'loadDepartments';
      loadCities: 'loadCities';
    },
  },
  actors: {
    ensureSession,
    camera: cameraActor,
    livenessSampling,
    frameCapture: frameCaptureActor,
    imageScaling: imageScalingActor,
    photoHint: photoHintActor,
    verifyDocuments,
    rejectKyc,
    loadDepartments,
    loadCities,
  },
  delays: {
    /** spec 9: on to the document 1.2 s after a passed selfie */
    redirect: 1_200,
    /**
     * The blink challenge's time: the server's limit (from start-kyc). The server counts from the
     * first frame and answers `time_up` when it is over; this bounds the polling if it never does.
     */
    livenessTimeout: ({ context }) => context.livenessMs,
  },
  guards: {
    isLive: ({ event }) => event.type === 'poll.result' && event.result.liveness_detected,
    isTimeUp: ({ event }) => event.type === 'poll.result' && event.result.time_up,
    hasDocumentNumber: ({ context }) => Boolean(context.kycResult?.id_data?.DocumentNumber.trim()),
    isFormComplete: ({ context }) =>
      context.form.departamento !== '' && context.form.ciudad_id !== '',
    isTransientScanError: ({ event }) =>
      'error' in event && isTransient(scanIdErrorFrom((event as { error: unknown }).error)),
  },
  actions: {
    clearError: assign({ error: null }),
    assignSession: assign(({ context }, session: KycSession) => ({
      sessionId: session.sessionId,
      livenessMs: session.livenessMs ?? context.livenessMs,
    })),
    assignNotDetected: assign({ error: { code: 'livenessNotDetected' } }),
    assignStream: assign({
      stream: ({ event }) => (event.type === 'camera.ready' ? event.stream : null),
      cameraError: null,
    }),
    clearStream: assign({ stream: null }),
    assignCameraError: assign({
      stream: null,
      cameraError: ({ event }) => (event.type === 'camera.error' ? event.code : null),
    }),
    retryCamera: sendTo('camera', { type: 'camera.retry' }),
    assignImageFailed: assign({ error: { code: 'imageFailed' } }),
    /** a new attempt: nothing captured or verified is kept, and a new session will be asked for */
    resetAttempt: assign(({ context }) => ({
      ...initialKycContext(null, context.livenessMs, {
        registrationToken: context.registrationToken,
        canHandOff: context.canHandOff,
      }),
      // The patient's supplementary answers are theirs: a retry does not erase them.
      form: context.form,
    })),
  },
}).createMachine({
  id: 'kyc',
  context: ({ input }) =>
    initialKycContext(input?.sessionId ?? null, DEFAULT_LIVENESS_MS, input ?? {}),
  initial: 'starting',
  on: {
    // The wizard leaves the identity step for the phone (the view offers it where canHandOff).
    'handoff.start': {
      guard: ({ context }) => context.canHandOff,
      actions: sendParent({ type: 'handoff.start' }),
    },
  },
  states: {
    starting: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'ensureSession',
        src: 'ensureSession',
        input: ({ context }) => ({
          sessionId: context.sessionId,
          registrationToken: context.registrationToken,
        }),
        onDone: [
          {
            // A resumed registration whose selfie passed: on to the document.
            guard: ({ context }) => context.resume?.at === 'document',
            target: 'document',
            actions: [
              { type: 'assignSession', params: ({ event }) => event.output },
              assign({ resume: null }),
            ],
          },
          {
            // Its document was read: the review of what the session read.
            guard: ({ context }) => context.resume?.at === 'review',
            target: 'review',
            actions: [
              { type: 'assignSession', params: ({ event }) => event.output },
              assign(({ context }) => ({
                kycResult: context.resume?.at === 'review' ? context.resume.kycResult : null,
                resume: null,
              })),
            ],
          },
          {
            target: 'selfie',
            actions: { type: 'assignSession', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => kycErrorFrom(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'kyc.retry': 'starting' },
    },
    selfie: {
      entry: assign({ feedback: [], error: null }),
      invoke: { id: 'camera', src: 'camera', input: SELFIE_CAMERA },
      initial: 'opening',
      on: {
        'camera.error': { target: '.cameraFailed', actions: 'assignCameraError' },
        'camera.released': { target: '.opening', actions: 'clearStream' },
      },
      states: {
        opening: {
          on: { 'camera.ready': { target: 'idle', actions: 'assignStream' } },
        },
        idle: {
          on: { 'liveness.start': 'running' },
        },
        running: {
          tags: ['busy'],
          entry: assign({ feedback: [] }),
          invoke: {
            id: 'livenessSampling',
            src: 'livenessSampling',
            input: ({ context }) => ({ stream: context.stream!, sessionId: context.sessionId! }),
          },
          after: { livenessTimeout: { target: 'failed', actions: 'assignNotDetected' } },
          on: {
            'liveness.stop': 'idle',
            'poll.result': [
              {
                guard: 'isLive',
                target: 'passed',
                actions: assign({ feedback: ({ event }) => event.result.feedback }),
              },
              // The server's time is over (it counts from the first frame, across a stop and start).
              { guard: 'isTimeUp', target: 'failed', actions: 'assignNotDetected' },
              { actions: assign({ feedback: ({ event }) => event.result.feedback }) },
            ],
            'poll.error': {
              target: 'failed',
              actions: assign({ error: ({ event }) => livenessErrorFrom(event.error) }),
            },
          },
        },
        passed: {
          after: {
            redirect: { target: '#kyc.document', actions: assign({ side: 'front', error: null }) },
          },
        },
        // 'Intentar nuevamente': a new session (the old one may be spent or expired), camera reopened.
        failed: {
          tags: ['error'],
          on: {
            'liveness.start': {
              target: '#kyc.starting',
              actions: assign({ sessionId: null, stream: null }),
            },
          },
        },
        cameraFailed: {
          tags: ['error'],
          on: {
            'camera.ready': { target: 'idle', actions: 'assignStream' },
            'camera.retry': { actions: 'retryCamera' },
          },
        },
      },
    },
    // Front ('frontal') then back ('dorso'): live camera, then preview (spec 4, Document capture).
    document: {
      initial: 'live',
      states: {
        live: {
          // The camera runs only while the live view shows: leaving (preview, upload) stops it.
          invoke: { id: 'camera', src: 'camera', input: DOCUMENT_CAMERA },
          initial: 'opening',
          on: {
            'camera.error': { target: '.cameraFailed', actions: 'assignCameraError' },
            'camera.released': { target: '.opening', actions: 'clearStream' },
            'document.upload': { target: '#kyc.document.preparing', actions: 'clearError' },
          },
          states: {
            opening: {
              on: { 'camera.ready': { target: 'waiting', actions: 'assignStream' } },
            },
            // The stream is there but the view's video does not play yet: 'Capturar' is disabled.
            waiting: { on: { 'video.playing': 'playing' } },
            playing: { on: { 'document.capture': 'capturing' } },
            capturing: {
              tags: ['busy'],
              invoke: {
                id: 'frameCapture',
                src: 'frameCapture',
                input: ({ context }) => ({ stream: context.stream!, options: DOCUMENT_CAPTURE }),
                onDone: {
                  target: '#kyc.document.preview',
                  actions: assign(({ context, event }) =>
                    context.side === 'front' ? { front: event.output } : { back: event.output },
                  ),
                },
                onError: { target: 'failedCapture', actions: 'assignImageFailed' },
              },
            },
            failedCapture: {
              tags: ['error'],
              on: { 'document.capture': { target: 'capturing', actions: 'clearError' } },
            },
            cameraFailed: {
              tags: ['error'],
              on: {
                'camera.ready': { target: 'waiting', actions: 'assignStream' },
                'camera.retry': { actions: 'retryCamera' },
              },
            },
          },
        },
        preparing: {
          tags: ['busy'],
          invoke: {
            id: 'imageScaling',
            src: 'imageScaling',
            input: ({ event }) => ({
              file: event.type === 'document.upload' ? event.file : new Blob(),
            }),
            onDone: {
              target: 'preview',
              actions: assign(({ context, event }) =>
                context.side === 'front' ? { front: event.output } : { back: event.output },
              ),
            },
            onError: { target: 'live.failedCapture', actions: 'assignImageFailed' },
          },
        },
        preview: {
          // A hint before sending (too dark, the card too far): advisory, it never blocks.
          invoke: {
            id: 'photoHint',
            src: 'photoHint',
            input: ({ context }) => ({
              photo: (context.side === 'front' ? context.front : context.back) ?? new Blob(),
            }),
            onDone: { actions: assign({ photoHint: ({ event }) => event.output }) },
            // A photo the browser cannot decode for the hint is still sent: no hint, no error.
            onError: {},
          },
          exit: assign({ photoHint: null }),
          on: {
            'document.retake': {
              target: 'live',
              actions: assign(({ context }) =>
                context.side === 'front' ? { front: null } : { back: null },
              ),
            },
            'document.accept': [
              {
                guard: ({ context }) => context.side === 'front',
                target: '#kyc.document',
                reenter: true,
                actions: assign({ side: 'back', error: null }),
              },
              { target: '#kyc.verifying' },
            ],
          },
        },
      },
    },
    verifying: {
      tags: ['busy'],
      entry: assign({ stream: null, error: null }),
      invoke: {
        id: 'verifyDocuments',
        src: 'verifyDocuments',
        input: ({ context }) => ({
          sessionId: context.sessionId!,
          front: context.front!,
          back: context.back!,
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.success && event.output.kyc_complete,
            target: 'review',
            actions: assign({ kycResult: ({ event }) => event.output }),
          },
          {
            target: 'rejected',
            actions: assign({ error: ({ event }) => scanIdRefusal(event.output) }),
          },
        ],
        onError: [
          {
            // Nothing wrong with the photos: back to the preview of the back, to send them again.
            guard: 'isTransientScanError',
            target: '#kyc.document.preview',
            actions: assign({ error: ({ event }) => scanIdErrorFrom(event.error) }),
          },
          {
            target: 'rejected',
            actions: assign({ error: ({ event }) => scanIdErrorFrom(event.error) }),
          },
        ],
      },
    },
    // 'No pudimos validar tu identidad': the message, the tips and 'Reintentar'.
    rejected: {
      tags: ['error'],
      on: { 'kyc.retry': { target: 'starting', actions: 'resetAttempt' } },
    },
    review: {
      initial: 'showing',
      states: {
        showing: {
          on: { 'review.confirm': '#kyc.supplementary', 'review.retry': 'rejecting' },
        },
        rejecting: {
          tags: ['busy'],
          invoke: {
            id: 'rejectKyc',
            src: 'rejectKyc',
            input: ({ context }) => ({ sessionId: context.sessionId! }),
            onDone: { target: '#kyc.starting', actions: 'resetAttempt' },
            onError: {
              target: 'rejectFailed',
              actions: assign({ error: { code: 'rejectFailed' } }),
            },
          },
        },
        rejectFailed: {
          tags: ['error'],
          on: {
            'review.confirm': '#kyc.supplementary',
            'review.retry': 'rejecting',
          },
        },
      },
    },
    supplementary: {
      entry: 'clearError',
      initial: 'loadingDepartments',
      states: {
        loadingDepartments: {
          tags: ['busy'],
          invoke: {
            id: 'loadDepartments',
            src: 'loadDepartments',
            onDone: [
              {
                guard: ({ context }) => context.form.departamento !== '',
                target: 'form.loadingCities',
                actions: assign({ departments: ({ event }) => event.output }),
              },
              {
                target: 'form',
                actions: assign({ departments: ({ event }) => event.output }),
              },
            ],
            onError: {
              target: 'departmentsFailed',
              actions: assign({ error: { code: 'departmentsFailed' } }),
            },
          },
        },
        departmentsFailed: {
          tags: ['error'],
          on: { 'places.retry': { target: 'loadingDepartments', actions: 'clearError' } },
        },
        form: {
          initial: 'noDepartment',
          on: {
            'blood.change': {
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  tipoSangre: (BLOOD_TYPES as readonly string[]).includes(event.value)
                    ? (event.value as BloodType)
                    : context.form.tipoSangre,
                }),
              }),
            },
            'address.change': {
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  direccion: event.value.slice(0, DIRECCION_MAX_LENGTH),
                }),
              }),
            },
            'department.change': [
              {
                guard: ({ event }) => event.value === '',
                target: '.noDepartment',
                actions: assign({
                  form: ({ context }) => ({ ...context.form, departamento: '', ciudad_id: '' }),
                  cities: [],
                }),
              },
              {
                // A new department: its cities load, the city chosen before is reset.
                target: '.loadingCities',
                actions: assign({
                  form: ({ context, event }) => ({
                    ...context.form,
                    departamento: event.value,
                    ciudad_id: '',
                  }),
                  cities: [],
                  fieldErrors: ({ context }) => ({ ...context.fieldErrors, departamento: null }),
                }),
              },
            ],
            'city.change': {
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  ciudad_id: context.cities.some((c) => c.id === event.value) ? event.value : '',
                }),
                fieldErrors: ({ context }) => ({ ...context.fieldErrors, ciudad_id: null }),
              }),
            },
            'supplementary.submit': [
              {
                guard: not('isFormComplete'),
                actions: assign({
                  fieldErrors: ({ context }) => ({
                    departamento: context.form.departamento ? null : 'departmentRequired',
                    ciudad_id: context.form.ciudad_id ? null : 'cityRequired',
                  }),
                  failures: ({ context }) => context.failures + 1,
                }),
              },
              {
                guard: not('hasDocumentNumber'),
                actions: assign({ error: { code: 'documentMissing' } }),
              },
              { target: '#kyc.done' },
            ],
          },
          states: {
            noDepartment: {},
            loadingCities: {
              tags: ['busy'],
              invoke: {
                id: 'loadCities',
                src: 'loadCities',
                input: ({ context }) => ({ departmentId: context.form.departamento }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    cities: ({ event }) => event.output,
                    // A city absent from the loaded list is reset.
                    form: ({ context, event }) =>
                      event.output.some((c) => c.id === context.form.ciudad_id)
                        ? context.form
                        : { ...context.form, ciudad_id: '' },
                  }),
                },
                onError: {
                  target: 'citiesFailed',
                  actions: assign({ error: { code: 'citiesFailed' } }),
                },
              },
            },
            ready: {},
            citiesFailed: {
              tags: ['error'],
              on: { 'places.retry': { target: 'loadingCities', actions: 'clearError' } },
            },
          },
        },
      },
    },
    done: {
      type: 'final',
      entry: assign({ stream: null }),
    },
  },
  output: ({ context }) => ({
    sessionId: context.sessionId ?? '',
    kycResult: context.kycResult ?? { success: false, kyc_complete: false },
    supplementaryData: { ...context.form },
  }),
});

export type KycMachine = typeof kycMachine;
