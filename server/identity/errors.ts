import { isIdentityReason, type IdentityReason } from '../../contract/identity';

/**
 * Spanish texts the identity endpoints answer with (voseo, as in the app). Each refusal also carries
 * its reason code (contract/identity.ts IDENTITY_REASONS): the browser branches on the code.
 */
export const identityMessages = {
  unsupportedType: 'Formato de imagen no admitido. Enviá una foto JPEG o PNG.',
  tooLarge: 'La imagen es demasiado grande. Enviá una foto de menos de {mb} MB.',
  frameTooLarge: 'Una imagen es demasiado grande. Enviá fotos de menos de {kb} KB.',
  tooManyFrames: 'Demasiadas imágenes en un solo envío. Enviá como máximo {n}.',
  tooManyPixels: 'La imagen tiene demasiada resolución. Enviá una foto más chica.',
  undecodable: 'No pudimos leer la imagen. Sacá la foto de nuevo.',
  tooSmall: 'La imagen es demasiado chica. Sacá la foto más de cerca.',
  missingFile: 'Falta la imagen. Sacá la foto e intentá de nuevo.',
  malformedUpload:
    'No pudimos recibir la imagen: el envío llegó incompleto o dañado. Intentá de nuevo.',
  missingSession: 'Falta el identificador de sesión.',
  // The browser looks for 'session expired' / 'invalid session' in these (spec, point 8).
  sessionExpired: 'La sesión expiró (session expired). Volvé a empezar el proceso.',
  sessionInvalid: 'Sesión inválida (invalid session). Volvé a empezar el proceso.',
  livenessMissing: 'Primero completá la validación de vida (selfie).',
  sessionClosed: 'Esta verificación ya terminó. Volvé a empezar el proceso.',
  // Contains the 'session expired' mark: the browser starts again with a new session (spec, point 8).
  attemptsExhausted:
    'Usaste todos los intentos de esta verificación (session expired). Volvé a empezar el proceso.',
  // Past IDENTITY_MAX_FRAMES_PER_SESSION; contains the 'session expired' mark: the browser starts
  // again with a new session (a genuine patient never gets here).
  framesExhausted:
    'Esta verificación ya recibió demasiadas imágenes (session expired). Volvé a empezar el proceso.',
  // The challenge (issue 31): a request of a challenge session without its frames' tags (an old browser).
  metaMissing:
    'Tu navegador no envió los datos de la validación. Actualizá la página o usá un navegador más nuevo.',
  // The challenge refused the session: only a new one can pass (or the assisted path).
  cuesMissed:
    'No vimos tus parpadeos cuando te los pedimos. Volvé a intentar y parpadeá cada vez que aparezca la señal.',
  lightMismatch:
    'No vimos en tu cara la luz de la pantalla. Alejate del sol directo, subí el brillo de la pantalla y volvé a intentar.',
  faceChanged:
    'Vimos otra cara durante la validación. La misma persona tiene que hacerla de principio a fin: volvé a intentar.',
  lightUnjudged:
    'No pudimos ver la luz de la pantalla en tu cara: hay demasiada luz o tu cara está lejos del celular. Podés pedir que una persona revise tu identidad, o intentar de nuevo con la cara cerca del celular en un lugar con menos luz.',
  busy: 'El servicio está ocupado. Intentá de nuevo en unos segundos.',
  starting: 'El servicio está iniciando. Intentá de nuevo en unos segundos.',
  faceMismatch: 'Face verification failed: la selfie y la foto del documento no coinciden.',
  // Not the mismatch ('Face verification failed'): the card's photo was not seen, the front is retaken.
  noFaceOnDocument:
    'No pudimos ver la foto de tu cédula. Sacá otra foto del frente, entera, sin reflejos y con buena luz.',
  // A second scan of the same verification while one runs (issue 29 item 2): refused at once.
  scanInProgress:
    'Ya estamos verificando tu cédula. Esperá el resultado antes de enviarla de nuevo.',
  mrzUnreadable:
    'No pudimos leer el código del dorso del documento. Sacá una foto más nítida del dorso, con buena luz.',
  backMissing: 'Falta la foto del dorso del documento.',
  notParaguayan: 'El documento no es una cédula paraguaya válida.',
  documentExpired: 'El documento está vencido.',
  // The front must be proved to be the front of the same cédula (issue 11, item 1).
  notADocument:
    'La foto del frente no muestra una cédula. Sacá una foto del frente de tu cédula, entera y con buena luz.',
  frontUnreadable:
    'No pudimos leer el número y los nombres del frente del documento. Sacá una foto más nítida del frente, con buena luz.',
  // What to fix before a retake, added to an unreadable side's message (document-verdict.ts).
  hintDark: 'Hay poca luz: buscá un lugar más iluminado.',
  hintBright: 'La foto salió muy clara: evitá la luz directa sobre la cédula.',
  hintGlare: 'Hay un reflejo sobre la cédula: inclinala un poco o apagá el flash.',
  hintSmall: 'Acercá la cámara: la cédula tiene que ocupar casi toda la foto, entera.',
  hintBlur:
    'La foto salió movida o desenfocada: apoyá la cédula en una mesa y esperá a que enfoque.',
  documentMismatch:
    'El frente y el dorso no son de la misma cédula. Sacá las fotos del frente y del dorso de tu cédula.',
} as const;

export type IdentityErrorCode =
  | 'unsupported_type'
  | 'too_large'
  | 'too_many_frames'
  | 'missing_file'
  | 'undecodable'
  | 'too_small'
  | 'session_invalid'
  | 'session_expired'
  | 'session_closed'
  | 'liveness_missing'
  | 'attempts_exhausted'
  | 'frames_exhausted'
  | 'scan_in_progress'
  | 'meta_missing'
  | 'cues_missed'
  | 'light_mismatch'
  | 'face_changed'
  | 'light_unjudged'
  | 'busy'
  | 'worker_failed';

export const identityStatus: Record<IdentityErrorCode, number> = {
  unsupported_type: 415,
  too_large: 413,
  too_many_frames: 413,
  missing_file: 400,
  undecodable: 400,
  too_small: 400,
  session_invalid: 400,
  session_expired: 400,
  session_closed: 409,
  liveness_missing: 409,
  attempts_exhausted: 429,
  frames_exhausted: 429,
  scan_in_progress: 409,
  meta_missing: 400,
  cues_missed: 422,
  light_mismatch: 422,
  face_changed: 422,
  light_unjudged: 422,
  busy: 503,
  worker_failed: 500,
};

/** A failure the caller can act on: a code, its HTTP status and a Spanish message. */
export class IdentityError extends Error {
  readonly status: number;
  constructor(
    readonly code: IdentityErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityError';
    this.status = identityStatus[code];
  }
  /** The reason code the answer carries, for a refusal the browser acts on (the session codes). */
  get reason(): IdentityReason | undefined {
    return isIdentityReason(this.code) ? this.code : undefined;
  }
}
