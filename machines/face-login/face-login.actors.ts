import { fromCallback, fromPromise } from 'xstate';
import { FACE_LOGIN_MIN_INTERVAL_MS, type FaceLoginFrameResponse } from '../../contract/face-login';
import { browserCameraEnv, cameraActor } from '../shared/camera';
import { captureFrame, releaseVideo, videoOf, type CaptureOptions } from '../shared/frame-capture';
import { startPolling, type PollingEvent } from '../shared/polling';
import { postActivate, postFrame, postStart, postStop } from './face-login.api';

/** Frames for face authentication (spec 9): JPEG 0.92, square crop, mirrored unless switched off. */
const frameOptions = (mirror: boolean): CaptureOptions => ({
  cropAspect: 1,
  mirror,
  quality: 0.92,
});

/** The kiosk's camera (spec 9): front-facing, ideal 640x480, no audio. */
export const KIOSK_CAMERA = { facing: 'user', width: 640, height: 480 } as const;

/**
 * What the browser says about the camera permission without asking (the Permissions API):
 * 'granted' lets a kiosk start by itself after a reload or a power cut; 'unknown' where the API is
 * missing.
 */
export const cameraPermission = fromPromise<PermissionState | 'unknown'>(async () => {
  const status = await browserCameraEnv.cameraPermission();
  return status?.state ?? 'unknown';
});

export const startSession = fromPromise(
  ({ input, signal }: { input: { prefix: string }; signal: AbortSignal }) =>
    postStart(input.prefix, signal),
);

/** POST stop; the page ignores its errors (spec 7). */
export const stopSession = fromPromise<void, { prefix: string; sessionId: string | null }>(
  async ({ input }) => {
    if (input.sessionId) await postStop(input.prefix, input.sessionId).catch(() => {});
  },
);

export const activateDevice = fromPromise(
  ({ input, signal }: { input: { token: string }; signal: AbortSignal }) =>
    postActivate(input.token, signal),
);

export type FramePollingInput = {
  prefix: string;
  sessionId: string;
  video: HTMLVideoElement;
  mirror: boolean;
  intervalMs: number;
};

/**
 * The shared polling loop (one request in flight, the server's recommended interval, never below
 * 100 ms) whose request captures a frame from the video and posts it.
 */
export const framePolling = fromCallback<
  { type: 'noop' },
  FramePollingInput,
  PollingEvent<FaceLoginFrameResponse>
>(({ input, sendBack }) =>
  startPolling<FaceLoginFrameResponse>(
    {
      intervalMs: input.intervalMs,
      minIntervalMs: FACE_LOGIN_MIN_INTERVAL_MS,
      intervalFrom: (r) => r.recommended_interval_ms,
      request: async (signal) =>
        postFrame(
          input.prefix,
          input.sessionId,
          await captureFrame(input.video, frameOptions(input.mirror)),
          signal,
        ),
    },
    (result) => sendBack({ type: 'poll.result', result }),
    (error) => sendBack({ type: 'poll.error', error }),
  ),
);

/** A video element's progress, as the watchdog reads it (tests pass fakes). */
type WatchedVideo = { currentTime: number; readyState: number };
type WatchdogEnv = {
  videoOf: (stream: MediaStream, signal: AbortSignal) => Promise<HTMLVideoElement>;
  release: (video: HTMLVideoElement) => void;
  /** how often progress is checked, and how long without a new frame counts as frozen */
  everyMs: number;
  stallMs: number;
};
const browserWatchdogEnv: WatchdogEnv = {
  videoOf,
  release: releaseVideo,
  everyMs: 1000,
  stallMs: 4000,
};

type WatchdogEvent = { type: 'video.ready'; video: HTMLVideoElement } | { type: 'camera.stalled' };

/**
 * Watches a camera stream for hours: plays it in a video element of its own (frames are captured
 * from it), reports `video.ready`, then `camera.stalled` when a track ends or no new frame arrived
 * for `stallMs` (a frozen camera), so the machine reopens the camera.
 */
export function createWatchdog(env: WatchdogEnv = browserWatchdogEnv) {
  return fromCallback<{ type: 'noop' }, { stream: MediaStream }, WatchdogEvent>(
    ({ input, sendBack }) => {
      const controller = new AbortController();
      let video: HTMLVideoElement | null = null;
      let timer: ReturnType<typeof setInterval> | undefined;
      let reported = false;
      const stalled = () => {
        if (reported || controller.signal.aborted) return;
        reported = true;
        sendBack({ type: 'camera.stalled' });
      };
      const tracks = input.stream.getVideoTracks();
      tracks.forEach((t) => t.addEventListener('ended', stalled));
      env.videoOf(input.stream, controller.signal).then(
        (v) => {
          if (controller.signal.aborted) return env.release(v);
          video = v;
          sendBack({ type: 'video.ready', video: v });
          let last = v.currentTime;
          let still = 0;
          timer = setInterval(() => {
            const now = (video as WatchedVideo | null)?.currentTime ?? last;
            if (now !== last) {
              last = now;
              still = 0;
            } else if ((still += env.everyMs) >= env.stallMs) stalled();
          }, env.everyMs);
        },
        () => stalled(),
      );
      return () => {
        controller.abort();
        if (timer !== undefined) clearInterval(timer);
        tracks.forEach((t) => t.removeEventListener('ended', stalled));
        if (video) env.release(video);
      };
    },
  );
}
export const cameraWatchdog = createWatchdog();

export { cameraActor as camera };
