import { fromCallback } from 'xstate';

/**
 * The camera as an actor, shared by the selfie, the document capture and the face-authentication
 * kiosk. Invoke it in the state that shows the camera: leaving the state stops every track (the
 * camera light goes off). It reports to its parent:
 * - `camera.ready` with the MediaStream once the camera is open;
 * - `camera.error` with a typed code (the view maps it to docs/decisions.md's text);
 * - `camera.released` when it let the camera go by itself (the tab was hidden); it reopens the
 *   camera when the tab is visible again and reports `camera.ready` anew.
 * After a denied permission it watches the Permissions API and reopens the camera by itself when
 * the patient allows it in the browser (no reload). The parent may send `camera.retry`.
 */
export type CameraErrorCode =
  /** not HTTPS nor localhost: `navigator.mediaDevices` does not exist there */
  | 'insecureContext'
  /** the browser has no getUserMedia */
  | 'unsupported'
  | 'permissionDenied'
  | 'notFound'
  /** the device exists but could not be opened (busy, hardware error, aborted) */
  | 'openFailed';

/**
 * This device has no camera the page can use at all (none found, no getUserMedia, not a secure
 * context): another try here cannot help, unlike a refused permission or a busy camera.
 */
export const isCameraMissing = (code: CameraErrorCode | null): boolean =>
  code === 'notFound' || code === 'unsupported' || code === 'insecureContext';

type CameraFacing = 'user' | 'environment';

export type CameraInput = {
  facing: CameraFacing;
  /** ideal resolution (spec 9: documents 1920x1080, kiosk 640x480) */
  width?: number;
  height?: number;
};

export type CameraEvent =
  | { type: 'camera.ready'; stream: MediaStream }
  | { type: 'camera.error'; code: CameraErrorCode }
  | { type: 'camera.released' };

type CameraCommand = { type: 'camera.retry' };

type Listenable = {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
};

/** What the actor needs from the browser; tests pass fakes. */
export type CameraEnv = {
  isSecureContext: () => boolean;
  mediaDevices: () => Pick<MediaDevices, 'getUserMedia'> | undefined;
  /** `navigator.permissions.query({ name: 'camera' })`, or undefined where the API is missing */
  cameraPermission: () => Promise<(Listenable & { state: PermissionState }) | undefined>;
  /** the page's visibility (document), or undefined outside a page */
  visibility: () => (Listenable & { visibilityState: DocumentVisibilityState }) | undefined;
};

export const browserCameraEnv: CameraEnv = {
  isSecureContext: () => globalThis.isSecureContext !== false,
  mediaDevices: () =>
    typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia
      ? undefined
      : navigator.mediaDevices,
  cameraPermission: async () => {
    try {
      if (typeof navigator === 'undefined' || !navigator.permissions?.query) return undefined;
      return await navigator.permissions.query({ name: 'camera' as PermissionName });
    } catch {
      return undefined;
    }
  },
  visibility: () => (typeof document === 'undefined' ? undefined : document),
};

/** A getUserMedia failure to a code (DOMException names of the Media Capture spec). */
export function cameraErrorFrom(err: unknown): CameraErrorCode {
  const name = err && typeof err === 'object' && 'name' in err ? String(err.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'permissionDenied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'notFound';
    case 'TypeError':
      return 'unsupported';
    default:
      return 'openFailed';
  }
}

const stopStream = (stream: MediaStream | null | undefined): void =>
  stream?.getTracks().forEach((track) => track.stop());

export function cameraConstraints(input: CameraInput): MediaStreamConstraints {
  return {
    audio: false,
    video: {
      facingMode: { ideal: input.facing },
      ...(input.width ? { width: { ideal: input.width } } : {}),
      ...(input.height ? { height: { ideal: input.height } } : {}),
    },
  };
}

export function createCameraActor(env: CameraEnv = browserCameraEnv) {
  return fromCallback<CameraCommand, CameraInput, CameraEvent>(({ input, sendBack, receive }) => {
    let stream: MediaStream | null = null;
    let stopped = false;
    let opening = false;
    let permission: (Listenable & { state: PermissionState }) | undefined;
    const visibility = env.visibility();
    const isHidden = () => visibility?.visibilityState === 'hidden';

    const release = () => {
      stopStream(stream);
      stream = null;
    };

    async function open(): Promise<void> {
      if (stopped || opening || stream) return;
      if (isHidden()) return;
      if (!env.isSecureContext())
        return sendBack({ type: 'camera.error', code: 'insecureContext' });
      const media = env.mediaDevices();
      if (!media) return sendBack({ type: 'camera.error', code: 'unsupported' });
      opening = true;
      try {
        let s: MediaStream;
        try {
          s = await media.getUserMedia(cameraConstraints(input));
        } catch (err) {
          // The preferred camera could not satisfy the constraints: fall back to any camera.
          if (cameraErrorFrom(err) !== 'notFound') throw err;
          s = await media.getUserMedia({ audio: false, video: true });
        }
        if (stopped || isHidden()) {
          stopStream(s);
          return;
        }
        stream = s;
        sendBack({ type: 'camera.ready', stream: s });
      } catch (err) {
        if (stopped) return;
        const code = cameraErrorFrom(err);
        sendBack({ type: 'camera.error', code });
        if (code === 'permissionDenied') void watchPermission();
      } finally {
        opening = false;
      }
    }

    const onPermissionChange = () => {
      if (permission?.state === 'granted' || permission?.state === 'prompt') void open();
    };

    async function watchPermission(): Promise<void> {
      if (permission) return;
      const status = await env.cameraPermission();
      if (!status || stopped) return;
      permission = status;
      status.addEventListener('change', onPermissionChange);
    }

    const onVisibility = () => {
      if (isHidden()) {
        if (stream) {
          release();
          sendBack({ type: 'camera.released' });
        }
      } else void open();
    };
    visibility?.addEventListener('visibilitychange', onVisibility);

    receive((event) => {
      if (event.type === 'camera.retry') void open();
    });

    void open();

    return () => {
      stopped = true;
      release();
      visibility?.removeEventListener('visibilitychange', onVisibility);
      permission?.removeEventListener('change', onPermissionChange);
    };
  });
}

/** The camera actor on the real browser APIs. */
export const cameraActor = createCameraActor();
