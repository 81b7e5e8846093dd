import type { FaceLoginResult } from '../../contract/face-login';
import { FACE_LOGIN_INTERVAL_MS, FACE_LOGIN_PREFIX } from '../../contract/face-login';
import { attemptMachine } from './attempt.machine';
import { faceLoginMachine } from './face-login.machine';
import type { AttemptContext, FaceLoginContext } from './face-login.types';

const base: FaceLoginContext = {
  bootMode: 'manual',
  prefix: FACE_LOGIN_PREFIX,
  mirror: true,
  stream: null,
  video: null,
  cameraError: null,
  cameraRestarts: 0,
  sessionId: null,
  profile: null,
  intervalMs: FACE_LOGIN_INTERVAL_MS,
  feedback: [],
  hint: null,
  result: null,
  error: null,
  failures: 0,
  activationToken: null,
  activationError: null,
  activatedDevice: null,
};
const session = {
  sessionId: '5f1c2a9e-8d3b-4c7a-9e21-0b6d4f3a7c18',
  profile: 'kiosk',
  intervalMs: 300,
};
const recognised: FaceLoginResult = {
  success: true,
  message: 'Identidad verificada.',
  user: {
    full_name: 'MARÍA JOSÉ GONZÁLEZ BENÍTEZ',
    given_names: 'MARÍA JOSÉ',
    document_number: '1234567',
    face_match_confidence: 0.91,
  },
  authentication: { confidence: 0.91, threshold_used: 0.7 },
};
const notRecognised: FaceLoginResult = {
  success: false,
  message: 'No reconocido',
  user: null,
  authentication: { confidence: null, threshold_used: 0.7 },
};
const timeUp: FaceLoginResult = {
  success: false,
  message: 'Se terminó el tiempo. Volvé a iniciar la validación.',
  time_up: true,
  user: null,
  authentication: { confidence: null, threshold_used: 0.7 },
};

type Value = {
  camera: { off: 'checking' | 'allowed' | 'idle' } | 'failed' | { on: 'opening' | 'live' };
  device: 'idle' | 'activating' | 'activated' | 'activationFailed';
  auth:
    | { manual: 'idle' | 'decided' | 'stopped' | 'failed' | { attempt: 'starting' | 'polling' } }
    | {
        kiosk:
          | 'waiting'
          | 'cooldown'
          | 'retrying'
          | 'timedOut'
          | 'blocked'
          | { attempt: 'starting' | 'polling' };
      };
};
/** Stands for the watchdog's video element once the camera plays (fixtures run outside a page). */
const playing = { video: {} as HTMLVideoElement };
const at = (value: Value, context: Partial<FaceLoginContext> = {}) =>
  faceLoginMachine.resolveState({
    value,
    context: {
      ...base,
      ...(typeof value.camera === 'object' && 'on' in value.camera && value.camera.on === 'live'
        ? playing
        : {}),
      ...context,
    },
  });
const live = { on: 'live' } as const;
const off = { off: 'idle' } as const;

/** One named snapshot per leaf state of each region (camera, device, auth), for stories and tests. */
export const faceLoginFixtures = {
  cameraOff: at({ camera: off, device: 'idle', auth: { manual: 'idle' } }),
  /** The Permissions API is being asked whether the camera is allowed already. */
  cameraOffChecking: at({ camera: { off: 'checking' }, device: 'idle', auth: { manual: 'idle' } }),
  /** Allowed already, in manual mode: the test page still waits for 'Habilitar cámara'. */
  cameraOffAllowed: at({ camera: { off: 'allowed' }, device: 'idle', auth: { manual: 'idle' } }),
  cameraOpening: at({ camera: { on: 'opening' }, device: 'idle', auth: { manual: 'idle' } }),
  cameraFailed: at(
    { camera: 'failed', device: 'idle', auth: { manual: 'idle' } },
    { cameraError: 'permissionDenied' },
  ),
  manualReady: at({ camera: live, device: 'idle', auth: { manual: 'idle' } }),
  manualStarting: at({ camera: live, device: 'idle', auth: { manual: { attempt: 'starting' } } }),
  manualPolling: at(
    { camera: live, device: 'idle', auth: { manual: { attempt: 'polling' } } },
    {
      ...session,
      feedback: ['Parpadeá despacio (0 de 1).', 'frame duplicado: la imagen se repite, no cuenta.'],
    },
  ),
  manualRecognised: at(
    { camera: live, device: 'idle', auth: { manual: 'decided' } },
    { ...session, feedback: ['¡Listo! Validación de vida completada.'], result: recognised },
  ),
  manualNotRecognised: at(
    { camera: live, device: 'idle', auth: { manual: 'decided' } },
    { ...session, result: notRecognised },
  ),
  manualStopped: at({ camera: live, device: 'idle', auth: { manual: 'stopped' } }, session),
  manualFailed: at(
    { camera: live, device: 'idle', auth: { manual: 'failed' } },
    { ...session, error: { code: 'frameFailed' } },
  ),
  manualDeviceNotActivated: at(
    { camera: live, device: 'idle', auth: { manual: 'failed' } },
    { error: { code: 'deviceNotActivated' } },
  ),
  kioskWaiting: at({ camera: { on: 'opening' }, device: 'idle', auth: { kiosk: 'waiting' } }),
  kioskStarting: at({ camera: live, device: 'idle', auth: { kiosk: { attempt: 'starting' } } }),
  kioskPolling: at(
    { camera: live, device: 'idle', auth: { kiosk: { attempt: 'polling' } } },
    { ...session, feedback: ['Parpadeá despacio (0 de 1).'], hint: 'Parpadeá despacio (0 de 1).' },
  ),
  kioskCooldownRecognised: at(
    { camera: live, device: 'idle', auth: { kiosk: 'cooldown' } },
    { ...session, result: recognised },
  ),
  kioskCooldownNotRecognised: at(
    { camera: live, device: 'idle', auth: { kiosk: 'cooldown' } },
    { ...session, result: notRecognised },
  ),
  /** Nobody blinked within the liveness time: 'Volvé a iniciar la validación' and a button. */
  kioskTimedOut: at(
    { camera: live, device: 'idle', auth: { kiosk: 'timedOut' } },
    { ...session, result: timeUp },
  ),
  kioskRetrying: at(
    { camera: live, device: 'idle', auth: { kiosk: 'retrying' } },
    { error: { code: 'network' }, failures: 2 },
  ),
  kioskBlocked: at(
    { camera: live, device: 'idle', auth: { kiosk: 'blocked' } },
    {
      error: {
        code: 'deviceNotActivated',
        serverMessage: 'Este equipo no está habilitado. Avisá al personal.',
      },
    },
  ),
  deviceActivating: at({ camera: off, device: 'activating', auth: { kiosk: 'waiting' } }),
  deviceActivated: at(
    { camera: off, device: 'activated', auth: { kiosk: 'waiting' } },
    { activatedDevice: 'Recepción central' },
  ),
  deviceActivationFailed: at(
    { camera: off, device: 'activationFailed', auth: { kiosk: 'waiting' } },
    { activationError: 'invalidLink' },
  ),
};

const attemptAt = (value: 'starting' | 'polling' | 'decided' | 'failed', started: boolean) =>
  attemptMachine.resolveState({
    value,
    context: {
      prefix: FACE_LOGIN_PREFIX,
      ...playing,
      mirror: true,
      ...(started
        ? { sessionId: session.sessionId, intervalMs: session.intervalMs }
        : { sessionId: null, intervalMs: FACE_LOGIN_INTERVAL_MS }),
    } satisfies AttemptContext,
  });

/** The attempt child's leaves (the page keeps what it reports: its stories render the page). */
export const attemptFixtures = {
  starting: attemptAt('starting', false),
  polling: attemptAt('polling', true),
  decided: attemptAt('decided', true),
  failed: attemptAt('failed', true),
};
