import { fromCallback, fromPromise } from 'xstate';
import {
  KYC_REJECT_REASON,
  type LivenessChallenge,
  type LivenessCue,
  type LivenessFrameTag,
  type LivenessMeta,
  type LivenessResponse,
} from '../../contract/identity';
import type { Place } from '../../contract/onboarding';
import {
  bufferFrame,
  inCueAnswer,
  selfieFramePolicy,
  type FramePolicy,
  type SampledFrame,
} from '../../contract/frame-policy';
import {
  cameraOf,
  DOCUMENT_IMAGE,
  sampleStream,
  type CaptureOptions,
} from '../shared/frame-capture';
import { guardStreamBacklight } from '../shared/exposure';
import { startPolling } from '../shared/polling';
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
import {
  challengeCueAt,
  judgedForLight,
  frameTag,
  lightIndexAt,
  logPaint,
  nextChange,
  sameCue,
  type PaintLog,
} from './kyc.challenge';
import type { KycSession, SamplingEvent } from './kyc.types';

/** The selfie oval (spec 9: 320x360). */
const SELFIE_VIEW = { width: 320, height: 360 } as const;

/** Document 'Capturar': the whole frame of the rear camera, at most 2000 px, JPEG 0.92. */
export const DOCUMENT_CAPTURE: CaptureOptions = { ...DOCUMENT_IMAGE };

/**
 * The KYC session: the one the wizard already holds, else a new one from the server, with the
 * server's selfie time limit and challenge mode (a held session keeps what the machine already
 * knows), bound to the patient's registration.
 */
export const ensureSession = fromPromise<
  KycSession,
  { sessionId: string | null; registrationToken: string | null }
>(async ({ input, signal }) => {
  if (input.sessionId) return { sessionId: input.sessionId };
  const res = await postStartKyc(signal);
  // A new session belongs to the registration: a lost page resumes after its passed steps.
  if (input.registrationToken) await postBindKyc(input.registrationToken, res.session_id, signal);
  return {
    sessionId: res.session_id,
    livenessMs: res.liveness_seconds * 1000,
    challenge: res.challenge ?? 'none',
  };
});

type LivenessSamplingInput = {
  stream: MediaStream;
  sessionId: string;
  /** the challenge clock's origin (`now()` at the session's first frame); null: not started yet */
  clockOrigin: number | null;
  /** the last answer's challenge, from an earlier run of this session (a stop and a new start) */
  challenge?: LivenessChallenge | null;
  policy?: FramePolicy;
  /** look for a bright background before the colours (the session's challenge has light) */
  backlight?: boolean;
};

/** What the sampling actor needs from the browser; tests pass fakes (the face-login actors' way). */
export type SamplingEnv = {
  /** a monotonic clock in ms (the same one `capture` stamps frames with) */
  now: () => number;
  /** starts capturing `stream` as the policy says, each frame with its capture time; returns stop */
  capture: (
    stream: MediaStream,
    policy: FramePolicy,
    onFrame: (frame: SampledFrame<Blob>) => void,
  ) => () => void;
  /** the camera's label and frame rate (the signals of issue 31) */
  camera: (stream: MediaStream) => NonNullable<LivenessMeta['camera']>;
  post: typeof postLiveness;
  /** a darker exposure before a bright background, where the camera can (shared/exposure.ts); returns stop */
  backlight?: (stream: MediaStream) => () => void;
};

const browserSamplingEnv: SamplingEnv = {
  now: () => performance.now(),
  capture: (stream, policy, onFrame) =>
    sampleStream(
      stream,
      policy.captureEveryMs,
      {
        cropAspect: SELFIE_VIEW.width / SELFIE_VIEW.height,
        maxWidth: policy.maxWidth,
        quality: policy.quality,
      },
      onFrame,
    ),
  backlight: (stream) => guardStreamBacklight(stream, SELFIE_VIEW.width / SELFIE_VIEW.height),
  camera: cameraOf,
  post: postLiveness,
};

type TaggedFrame = { data: Blob; tag: LivenessFrameTag };

/**
 * The selfie challenge while it runs: frames are captured from the camera every
 * `policy.captureEveryMs` (cropped to the oval, scaled, JPEG) into a buffer; the run's first frame
 * goes at once, alone, then every `policy.pollEveryMs`, one request in flight,
 * `policy.select(buffer, framed)` goes to POST /liveness as repeated `frame` parts and the buffer
 * starts over (`framed`: the last answer named no framing to fix; while it names one, a buffer with
 * no frame of a cue or a colour sends only its newest frames, FRAMING_PROBE_FRAMES). The server
 * decides; each answer goes to the parent as `poll.result`, the first failure as `poll.error`.
 * Leaving the state stops everything.
 *
 * The challenge (issue 31): one clock per KYC session, from its first frame (the origin comes in
 * with the input after a stop and a start); each frame is tagged with its time on it and the colour
 * index painted when it was captured, and each request carries those tags (`meta`), with the camera
 * on the first request of a run. Each answer's challenge is run on the clock: the actor tells the
 * machine when the cue shows and hides and which colour to paint (kyc.challenge.ts).
 */
export const createLivenessSampling = (env: SamplingEnv = browserSamplingEnv) =>
  fromCallback<{ type: 'noop' }, LivenessSamplingInput, SamplingEvent>(({ input, sendBack }) => {
    const policy = input.policy ?? selfieFramePolicy;
    let origin = input.clockOrigin;
    let challenge = input.challenge ?? null;
    let buffer: SampledFrame<TaggedFrame>[] = [];
    let paints: PaintLog = [];
    let cue: LivenessCue | null = null;
    /** When the cue on screen showed (on the clock): a late answer shows it after its `at`. */
    let cueShownAt: number | null = null;
    let light: { index: number; colour: string | null } = { index: -1, colour: null };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cameraSent = false;
    let stopped = false;
    /** The last answer's framing: false while the oval asks to move (FRAMING_PROBE_FRAMES). */
    let framed = true;

    /** Shows what the challenge asks for now and sets the timer for its next change. */
    const show = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (stopped || origin === null) return;
      const t = env.now() - origin;
      const nextCue = challengeCueAt(challenge, t);
      if (!sameCue(nextCue, cue)) {
        cue = nextCue;
        cueShownAt = cue ? t : null;
        sendBack(cue ? { type: 'cue.show', cue } : { type: 'cue.hide' });
      }
      const index = lightIndexAt(challenge?.light, t);
      const colour = index >= 0 ? challenge!.light!.colours[index]!.colour : null;
      if (index !== light.index || colour !== light.colour) {
        light = { index, colour };
        paints = logPaint(paints, t, index);
        sendBack(colour ? { type: 'light.show', index, colour } : { type: 'light.off' });
      }
      const next = nextChange(challenge, t);
      if (next !== null) timer = setTimeout(show, Math.max(1, Math.ceil(next - t)));
    };

    // The requests start with the run's first frame, which goes alone (FramePolicy.pollEveryMs).
    let polling = false;
    let stopPolling = () => {};
    const startRequests = () => {
      polling = true;
      stopPolling = startPolling<LivenessResponse | null>(
        {
          intervalMs: policy.pollEveryMs,
          request: async (signal) => {
            const frames = policy.select(buffer, framed);
            buffer = [];
            if (frames.length === 0) return null;
            const meta: LivenessMeta = { frames: frames.map((f) => f.data.tag) };
            if (!cameraSent) {
              meta.camera = env.camera(input.stream);
              cameraSent = true;
            }
            return env.post(
              input.sessionId,
              frames.map((f) => f.data.data),
              signal,
              meta,
            );
          },
        },
        (result) => {
          if (!result) return;
          framed = !result.framing?.length;
          challenge = result.challenge ?? null;
          show();
          sendBack({ type: 'poll.result', result });
        },
        (error) => sendBack({ type: 'poll.error', error }),
      );
    };
    const stopCapture = env.capture(input.stream, policy, (frame) => {
      if (stopped) return;
      if (origin === null) {
        origin = frame.capturedAt;
        sendBack({ type: 'liveness.clock', origin });
      }
      const tag = frameTag(paints, frame.capturedAt - origin);
      const cued = challengeCueAt(challenge, tag.t) !== null;
      const lit = judgedForLight(challenge?.light, tag);
      buffer = bufferFrame(policy, buffer, {
        capturedAt: frame.capturedAt,
        data: { data: frame.data, tag },
        cued,
        answer: cued && cue !== null && inCueAnswer(cueShownAt, tag.t),
        lit,
        ...(lit ? { colour: tag.light } : {}),
      });
      if (!polling) startRequests();
    });
    // A run after a stop goes on with the session's challenge at once (its past is skipped).
    show();
    const stopBacklight = (input.backlight && env.backlight?.(input.stream)) || (() => {});

    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      stopCapture();
      stopPolling();
      stopBacklight();
    };
  });

export const livenessSampling = createLivenessSampling();

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
