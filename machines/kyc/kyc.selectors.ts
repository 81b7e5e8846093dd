import type { SnapshotFrom } from 'xstate';
import { kycDataFromIdData } from '../../contract/onboarding';
import { CLAIM_FIELDS, CLAIM_SAYS_MAX } from '../../contract/cases';
import { formatCardDate, formatDocumentNumber } from '../shared/format';
import { framingHints, visibleFeedback, type FramingHint } from './kyc.framing';
import type { KycMachine } from './kyc.machine';

type Snapshot = SnapshotFrom<KycMachine>;

type KycScreen =
  | 'loading'
  | 'failed'
  | 'selfie'
  | 'frontal'
  | 'dorso'
  | 'verifying'
  | 'documentRegistered'
  | 'rejected'
  | 'review'
  | 'supplementary'
  | 'done'
  /** the way out (issue 30): the offer and the case (kyc.assist.selectors.ts) */
  | 'assist';

export function selectKycScreen(s: Snapshot): KycScreen {
  if (s.matches('failed')) return 'failed';
  if (s.matches('selfie')) return 'selfie';
  if (s.matches('document')) return s.context.side === 'front' ? 'frontal' : 'dorso';
  if (s.matches('verifying') || s.matches('checkingDocument')) return 'verifying';
  if (s.matches('documentRegistered')) return 'documentRegistered';
  if (s.matches('rejected')) return 'rejected';
  if (s.matches('review')) return 'review';
  if (s.matches('supplementary')) return 'supplementary';
  if (s.matches('done')) return 'done';
  if (s.matches('assist')) return 'assist';
  return 'loading';
}

/**
 * 'Seguir en mi celular' is offered on the capture steps (the selfie, the document's live camera,
 * and their camera failures) where the wizard can hand the registration to the phone.
 */
export const selectCanHandoff = (s: Snapshot): boolean =>
  s.context.canHandoff && (s.matches('selfie') || s.matches({ document: 'live' }));

/**
 * Where 'Seguir en mi celular' stands (issue 29 item 12): 'first', the primary action above the
 * camera's problem, when the camera is missing, refused or unusable; 'last', a secondary choice
 * below the camera; null where it is not offered.
 */
export const selectHandoffPlace = (s: Snapshot): 'first' | 'last' | null => {
  if (!selectCanHandoff(s)) return null;
  const cameraFailed =
    s.matches({ selfie: 'cameraFailed' }) || s.matches({ document: { live: 'cameraFailed' } });
  return cameraFailed ? 'first' : 'last';
};

/** The entry (session) and the failure screens. */
export const selectKycView = (s: Snapshot) => ({
  screen: selectKycScreen(s),
  busy: s.hasTag('busy'),
  error: s.hasTag('error') ? s.context.error : null,
  canRetry: s.can({ type: 'kyc.retry' }),
  canHandoff: selectCanHandoff(s),
});

/** Hints the patient sees: lines about duplicate frames are hidden (spec 5). */
export { visibleFeedback };
export type { FramingHint };

type SelfiePhase = 'opening' | 'idle' | 'running' | 'passed' | 'failed' | 'cameraFailed';
/** The one button of the selfie: 'Iniciar validación', 'Detener', 'Intentar nuevamente', 'Redirigiendo...'. */
export type SelfieButton = 'start' | 'stop' | 'retry' | 'redirecting';

const selfiePhases: readonly SelfiePhase[] = [
  'opening',
  'idle',
  'running',
  'passed',
  'failed',
  'cameraFailed',
];

export function selectSelfieView(s: Snapshot) {
  const phase = selfiePhases.find((p) => s.matches({ selfie: p })) ?? 'opening';
  const button: SelfieButton =
    phase === 'running'
      ? 'stop'
      : phase === 'passed'
        ? 'redirecting'
        : phase === 'failed'
          ? 'retry'
          : 'start';
  const event =
    phase === 'running'
      ? ({ type: 'liveness.stop' } as const)
      : ({ type: 'liveness.start' } as const);
  return {
    phase,
    stream: s.context.stream,
    cameraError: phase === 'cameraFailed' ? s.context.cameraError : null,
    button,
    buttonEvent: event,
    buttonEnabled: s.can(event),
    feedback: visibleFeedback(s.context.feedback),
    error: phase === 'failed' ? s.context.error : null,
    canRetryCamera: s.can({ type: 'camera.retry' }),
    ...selectChallengeView(s, phase),
  };
}

/**
 * The selfie challenge on screen (issue 31): the intro asks to blink on the cue when the server
 * asks for each blink; before the start, with light, the notice that the screen changes colour;
 * while it runs, 'Parpadeá ahora' and the colour around the oval, as the sampling actor says, and
 * on the oval what to change in the framing (issue 41, kyc.framing.ts): the framing the server
 * answered while it stands, or after 3 s without progress why (the generic 'stalled' when no
 * framing stands); empty when nothing is to be said.
 */
function selectChallengeView(s: Snapshot, phase: SelfiePhase) {
  const mode = s.context.challenge;
  const running = phase === 'running';
  return {
    onCue: mode !== 'none',
    lightNotice: mode === 'cues,light' && (phase === 'opening' || phase === 'idle'),
    cue: running && s.context.cue !== null,
    lightColour: running ? s.context.lightColour : null,
    framing: running
      ? framingHints(s.context.framing, s.matches({ selfie: { running: 'stalled' } }))
      : ([] as FramingHint[]),
  };
}

type DocumentPhase =
  | 'opening'
  | 'waiting'
  | 'playing'
  | 'capturing'
  | 'failedCapture'
  | 'cameraFailed'
  | 'preparing'
  | 'preview';

const livePhases = [
  'opening',
  'waiting',
  'playing',
  'capturing',
  'failedCapture',
  'cameraFailed',
] as const;

export function selectDocumentView(s: Snapshot) {
  const live = livePhases.find((p) => s.matches({ document: { live: p } }));
  const phase: DocumentPhase =
    live ?? (s.matches({ document: 'preparing' }) ? 'preparing' : 'preview');
  const side = s.context.side;
  return {
    side,
    phase,
    live: live !== undefined,
    stream: live ? s.context.stream : null,
    cameraError: phase === 'cameraFailed' ? s.context.cameraError : null,
    canCapture: s.can({ type: 'document.capture' }),
    /** 'La cámara aún no está lista. Esperá unos segundos.' while the video does not play */
    cameraNotReady: phase === 'opening' || phase === 'waiting',
    canUpload: s.can({ type: 'document.upload', file: new Blob() }),
    busy: s.hasTag('busy'),
    image: phase === 'preview' ? (side === 'front' ? s.context.front : s.context.back) : null,
    /** 'dark', 'small' or 'noCard' on the preview: what to fix before sending (the copy says it) */
    photoHint: phase === 'preview' ? s.context.photoHint : null,
    /** the preview's other choice: another file after an upload, else the camera again */
    retake: s.context.photoUploaded ? ('chooseFile' as const) : ('capture' as const),
    error: s.context.error,
  };
}

/**
 * Review 'Verificá tus datos' reads like the card: the number with its dots (2.719.564), dates as
 * printed (DD/MM/AAAA); the sex stays a code (F, M) for the copy to name (FEMENINO); the
 * nationality comes in words from the server (PARAGUAYA).
 */
export const formatBirthDate = formatCardDate;

export function selectReviewView(s: Snapshot) {
  const id = s.context.kycResult?.id_data;
  const data = id ? kycDataFromIdData(id) : null;
  return {
    data: data
      ? {
          ...data,
          numeroDocumento: formatDocumentNumber(data.numeroDocumento),
          fechaNacimiento: formatCardDate(data.fechaNacimiento),
          sexo: data.sexo.trim().toUpperCase(),
          nacionalidad: data.nacionalidad.trim().toUpperCase(),
        }
      : null,
    busy: s.hasTag('busy'),
    error: s.matches({ review: 'rejectFailed' }) ? s.context.error : null,
    canConfirm: s.can({ type: 'review.confirm' }),
    canRetry: s.can({ type: 'review.retry' }),
    /** 'Hay un dato mal' (issue 43 item 7) */
    canClaim: s.can({ type: 'review.claim' }),
    /** choosing the field read wrong: the claim's form instead of the data */
    claiming: s.matches({ review: 'claiming' }),
  };
}

/** 'Hay un dato mal': the fields to choose from, the choice, and whether it can go to a person. */
export function selectReviewClaimView(s: Snapshot) {
  return {
    fields: CLAIM_FIELDS,
    field: s.context.claim?.field ?? null,
    says: s.context.claim?.says ?? '',
    /** how long what it should say may be */
    saysMax: CLAIM_SAYS_MAX,
    canSend: s.can({ type: 'claim.send' }),
  };
}

/** The supplementary form's child while it runs (none when restored from a fixture, or done). */
export const selectSupplementaryActor = (s: Snapshot) => s.children.supplementary;
