import type { SnapshotFrom } from 'xstate';
import { DUPLICATE_FRAME_MARK } from '../../contract/identity';
import type { FaceAuthMachine } from './faceAuth.machine';

type Snapshot = SnapshotFrom<FaceAuthMachine>;

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
  | 'blocked';
export type DeviceStatus = 'idle' | 'activating' | 'activated' | 'activationFailed';

const cameraStatus = (s: Snapshot): CameraStatus =>
  s.matches({ camera: 'off' })
    ? 'off'
    : s.matches({ camera: 'failed' })
      ? 'failed'
      : s.matches({ camera: { on: 'live' } })
        ? 'live'
        : 'opening';

const authStatus = (s: Snapshot): AuthStatus => {
  const auth = (s.value as { auth: unknown }).auth;
  if (typeof auth === 'object' && auth) return Object.values(auth)[0] as AuthStatus;
  return 'idle';
};

const deviceStatus = (s: Snapshot): DeviceStatus => {
  const d = (s.value as { device: string }).device;
  return d === 'checking' ? 'idle' : (d as DeviceStatus);
};

/** Everything the face-login page shows. Hints about duplicate frames are hidden (spec 5). */
export const selectFaceAuthView = (s: Snapshot) => {
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
export type FaceAuthView = ReturnType<typeof selectFaceAuthView>;
