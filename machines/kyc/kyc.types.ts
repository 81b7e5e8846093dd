import type { PhotoHint } from '../shared/photo-hint';
import type { IdData, SupplementaryData } from '../../contract/onboarding';
import type {
  IdentityReason,
  LivenessChallenge,
  LivenessChallengeMode,
  LivenessCue,
  LivenessFraming,
  LivenessResponse,
} from '../../contract/identity';
import type { CameraErrorCode, CameraEvent } from '../shared/camera';
import type { PollingEvent } from '../shared/polling';

import type { SupplementaryEvent, SupplementaryForm } from './supplementary.types';
import type { AssistEvent, AssistRequest, AssistResume } from './kyc.assist.types';
import type { ClaimField } from '../../contract/cases';

/**
 * The document verification's answer as the review step sees it (docs/decisions.md, scan-id). The
 * server never trusts it at register time: it keeps its own copy of the session's result.
 */
export type KycResult = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  id_data?: IdData;
};

/** Why the identity step stopped; each code has its Spanish text in src/copy/es.kyc.ts. */
export type KycErrorCode =
  /** POST /start-kyc refused */
  | 'startKycFailed'
  /** POST /start-kyc got no answer */
  | 'network'
  | 'tooManyAttempts'
  /** a liveness request failed: polling stopped */
  | 'livenessFailed'
  /** the blink challenge did not pass in the time allowed */
  | 'livenessNotDetected'
  /** the challenge refused the selfie (issue 31: blinks not on cue, colours not seen): the server's sentence */
  | 'challengeFailed'
  /** the session is over (expired, unknown, closed, its attempts or frames spent): a new one */
  | 'sessionExpired'
  /** the photo could not be captured or read */
  | 'imageFailed'
  /** scan-id: the selfie and the card's face differ (the selfie again, in a new session) */
  | 'faceMismatch'
  /** scan-id found no portrait on the card's front (the front again) */
  | 'noFaceOnDocument'
  /** scan-id: the front shows no card, or its number and names were not read (the front again) */
  | 'frontRejected'
  /** scan-id: front and back of different cards (both sides again) */
  | 'documentMismatch'
  /** scan-id: the back's code not read, or the back missing (the back again) */
  | 'backRejected'
  /** scan-id refused the documents otherwise (the server's message when it sent one) */
  | 'documentRejected'
  /** scan-id got no answer or an unreadable one */
  | 'documentNetwork'
  /** scan-id: another scan of this session is running (409 scan_in_progress): send again after it */
  | 'scanInProgress'
  /** POST /kyc-reject failed */
  | 'rejectFailed';

/** A failure: its code, the server's sentence where it is shown, the server's reason code. */
export type KycError = { code: KycErrorCode; serverMessage?: string; reason?: IdentityReason };

/**
 * How many times each reason refused this patient's identity step, across attempts ('liveness':
 * the blink challenge not passed, in its time or on its cues and colours).
 */
export type RefusalCounts = Partial<Record<IdentityReason | 'liveness', number>>;

/**
 * What `ensureSession` answers: the session and, when the server created it, its selfie time limit
 * and challenge mode (issue 31; an older server names none: 'none').
 */
export type KycSession = {
  sessionId: string;
  livenessMs?: number;
  challenge?: LivenessChallengeMode;
};

export type KycContext = {
  sessionId: string | null;
  /** the registration new sessions are bound to (null: none, as in the stories) */
  registrationToken: string | null;
  /** where to continue once the session is there; used once */
  resume: KycResume | null;
  /** 'Seguir en mi celular' is offered (not on the phone the link opened) */
  canHandoff: boolean;
  /**
   * The first screen of a resumed registration shows (its document's front, its review): the
   * wizard's 'Retomamos tu registro' shows there only, once (issue 29 item 13).
   */
  resumedHere: boolean;
  /** the selfie challenge's time limit (the server's, from start-kyc) */
  livenessMs: number;
  error: KycError | null;
  /** which side of the cédula the document step captures ('frontal', then 'dorso') */
  side: 'front' | 'back';
  /** the open camera of the current capture step (null while none is open) */
  stream: MediaStream | null;
  cameraError: CameraErrorCode | null;
  /** the last liveness hints the patient can see, as the server sent them (an answer with none keeps them) */
  feedback: string[];
  /**
   * The framing the server answered (too far, too close, no face...; issue 41), standing until a
   * later answer says otherwise (kyc.framing.ts): said on the oval. Empty: none stands.
   */
  framing: LivenessFraming[];
  /** where the challenge stood by the last answer that said (kyc.framing.ts progressOf), null: none yet */
  progress: string | null;
  /** the session's selfie challenge (issue 31): with light, the selfie says the screen changes colour */
  challenge: LivenessChallengeMode;
  /**
   * The challenge clock's origin (the sampling actor's clock at the session's first frame), kept
   * across a stop and a start; null until the session's first frame. A new session starts over.
   */
  clockOrigin: number | null;
  /** the last answer's challenge, for the next run of the same session (after 'Detener') */
  challengeAsked: LivenessChallenge | null;
  /** 'Parpadeá ahora' shows (the sampling actor says when), or null */
  cue: LivenessCue | null;
  /** the colour painted around the oval ('#rrggbb'), or null */
  lightColour: string | null;
  front: Blob | null;
  back: Blob | null;
  /** the photo in the preview was chosen from a file ('Elegir otra imagen'), not captured */
  photoUploaded: boolean;
  /** the preview's hint before sending (photo-hint.ts): too dark, the card too far; null: none */
  photoHint: PhotoHint | null;
  kycResult: KycResult | null;
  /** the supplementary answers (the `supplementary` child's input and output) */
  form: SupplementaryForm;
  /** refusals by reason code (the assisted-verification path offers a person after two alike) */
  refusals: RefusalCounts;
  /** 'Hay un dato mal' on the review: the field the patient names, what it should say (typed) */
  claim: ClaimDraft | null;
  /** the way out asked for (issue 30): the `assist` child's request (null: none) */
  assist: AssistRequest | null;
  /** a repeat decision resumed here (the selfie or one side of the card): its notice shows */
  repeatNotice: boolean;
  /** the identity a person verified, resumed at the complementary data: its notice shows */
  verifiedNotice: boolean;
  /** a person asked for this side of the card only: the server keeps the other (scan-id gets one) */
  retakeOnly: 'front' | 'back' | null;
};

/** The review's 'Hay un dato mal' (issue 43 item 7), as the patient fills it in. */
export type ClaimDraft = { field: ClaimField | null; says: string };

/** Where a resumed registration continues inside the identity step (issue 18). */
export type KycResume =
  /** the front then the back; with `retake`, a person asked for that side only (the other is kept) */
  | { at: 'document'; retake?: 'front' | 'back' }
  /** the document the session read, shown again for review */
  | { at: 'review'; kycResult: KycResult }
  /** a case (issue 30): open, decided or expired; approved (supplementary); a repeated selfie */
  | AssistResume;

/**
 * A session the wizard already holds is reused; otherwise one is created on entry (spec 4, KYC)
 * and bound to the registration. A resumed registration continues after its passed steps; a device
 * that can hand the registration to the phone offers 'Seguir en mi celular'.
 */
export type KycInput =
  | {
      sessionId?: string | null | undefined;
      registrationToken?: string | null | undefined;
      resume?: KycResume | null | undefined;
      canHandoff?: boolean | undefined;
    }
  | undefined;

/** What the wizard's final register call needs from the identity step. */
export type KycOutput = {
  sessionId: string;
  kycResult: KycResult;
  supplementaryData: SupplementaryData;
};

export type KycEvent =
  | { type: 'kyc.retry' }
  | CameraEvent
  | { type: 'camera.retry' }
  /** the view's <video> started playing: 'Capturar' may be used */
  | { type: 'video.playing' }
  | { type: 'liveness.start' }
  | { type: 'liveness.stop' }
  /** the sampling actor's answers, clock and challenge moments */
  | SamplingEvent
  | { type: 'document.capture' }
  | { type: 'document.upload'; file: Blob }
  | { type: 'document.retake' }
  | { type: 'document.accept' }
  | { type: 'review.confirm' }
  | { type: 'review.retry' }
  /** 'Hay un dato mal': which field is wrong, what it should say, sent to a person (or not) */
  | { type: 'review.claim' }
  | { type: 'claim.field'; field: ClaimField }
  | { type: 'claim.says'; value: string }
  | { type: 'claim.send' }
  | { type: 'claim.cancel' }
  /** the supplementary form's events, forwarded to its child */
  | SupplementaryEvent
  /** 'Seguir en mi celular': the wizard hands the registration to the phone */
  | { type: 'handoff.start' }
  /** the assisted verification's events (issue 30; in a case, forwarded to the `assist` child) */
  | AssistEvent;

/** What the selfie's sampling actor tells the KYC machine (kyc.actors.ts). */
export type SamplingEvent =
  | PollingEvent<LivenessResponse>
  /** the session's first frame: the challenge clock's origin, kept for the next runs */
  | { type: 'liveness.clock'; origin: number }
  | { type: 'cue.show'; cue: LivenessCue }
  | { type: 'cue.hide' }
  /** paint `colour` (the challenge's light.colours[index]) around the oval */
  | { type: 'light.show'; index: number; colour: string }
  | { type: 'light.off' };

/** What the KYC child tells the wizard when the patient hands step 4 to the phone. */
export type HandoffStartEvent = {
  type: 'handoff.start';
  /** this device has no usable camera: its own camera is not offered back (issue 29 item 12) */
  cameraMissing: boolean;
};

export type { SupplementaryData };
