import type { PhotoHint } from '../shared/photo-hint';
import type { BloodType, IdData, Place, SupplementaryData } from '../../contract/onboarding';
import type { LivenessResponse } from '../../contract/identity';
import type { CameraErrorCode, CameraEvent } from '../shared/camera';
import type { FlowError } from '../shared/errors';
import type { PollingEvent } from '../shared/polling';

/**
 * The document verification's answer as the review step sees it (docs/decisions.md, scan-id). The
 * server never trusts it at register time: it keeps its own copy of the session's result.
 */
/** The supplementary form's blood types, 'No sé' first (its view lists them). */
export { BLOOD_TYPES } from '../../contract/onboarding';

export type KycResult = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  id_data?: IdData;
};

/** Why the identity step stopped; each code has its Spanish text in src/copy/es.onboarding.ts. */
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
  /** the server says the session expired or is not valid (selfie or documents) */
  | 'sessionExpired'
  /** the photo could not be captured or read */
  | 'imageFailed'
  /** scan-id: 'Face verification failed' */
  | 'faceMismatch'
  /** scan-id refused the documents (the server's message when it sent one) */
  | 'documentRejected'
  /** scan-id got no answer or an unreadable one */
  | 'documentNetwork'
  /** POST /kyc-reject failed */
  | 'rejectFailed'
  | 'departmentsFailed'
  | 'citiesFailed'
  /** the verified document has no number: the supplementary form cannot be sent */
  | 'documentMissing';

export type KycError = { code: KycErrorCode; serverMessage?: string };

export type SupplementaryFieldErrors = {
  departamento: 'departmentRequired' | null;
  ciudad_id: 'cityRequired' | null;
};

export type SupplementaryForm = {
  tipoSangre: BloodType;
  direccion: string;
  departamento: string;
  ciudad_id: string;
};

/** What `ensureSession` answers: the session and, when the server created it, its selfie time limit. */
export type KycSession = { sessionId: string; livenessMs?: number };

export type KycContext = {
  sessionId: string | null;
  /** the registration new sessions are bound to (null: none, as in the stories) */
  registrationToken: string | null;
  /** where to continue once the session is there; used once */
  resume: KycResume | null;
  /** 'Seguir en mi celular' is offered (not on the phone the link opened) */
  canHandOff: boolean;
  /** the selfie challenge's time limit (the server's, from start-kyc) */
  livenessMs: number;
  error: KycError | null;
  /** which side of the cédula the document step captures ('frontal', then 'dorso') */
  side: 'front' | 'back';
  /** the open camera of the current capture step (null while none is open) */
  stream: MediaStream | null;
  cameraError: CameraErrorCode | null;
  /** the last liveness hints, as the server sent them */
  feedback: string[];
  front: Blob | null;
  back: Blob | null;
  /** the preview's hint before sending (photo-hint.ts): too dark, the card too far; null: none */
  photoHint: PhotoHint | null;
  kycResult: KycResult | null;
  departments: Place[];
  cities: Place[];
  form: SupplementaryForm;
  fieldErrors: SupplementaryFieldErrors;
  /** refused supplementary submits: each sends the focus to the first field to fix */
  failures: number;
};

/** Where a resumed registration continues inside the identity step (issue 18). */
export type KycResume =
  | { at: 'document' }
  /** the document the session read, shown again for review */
  | { at: 'review'; kycResult: KycResult };

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
      canHandOff?: boolean | undefined;
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
  | PollingEvent<LivenessResponse>
  | { type: 'document.capture' }
  | { type: 'document.upload'; file: Blob }
  | { type: 'document.retake' }
  | { type: 'document.accept' }
  | { type: 'review.confirm' }
  | { type: 'review.retry' }
  | { type: 'blood.change'; value: string }
  | { type: 'address.change'; value: string }
  | { type: 'department.change'; value: string }
  | { type: 'city.change'; value: string }
  | { type: 'places.retry' }
  | { type: 'supplementary.submit' }
  /** 'Seguir en mi celular': the wizard hands the registration to the phone */
  | { type: 'handoff.start' };

export type { FlowError, SupplementaryData };
