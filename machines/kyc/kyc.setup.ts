import { assign, forwardTo, sendTo, setup } from 'xstate';
import { cameraActor } from '../shared/camera';
import { frameCaptureActor, imageScalingActor, photoHintActor } from '../shared/frame-capture';
import {
  checkDocument,
  ensureSession,
  livenessSampling,
  rejectKyc,
  verifyDocuments,
} from './kyc.actors';
import { assistMachine } from './kyc.assist.machine';
import { countRefusal, documentErrorOf, isTransient, retakeOf, type Retake } from './kyc.errors';
import type { KycContext, KycError, KycEvent, KycInput, KycOutput, KycSession } from './kyc.types';
import { framingAfter, progressOf, showsProgress, STALL_MS } from './kyc.framing';
import { emptySupplementaryForm, supplementaryMachine } from './supplementary.machine';
import type { InsightStateMeta } from '../insight/meta';
import type { AssistRequest } from './kyc.assist.types';

/** The selfie time limit until the server names its own (its IDENTITY_LIVENESS_SECONDS default). */
export const DEFAULT_LIVENESS_MS = 120_000;

/** A fresh identity step (after the wizard's input, a retry or a rejection). */
export const initialKycContext = (
  sessionId: string | null,
  livenessMs = DEFAULT_LIVENESS_MS,
  input: NonNullable<KycInput> = {},
): KycContext => ({
  sessionId,
  registrationToken: input.registrationToken ?? null,
  resume: input.resume ?? null,
  canHandoff: input.canHandoff ?? false,
  resumedHere: false,
  livenessMs,
  error: null,
  side: 'front',
  stream: null,
  cameraError: null,
  feedback: [],
  framing: [],
  progress: null,
  challenge: 'none',
  clockOrigin: null,
  challengeAsked: null,
  cue: null,
  lightColour: null,
  front: null,
  back: null,
  photoUploaded: false,
  photoHint: null,
  kycResult: null,
  form: emptySupplementaryForm,
  refusals: {},
  claim: null,
  assist: null,
  repeatNotice: false,
  verifiedNotice: false,
  retakeOnly: null,
});

/**
 * The identity step's types, actors, delays, guards and actions (kyc.machine.ts puts its states
 * together; kyc.capture.ts holds the selfie and the document capture).
 */
export const kycSetup = setup({
  types: {
    meta: {} as InsightStateMeta,
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
      checkDocument: 'checkDocument';
      rejectKyc: 'rejectKyc';
      supplementary: 'supplementary';
      assist: 'assist';
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
    checkDocument,
    rejectKyc,
    supplementary: supplementaryMachine,
    assist: assistMachine,
  },
  delays: {
    /** spec 9: on to the document 1.2 s after a passed selfie */
    redirect: 1_200,
    /**
     * The blink challenge's time: the server's limit (from start-kyc). The server counts from the
     * first frame and answers `time_up` when it is over; this bounds the polling if it never does.
     */
    livenessTimeout: ({ context }) => context.livenessMs,
    /** issue 41: this long without progress on the challenge, the oval says why (kyc.framing.ts) */
    stall: STALL_MS,
  },
  guards: {
    isLive: ({ event }) => event.type === 'poll.result' && event.result.liveness_detected,
    isTimeUp: ({ event }) => event.type === 'poll.result' && event.result.time_up,
    /** the answer shows progress on the challenge (kyc.framing.ts) */
    isProgress: ({ context, event }) =>
      event.type === 'poll.result' && showsProgress(context.progress, event.result),
    isTransientScanError: ({ event }) => isTransient(documentErrorOf(event)),
    isRetake: ({ event }, params: { retake: Retake }) =>
      retakeOf(documentErrorOf(event)) === params.retake,
  },
  actions: {
    clearError: assign({ error: null }),
    forwardToSupplementary: forwardTo('supplementary'),
    forwardToAssist: forwardTo('assist'),
    /** a failure shown, counted by its reason code */
    assignFailure: assign(({ context }, error: KycError) => ({
      error,
      refusals: countRefusal(context.refusals, error),
    })),
    /** the way out asked for (issue 30): which case, why, on which step (the child's input) */
    assignAssist: assign((_, assist: AssistRequest) => ({ assist })),
    // Resuming after a person's decision (issue 30), once the session is there:
    /** they verified the identity: the complementary data, with what they verified */
    assignResumedApproval: assign(({ context }) => ({
      kycResult:
        context.resume?.at === 'supplementary'
          ? { success: true, kyc_complete: true, id_data: context.resume.idData }
          : null,
      resume: null,
      verifiedNotice: true,
    })),
    /** the document: one side only when a person asked for it (the server kept the other) */
    assignResumedDocument: assign(({ context }) => {
      const retake = context.resume?.at === 'document' ? context.resume.retake : undefined;
      return retake
        ? { resume: null, side: retake, retakeOnly: retake, repeatNotice: true }
        : { resume: null, resumedHere: true };
    }),
    /** the selfie: a person asked for it again (said on it), or a new attempt */
    assignResumedSelfie: assign(({ context }) => ({
      repeatNotice: context.resume?.at === 'selfie',
      resume: null,
    })),
    /** the photos a refused document asks for again: the capture starts at the first of them */
    retake: assign((_, { retake }: { retake: Retake }) =>
      retake === 'back'
        ? { side: 'back' as const, back: null }
        : { side: 'front' as const, front: null, ...(retake === 'both' ? { back: null } : {}) },
    ),
    assignSession: assign(({ context }, session: KycSession) => ({
      sessionId: session.sessionId,
      livenessMs: session.livenessMs ?? context.livenessMs,
      challenge: session.challenge ?? context.challenge,
      // A new session has a clock and a challenge of its own.
      ...(session.sessionId === context.sessionId
        ? {}
        : { clockOrigin: null, challengeAsked: null }),
    })),
    /**
     * An answer's hints (an answer with none the patient can see keeps the last), the framing that
     * stands after it and where the challenge stands (issue 41, kyc.framing.ts), and its challenge
     * for the next run of the session (after 'Detener'). A session the wizard held names no mode:
     * its answers say it (a challenge, with or without light).
     */
    assignLivenessAnswer: assign(({ context, event }) => {
      if (event.type !== 'poll.result') return {};
      const { result } = event;
      const asked = result.challenge ?? null;
      const challenge =
        !asked || context.challenge === 'cues,light'
          ? context.challenge
          : asked.light
            ? ('cues,light' as const)
            : ('cues' as const);
      const progress = progressOf(result);
      return {
        feedback: progress === null ? context.feedback : result.feedback,
        framing: framingAfter(context.framing, result, showsProgress(context.progress, result)),
        progress: progress ?? context.progress,
        challengeAsked: asked,
        challenge,
      };
    }),
    assignNotDetected: assign(({ context }) => {
      const error: KycError = { code: 'livenessNotDetected' };
      return { error, refusals: countRefusal(context.refusals, error) };
    }),
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
        canHandoff: context.canHandoff,
      }),
      // The patient's supplementary answers are theirs: a retry does not erase them.
      form: context.form,
      refusals: context.refusals,
    })),
  },
});
