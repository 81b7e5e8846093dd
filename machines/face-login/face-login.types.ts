import type {
  FaceLoginFrameResponse,
  FaceLoginResult,
  FaceLoginStartResponse,
} from '../../contract/face-login';
import type { CameraErrorCode } from '../shared/camera';
import type { PollingEvent } from '../shared/polling';

/**
 * Why an attempt stopped; each code has its Spanish text in src/copy/es.faceLogin.ts.
 * - deviceNotActivated: the server requires a kiosk device credential (403)
 * - startFailed: 'No se pudo iniciar sesión' / frameFailed: 'Error en liveness' (server answers)
 * - network: no answer; tooManyAttempts: 429
 */
/** The kiosk activation link's fragment (its view reads it from the address). */
export { KIOSK_ACTIVATION_FRAGMENT } from '../../contract/face-login';

export type FaceLoginErrorCode =
  'deviceNotActivated' | 'startFailed' | 'frameFailed' | 'network' | 'tooManyAttempts';
export type FaceLoginError = {
  code: FaceLoginErrorCode;
  serverMessage?: string;
  retryAfterSeconds?: number;
};

export type ActivationErrorCode = 'invalidLink' | 'network';

type FaceLoginMode = 'manual' | 'kiosk';

export type FaceLoginInput = {
  /** `/face-login?modo=kiosco` boots into kiosk mode */
  mode?: FaceLoginMode;
  /** the one-time token of an activation link (`#activar=...`) */
  activationToken?: string | null;
  /** API prefix (VITE_FACE_AUTH_PREFIX), default /api/liveness */
  prefix?: string;
};

export type FaceLoginContext = {
  /** The mode asked for at boot (read once, to choose the first state; then the mode is the state). */
  bootMode: FaceLoginMode;
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
  /**
   * The hint the kiosk shows while the patient looks at the camera: the latest frame's first line
   * that is not a duplicate-frame mark. A frame with none keeps it (a still photo's frames are
   * mostly duplicates: the prompt would flicker between the hint and the default).
   */
  hint: string | null;
  result: FaceLoginResult | null;
  error: FaceLoginError | null;
  /** Consecutive failed attempts in kiosk mode (the backoff grows with them). */
  failures: number;
  activationToken: string | null;
  activationError: ActivationErrorCode | null;
  activatedDevice: string | null;
};

export type FaceLoginEvent =
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
  | AttemptReport;

/** One attempt (machines/face-login/attempt.machine.ts): a session, its frames, its decision. */
export type AttemptInput = {
  prefix: string;
  /** the element frames are captured from */
  video: HTMLVideoElement;
  /** as the mirror switch stood when the attempt began */
  mirror: boolean;
};
export type AttemptContext = AttemptInput & {
  sessionId: string | null;
  intervalMs: number;
};
/** What the frame polling reports: each answer typed by the contract, or the first error. */
export type AttemptEvent = PollingEvent<FaceLoginFrameResponse>;
/**
 * What an attempt tells the page, in order: its session started, each frame's answer, then its
 * decision (the deciding frame: authenticated or failed, with its result) or why it failed (while
 * starting or while sending frames).
 */
export type AttemptReport =
  | { type: 'attempt.started'; session: FaceLoginStartResponse }
  | { type: 'attempt.frame'; frame: FaceLoginFrameResponse }
  | { type: 'attempt.decided'; frame: FaceLoginFrameResponse }
  | { type: 'attempt.failed'; error: FaceLoginError; during: 'start' | 'frame' };
