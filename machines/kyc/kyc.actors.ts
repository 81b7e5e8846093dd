import { fromCallback, fromPromise } from 'xstate';
import { KYC_REJECT_REASON, type LivenessResponse } from '../../contract/identity';
import type { Place } from '../../contract/onboarding';
import {
  bufferFrame,
  selfieFramePolicy,
  type FramePolicy,
  type SampledFrame,
} from '../../contract/frame-policy';
import {
  DOCUMENT_IMAGE,
  releaseVideo,
  startSampling,
  videoOf,
  type CaptureOptions,
} from '../shared/frame-capture';
import { startPolling, type PollingEvent } from '../shared/polling';
import {
  getCities,
  postBindKyc,
  postDocumentCheck,
  getDepartments,
  postKycReject,
  postLiveness,
  postScanId,
  postStartKyc,
} from './kyc.api';
import type { KycSession } from './kyc.types';

/** The selfie oval (spec 9: 320x360). */
const SELFIE_VIEW = { width: 320, height: 360 } as const;

/** Document 'Capturar': the whole frame of the rear camera, at most 2000 px, JPEG 0.92. */
export const DOCUMENT_CAPTURE: CaptureOptions = { ...DOCUMENT_IMAGE };

/**
 * The KYC session: the one the wizard already holds, else a new one from the server, with the
 * server's selfie time limit (a held session keeps the limit the machine already knows), bound to
 * the patient's registration.
 */
export const ensureSession = fromPromise<
  KycSession,
  { sessionId: string | null; registrationToken: string | null }
>(async ({ input, signal }) => {
  if (input.sessionId) return { sessionId: input.sessionId };
  const res = await postStartKyc(signal);
  // A new session belongs to the registration: a lost page resumes after its passed steps.
  if (input.registrationToken) await postBindKyc(input.registrationToken, res.session_id, signal);
  return { sessionId: res.session_id, livenessMs: res.liveness_seconds * 1000 };
});

type LivenessSamplingInput = {
  stream: MediaStream;
  sessionId: string;
  policy?: FramePolicy;
};

/**
 * The selfie challenge while it runs: frames are captured from the camera every
 * `policy.captureEveryMs` (cropped to the oval, scaled, JPEG) into a buffer, and every
 * `policy.pollEveryMs`, one request in flight, `policy.select(buffer)` goes to POST /liveness as
 * repeated `frame` parts and the buffer starts over. The server decides; each answer goes to the
 * parent as `poll.result`, the first failure as `poll.error`. Leaving the state stops everything.
 */
export const livenessSampling = fromCallback<
  { type: 'noop' },
  LivenessSamplingInput,
  PollingEvent<LivenessResponse>
>(({ input, sendBack }) => {
  const policy = input.policy ?? selfieFramePolicy;
  const controller = new AbortController();
  let buffer: SampledFrame<Blob>[] = [];
  let video: HTMLVideoElement | null = null;
  let stopSampling = () => {};
  videoOf(input.stream, controller.signal)
    .then((v) => {
      video = v;
      if (controller.signal.aborted) return releaseVideo(v);
      stopSampling = startSampling(
        v,
        policy.captureEveryMs,
        {
          cropAspect: SELFIE_VIEW.width / SELFIE_VIEW.height,
          maxWidth: policy.maxWidth,
          quality: policy.quality,
        },
        (frame) => {
          buffer = bufferFrame(policy, buffer, frame);
        },
      );
    })
    .catch(() => {});
  const stopPolling = startPolling<LivenessResponse | null>(
    {
      intervalMs: policy.pollEveryMs,
      delayFirst: true,
      request: async (signal) => {
        const frames = policy.select(buffer);
        buffer = [];
        if (frames.length === 0) return null;
        return postLiveness(
          input.sessionId,
          frames.map((f) => f.data),
          signal,
        );
      },
    },
    (result) => result && sendBack({ type: 'poll.result', result }),
    (error) => sendBack({ type: 'poll.error', error }),
  );
  return () => {
    controller.abort();
    stopSampling();
    stopPolling();
    releaseVideo(video);
  };
});

export const verifyDocuments = fromPromise<
  Awaited<ReturnType<typeof postScanId>>,
  { sessionId: string; front: Blob | null; back: Blob | null }
>(({ input, signal }) => postScanId(input.sessionId, input.front, input.back, signal));

/** The card read is already a patient's (true): said at once, not after 'Finalizar'. */
export const checkDocument = fromPromise<boolean, { registrationToken: string; sessionId: string }>(
  ({ input, signal }) => postDocumentCheck(input.registrationToken, input.sessionId, signal),
);

export const rejectKyc = fromPromise<void, { sessionId: string }>(async ({ input, signal }) => {
  await postKycReject(input.sessionId, KYC_REJECT_REASON, signal);
});

export const loadDepartments = fromPromise<Place[]>(({ signal }) => getDepartments(signal));

export const loadCities = fromPromise<Place[], { departmentId: string }>(({ input, signal }) =>
  getCities(input.departmentId, signal),
);
