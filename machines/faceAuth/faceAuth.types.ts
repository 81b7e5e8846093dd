import type { FaceAuthResult } from '../../contract/face-auth';
import type { CameraErrorCode } from '../shared/camera';
import type { FlowError } from '../shared/errors';

/**
 * Why an attempt stopped; each code has its Spanish text in src/copy/es.faceLogin.ts.
 * - deviceNotActivated: the server requires a kiosk device credential (403)
 * - startFailed: 'No se pudo iniciar sesión' / frameFailed: 'Error en liveness' (server answers)
 * - network: no answer; tooManyAttempts: 429
 */
export type FaceAuthErrorCode =
  'deviceNotActivated' | 'startFailed' | 'frameFailed' | 'network' | 'tooManyAttempts';
export type FaceAuthError = {
  code: FaceAuthErrorCode;
  serverMessage?: string;
  retryAfterSeconds?: number;
};

export type ActivationErrorCode = 'invalidLink' | 'network';

type FaceAuthMode = 'manual' | 'kiosk';

export type FaceAuthInput = {
  /** `/face-login?modo=kiosco` boots into kiosk mode */
  mode?: FaceAuthMode;
  /** the one-time token of an activation link (`#activar=...`) */
  activationToken?: string | null;
  /** API prefix (VITE_FACE_AUTH_PREFIX), default /api/liveness */
  prefix?: string;
};

export type FaceAuthContext = {
  /** The mode asked for at boot (read once, to choose the first state; then the mode is the state). */
  bootMode: FaceAuthMode;
  prefix: string;
  /** Flip the frame horizontally, as a mirror shows it (spec 9: mirrored by default). */
  mirror: boolean;
  stream: MediaStream | null;
  /** The element frames are captured from (the watchdog's, not the view's). */
  video: HTMLVideoElement | null;
  cameraError: CameraErrorCode | null;
  /** How many times the watchdog reopened the camera. */
  cameraRestarts: number;
  sessionId: string | null;
  profile: string | null;
  intervalMs: number;
  feedback: string[];
  result: FaceAuthResult | null;
  error: FaceAuthError | null;
  /** Consecutive failed attempts in kiosk mode (the backoff grows with them). */
  failures: number;
  activationToken: string | null;
  activationError: ActivationErrorCode | null;
  activatedDevice: string | null;
};

export type FaceAuthEvent =
  | { type: 'camera.enable' }
  | { type: 'camera.retry' }
  | { type: 'camera.ready'; stream: MediaStream }
  | { type: 'camera.error'; code: CameraErrorCode }
  | { type: 'camera.released' }
  | { type: 'video.ready'; video: HTMLVideoElement }
  | { type: 'camera.stalled' }
  | { type: 'auth.start' }
  | { type: 'auth.stop' }
  | { type: 'mode.manual' }
  | { type: 'mode.kiosk' }
  | { type: 'mirror.toggle' }
  | { type: 'poll.result'; result: unknown }
  | { type: 'poll.error'; error: FlowError };
