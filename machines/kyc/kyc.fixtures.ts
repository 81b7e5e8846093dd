import { assistFixturesFrom } from './kyc.assist.fixtures';
import { kycMachine } from './kyc.machine';
import { initialKycContext } from './kyc.setup';
import type { KycContext } from './kyc.types';

const SESSION = '5f0c2a4e-9b1d-4c8e-a7f3-2d6b8e1c9a40';

/** A small stand-in for a photographed cédula (SVG, so stories and tests need no file). */
const photo = (label: string): Blob =>
  new Blob(
    [
      `<svg xmlns="http://www.w3.org/2000/svg" width="856" height="540"><rect width="856" height="540" rx="24" fill="#dfe9f3"/><rect x="40" y="120" width="220" height="280" fill="#b8c7d6"/><text x="300" y="200" font-size="40" font-family="sans-serif">${label}</text></svg>`,
    ],
    { type: 'image/svg+xml' },
  );

const base: KycContext = initialKycContext(SESSION);
const selfie: KycContext = { ...base, stream: null };
/** A session with the challenge (issue 31): the server asks for each blink and lights the face. */
const challengeSelfie: KycContext = { ...selfie, challenge: 'cues,light', clockOrigin: 0 };
const cue = { n: 2, of: 2, at: 6400, until: 7900 };
/** Where the challenge stands, as the server says it between cues. */
const waiting = ['Esperá la señal y parpadeá.', 'Parpadeos: 1 de 3.'];
const feedback = [
  'Parpadeá despacio (1 de 3).',
  'frame duplicado: la imagen se repite, no cuenta.',
  'Quedate quieto/a un momento.',
];
const front: KycContext = { ...base, side: 'front' };
const back: KycContext = { ...base, side: 'back', front: photo('FRENTE') };
const verified: KycContext = {
  ...back,
  back: photo('DORSO'),
  kycResult: {
    success: true,
    kyc_complete: true,
    id_data: {
      FullName: 'GONZALEZ BENITEZ MARIA JOSE',
      DocumentNumber: '4567890',
      DateOfBirth: '1990-04-12',
      Gender: 'F',
      Nationality: 'PARAGUAYA',
      MaritalStatus: 'SOLTERA',
    },
  },
};
type Value = Parameters<typeof kycMachine.resolveState>[0]['value'];
const at = (value: Value, context: KycContext) => kycMachine.resolveState({ value, context });

/** One named snapshot per leaf state (and error variant), for stories and tests. */
export const kycFixtures = {
  starting: at('starting', initialKycContext(null)),
  failedStartKyc: at('failed', { ...initialKycContext(null), error: { code: 'startKycFailed' } }),
  failedServerMessage: at('failed', {
    ...initialKycContext(null),
    error: {
      code: 'startKycFailed',
      serverMessage: 'El servicio de verificación no está disponible.',
    },
  }),
  failedNetwork: at('failed', { ...initialKycContext(null), error: { code: 'network' } }),
  failedTooManyAttempts: at('failed', {
    ...initialKycContext(null),
    error: {
      code: 'tooManyAttempts',
      serverMessage: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
    },
  }),
  selfieOpening: at({ selfie: 'opening' }, selfie),
  selfieIdle: at({ selfie: 'idle' }, selfie),
  selfieRunning: at({ selfie: 'running' }, { ...selfie, feedback }),
  selfiePassed: at(
    { selfie: 'passed' },
    { ...selfie, feedback: ['¡Listo! Validación de vida completada.'] },
  ),
  selfieFailed: at({ selfie: 'failed' }, { ...selfie, error: { code: 'livenessFailed' } }),
  selfieNotDetected: at(
    { selfie: 'failed' },
    { ...selfie, error: { code: 'livenessNotDetected' } },
  ),
  selfieCameraDenied: at(
    { selfie: 'cameraFailed' },
    { ...selfie, cameraError: 'permissionDenied' },
  ),
  selfieCameraInsecure: at(
    { selfie: 'cameraFailed' },
    { ...selfie, cameraError: 'insecureContext' },
  ),
  selfieCameraUnsupported: at(
    { selfie: 'cameraFailed' },
    { ...selfie, cameraError: 'unsupported' },
  ),
  selfieCameraNotFound: at({ selfie: 'cameraFailed' }, { ...selfie, cameraError: 'notFound' }),
  /** A computer with no camera, in the wizard: 'Seguir en mi celular' is offered (issue 18). */
  selfieCameraNotFoundHandoff: at(
    { selfie: 'cameraFailed' },
    { ...selfie, cameraError: 'notFound', canHandoff: true },
  ),
  /** The camera works, and the phone is offered by choice. */
  selfieIdleHandoff: at({ selfie: 'idle' }, { ...selfie, canHandoff: true }),
  // The challenge (issue 31): the notice before the start, the colours, the cue, its refusals.
  selfieIdleLight: at({ selfie: 'idle' }, challengeSelfie),
  selfieIdleCues: at({ selfie: 'idle' }, { ...challengeSelfie, challenge: 'cues' }),
  selfieColourWarm: at({ selfie: 'running' }, { ...challengeSelfie, lightColour: '#ffd27a' }),
  selfieColourCool: at({ selfie: 'running' }, { ...challengeSelfie, lightColour: '#7ab8ff' }),
  selfieCue: at({ selfie: 'running' }, { ...challengeSelfie, challenge: 'cues', cue }),
  selfieCueColour: at(
    { selfie: 'running' },
    { ...challengeSelfie, cue, lightColour: '#a8f0b4', feedback: ['Parpadeá ahora (2 de 3).'] },
  ),
  selfieCuesMissed: at(
    { selfie: 'failed' },
    {
      ...challengeSelfie,
      error: {
        code: 'challengeFailed',
        serverMessage:
          'No vimos tus parpadeos cuando te los pedimos. Intentá de nuevo y parpadeá cada vez que aparezca «Parpadeá ahora».',
      },
      refusals: { liveness: 1 },
    },
  ),
  selfieLightMismatch: at(
    { selfie: 'failed' },
    {
      ...challengeSelfie,
      error: {
        code: 'challengeFailed',
        serverMessage:
          'No pudimos ver los colores de la pantalla en tu cara. Intentá de nuevo con tu cara cerca de la pantalla, dentro del óvalo.',
      },
      refusals: { liveness: 1 },
    },
  ),
  /** the light not judgeable where the patient is (issue 41): a person or a centre offered at once */
  selfieLightUnjudged: at(
    { selfie: 'failed' },
    {
      ...challengeSelfie,
      error: {
        code: 'challengeFailed',
        reason: 'light_unjudged',
        serverMessage:
          'No pudimos ver la luz de la pantalla en tu cara: hay demasiada luz o tu cara está lejos del celular. Podés pedir que una persona revise tu identidad, o intentar de nuevo con la cara cerca del celular en un lugar con menos luz.',
      },
      refusals: { liveness: 1 },
    },
  ),
  /** another face took over once the challenge asked (issue 41): the session refused */
  selfieFaceChanged: at(
    { selfie: 'failed' },
    {
      ...challengeSelfie,
      error: {
        code: 'challengeFailed',
        reason: 'face_changed',
        serverMessage:
          'Vimos otra cara durante la validación. La misma persona tiene que hacerla de principio a fin: volvé a intentar.',
      },
      refusals: { liveness: 1 },
    },
  ),
  /** refused by the challenge twice: a person or a centre offered on the refusal's own screen */
  selfieLightMismatchTwice: at(
    { selfie: 'failed' },
    { ...challengeSelfie, error: { code: 'challengeFailed' }, refusals: { liveness: 2 } },
  ),
  // The framing on the oval (issue 41): what the server answered, standing until it says otherwise.
  /** 'Acercá el celular.': the face small in the oval. */
  selfieTooFar: at(
    { selfie: { running: 'progressing' } },
    { ...challengeSelfie, framing: ['too_far'], feedback: waiting, progress: waiting.join('\n') },
  ),
  /** 'Alejá un poco el celular.': the face larger than the oval, or cut by it. */
  selfieTooClose: at(
    { selfie: { running: 'progressing' } },
    { ...challengeSelfie, framing: ['too_close'], feedback: waiting, progress: waiting.join('\n') },
  ),
  /**
   * 'No vemos tu cara: ...', while a cue shows: one asked before the face left the oval stays until
   * its window ends (the server asks no new cue while the newest frame fails the gates).
   */
  selfieNoFace: at(
    { selfie: { running: 'progressing' } },
    {
      ...challengeSelfie,
      challenge: 'cues',
      cue,
      framing: ['no_face'],
    },
  ),
  /** 'Hay más de una cara en la imagen...': someone beside the patient. */
  selfieSeveralFaces: at(
    { selfie: { running: 'progressing' } },
    {
      ...challengeSelfie,
      framing: ['several_faces'],
      feedback: waiting,
      progress: waiting.join('\n'),
    },
  ),
  /** 'Hay poca luz...': the face too dark to read. */
  selfieTooDark: at(
    { selfie: { running: 'progressing' } },
    { ...challengeSelfie, framing: ['too_dark'], feedback: waiting, progress: waiting.join('\n') },
  ),
  /** 'Centrá tu cara en el óvalo.': the face off the oval's centre. */
  selfieNotCentred: at(
    { selfie: { running: 'progressing' } },
    {
      ...challengeSelfie,
      framing: ['not_centred'],
      feedback: waiting,
      progress: waiting.join('\n'),
    },
  ),
  /** 3 s without progress and no framing known: 'Mantené tu cara dentro del óvalo.' */
  selfieStalled: at(
    { selfie: { running: 'stalled' } },
    { ...challengeSelfie, feedback: waiting, progress: waiting.join('\n') },
  ),
  /** 3 s without progress, a framing standing: the framing says why. */
  selfieStalledTooFar: at(
    { selfie: { running: 'stalled' } },
    { ...challengeSelfie, framing: ['too_far'], feedback: waiting, progress: waiting.join('\n') },
  ),
  frontOpening: at({ document: { live: 'opening' } }, front),
  frontWaiting: at({ document: { live: 'waiting' } }, front),
  frontPlaying: at({ document: { live: 'playing' } }, front),
  frontCapturing: at({ document: { live: 'capturing' } }, front),
  frontCaptureFailed: at(
    { document: { live: 'failedCapture' } },
    { ...front, error: { code: 'imageFailed' } },
  ),
  frontCameraDenied: at(
    { document: { live: 'cameraFailed' } },
    { ...front, cameraError: 'permissionDenied' },
  ),
  frontPreparing: at({ document: 'preparing' }, front),
  frontPreview: at({ document: 'preview' }, { ...front, front: photo('FRENTE') }),
  frontPreviewDark: at(
    { document: 'preview' },
    { ...front, front: photo('FRENTE'), photoHint: 'dark' },
  ),
  /** An uploaded photo with no card in it: flagged, and 'Elegir otra imagen' (issue 29 item 14). */
  frontPreviewUploadedNoCard: at(
    { document: 'preview' },
    { ...front, front: photo('FOTO'), photoUploaded: true, photoHint: 'noCard' },
  ),
  backPreviewSmall: at(
    { document: 'preview' },
    { ...back, back: photo('DORSO'), photoHint: 'small' },
  ),
  backPlaying: at({ document: { live: 'playing' } }, back),
  backPreview: at({ document: 'preview' }, { ...back, back: photo('DORSO') }),
  backPreviewNetwork: at(
    { document: 'preview' },
    { ...back, back: photo('DORSO'), error: { code: 'documentNetwork' } },
  ),
  verifying: at('verifying', { ...back, back: photo('DORSO') }),
  /** The card is read; its number is looked up (issue 29 item 10): still 'Verificando...'. */
  checkingDocument: at('checkingDocument', { ...verified, registrationToken: 'R'.repeat(43) }),
  /** 'Ya tenés una cuenta con esta cédula' as soon as the card is read. */
  documentRegistered: at('documentRegistered', { ...verified, registrationToken: 'R'.repeat(43) }),
  // A refused document asks again for the photos at fault, saying why (issue 28).
  frontAgainNoFace: at(
    { document: { live: 'opening' } },
    {
      ...front,
      back: photo('DORSO'),
      error: { code: 'noFaceOnDocument', reason: 'no_face_on_document' },
      refusals: { no_face_on_document: 1 },
    },
  ),
  frontAgainUnreadable: at(
    { document: { live: 'playing' } },
    {
      ...front,
      back: photo('DORSO'),
      error: {
        code: 'frontRejected',
        reason: 'front_unreadable',
        serverMessage:
          'No pudimos leer el número y los nombres del frente del documento. Sacá una foto más nítida del frente, con buena luz.',
      },
    },
  ),
  bothAgain: at(
    { document: { live: 'playing' } },
    { ...front, error: { code: 'documentMismatch', reason: 'document_mismatch' } },
  ),
  backAgain: at(
    { document: { live: 'playing' } },
    { ...back, error: { code: 'backRejected', reason: 'mrz_unreadable' } },
  ),
  rejectedMismatch: at('rejected', { ...back, error: { code: 'faceMismatch' } }),
  rejectedExpired: at('rejected', { ...back, error: { code: 'sessionExpired' } }),
  rejectedServer: at('rejected', {
    ...back,
    error: {
      code: 'documentRejected',
      serverMessage:
        'No pudimos leer el código del dorso del documento. Sacá una foto más nítida del dorso, con buena luz.',
    },
  }),
  review: at({ review: 'showing' }, verified),
  reviewRejecting: at({ review: 'rejecting' }, verified),
  reviewRejectFailed: at(
    { review: 'rejectFailed' },
    { ...verified, error: { code: 'rejectFailed' } },
  ),
  /** 'Hay un dato mal' (issue 43 item 7): nothing chosen yet, 'Enviar a una persona' disabled. */
  reviewClaiming: at({ review: 'claiming' }, { ...verified, claim: { field: null, says: '' } }),
  /** The date of birth named, with what it should say. */
  reviewClaimingChosen: at(
    { review: 'claiming' },
    { ...verified, claim: { field: 'DateOfBirth', says: '14/04/1990' } },
  ),
  // The way out (issue 30). A refusal repeated offers a person on its own screen:
  selfieNotDetectedTwice: at(
    { selfie: 'failed' },
    { ...selfie, error: { code: 'livenessNotDetected' }, refusals: { liveness: 2 } },
  ),
  frontAgainNoFaceTwice: at(
    { document: { live: 'playing' } },
    {
      ...front,
      back: photo('DORSO'),
      error: { code: 'noFaceOnDocument', reason: 'no_face_on_document' },
      refusals: { no_face_on_document: 2 },
    },
  ),
  rejectedMismatchTwice: at('rejected', {
    ...back,
    error: { code: 'faceMismatch', reason: 'face_mismatch' },
    refusals: { face_mismatch: 2 },
  }),
  /** The phone (no handoff) without a camera: nothing to repeat, offered at once. */
  selfieCameraNotFoundPhone: at(
    { selfie: 'cameraFailed' },
    { ...selfie, cameraError: 'notFound', canHandoff: false },
  ),
  // The way out's states (issue 30): kyc.assist.fixtures.ts.
  ...assistFixturesFrom(base),
  // A person's decision, resumed: the step it reopens, with its notice.
  repeatSelfie: at({ selfie: 'idle' }, { ...selfie, repeatNotice: true }),
  repeatFront: at(
    { document: { live: 'playing' } },
    { ...front, repeatNotice: true, retakeOnly: 'front' },
  ),
  repeatBack: at(
    { document: { live: 'playing' } },
    { ...base, side: 'back', repeatNotice: true, retakeOnly: 'back' },
  ),
  verifiedByPerson: at('supplementary', { ...verified, verifiedNotice: true }),
  /** The form's own states are its child's (supplementary.fixtures.ts); restored, it has none. */
  supplementary: at('supplementary', verified),
  done: at('done', {
    ...verified,
    form: { tipoSangre: 'O+', direccion: '', departamento: '11', ciudad_id: '11-7' },
  }),
};
