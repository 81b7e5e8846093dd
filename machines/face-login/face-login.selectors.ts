import type { SnapshotFrom, StateValue } from 'xstate';
import { DUPLICATE_FRAME_MARK } from '../../contract/identity';
import { documentTail, greetingName } from '../shared/format';
import type { FaceLoginMachine } from './face-login.machine';

type Snapshot = SnapshotFrom<FaceLoginMachine>;

export type CameraStatus = 'off' | 'opening' | 'live' | 'failed';
export type AuthStatus =
  | 'idle'
  | 'waiting'
  | 'starting'
  | 'polling'
  | 'decided'
  | 'stopped'
  | 'failed'
  | 'cooldown'
  | 'retrying'
  | 'timedOut'
  | 'blocked';
type DeviceStatus = 'idle' | 'activating' | 'activated' | 'activationFailed';

const cameraStatus = (s: Snapshot): CameraStatus =>
  s.matches({ camera: 'off' })
    ? 'off'
    : s.matches({ camera: 'failed' })
      ? 'failed'
      : s.matches({ camera: { on: 'live' } })
        ? 'live'
        : 'opening';

/** The auth region's leaf: an attempt shows as its step (`starting`, `polling`). */
const authStatus = (s: Snapshot): AuthStatus => {
  let value: StateValue = s.value;
  for (const key of ['auth', 'manual', 'kiosk', 'attempt']) {
    if (typeof value === 'object' && value[key] !== undefined) value = value[key];
  }
  return typeof value === 'string' ? (value as AuthStatus) : 'idle';
};

const deviceStatus = (s: Snapshot): DeviceStatus => {
  const d = (s.value as { device: string }).device;
  return d === 'checking' ? 'idle' : (d as DeviceStatus);
};

/** Everything the face-login page shows. Hints about duplicate frames are hidden (spec 5). */
export const selectFaceLoginView = (s: Snapshot) => {
  const ctx = s.context;
  return {
    mode: s.matches({ auth: 'kiosk' }) ? ('kiosk' as const) : ('manual' as const),
    camera: cameraStatus(s),
    cameraError: s.matches({ camera: 'failed' }) ? ctx.cameraError : null,
    stream: ctx.stream,
    mirror: ctx.mirror,
    status: authStatus(s),
    busy: s.hasTag('busy'),
    sessionId: ctx.sessionId,
    profile: ctx.profile,
    intervalMs: ctx.intervalMs,
    feedback: ctx.feedback.filter((f) => !f.toLowerCase().includes(DUPLICATE_FRAME_MARK)),
    result: ctx.result,
    error:
      s.matches({ auth: { manual: 'failed' } }) ||
      s.matches({ auth: { kiosk: 'retrying' } }) ||
      s.matches({ auth: { kiosk: 'blocked' } })
        ? ctx.error
        : null,
    canEnableCamera: s.can({ type: 'camera.enable' }),
    canRetryCamera: s.can({ type: 'camera.retry' }),
    canStart: s.can({ type: 'auth.start' }),
    canStop: s.can({ type: 'auth.stop' }),
    device: deviceStatus(s),
    activatedDevice: ctx.activatedDevice,
    activationError: s.matches({ device: 'activationFailed' }) ? ctx.activationError : null,
    cameraRestarts: ctx.cameraRestarts,
  };
};
export type FaceLoginView = ReturnType<typeof selectFaceLoginView>;

/** What the kiosk's patient screen says about the moment: none of it is diagnostic. */
export type KioskMoment =
  'preparing' | 'looking' | 'recognised' | 'notRecognised' | 'timedOut' | 'paused' | 'blocked';

/**
 * The kiosk's patient screen (`/face-login?modo=kiosco`), seen by whoever stands behind the
 * patient: the given names alone and the document number's last three digits; no session, profile,
 * interval, confidence or threshold. The result stays for the whole cooldown.
 */
export const selectKioskView = (s: Snapshot) => {
  const ctx = s.context;
  const user = ctx.result?.success ? ctx.result.user : null;
  const status = authStatus(s);
  const moment: KioskMoment = user
    ? 'recognised'
    : status === 'timedOut'
      ? 'timedOut'
      : ctx.result
        ? 'notRecognised'
        : status === 'polling'
          ? 'looking'
          : status === 'blocked'
            ? 'blocked'
            : status === 'retrying'
              ? 'paused'
              : 'preparing';
  return {
    moment,
    /** a failure's detail as the server says it ('No reconocido', time up) */
    detail: ctx.result && !ctx.result.success ? ctx.result.message : null,
    greeting: user
      ? { names: greetingName(user.given_names), documentTail: documentTail(user.document_number) }
      : null,
    /** the hint while the patient is looking at the camera (kept across duplicate-only frames) */
    hint: moment === 'looking' ? ctx.hint : null,
    /** 'Iniciar validación' after a time-up */
    canRestart: moment === 'timedOut' && s.can({ type: 'auth.start' }),
  };
};
