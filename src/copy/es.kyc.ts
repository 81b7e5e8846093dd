import type { FramingHint } from '../../machines/kyc/kyc.selectors';
import type { KycErrorCode } from '../../machines/kyc/kyc.types';
import type {
  SupplementaryErrorCode,
  SupplementaryFieldErrors,
} from '../../machines/kyc/supplementary.types';
import { common, sharedErrors } from './es';
import { onboarding } from './es.onboarding';

export { errorText } from './es';

/**
 * The identity step's Spanish (wizard step 4: selfie, documents, review, supplementary data), in
 * the KYC chunk with its screens: steps 0-3 of the wizard never download it. Texts the spec gives
 * are copied verbatim, spelling included; the rest are ours, in the same voice.
 */
export const kyc = {
  title: onboarding.identity.title,
  loading: common.loading,
  /** Where the camera is missing, refused or unusable, or by choice (issue 18). */
  handoff: {
    action: 'Seguir en mi celular',
    hint: '¿Sin cámara aquí? Te enviamos un enlace por SMS para terminar con la cámara de tu celular.',
    /** Under the primary action when this device's camera cannot be used. */
    noCamera: 'Te enviamos un enlace por SMS para terminar con la cámara de tu celular.',
  },
  selfie: {
    title: 'Selfie (parpadeá 3 veces)',
    intro:
      'Poné tu cara dentro del óvalo, mirá a la cámara y tocá «Iniciar validación». Después parpadeá despacio 3 veces.',
    start: 'Iniciar validación',
    stop: 'Detener',
    retry: 'Intentar nuevamente',
    redirecting: 'Redirigiendo...',
    passed: '¡Validación de vida completada! Redirigiendo...',
    openingCamera: 'Abriendo la cámara...',
    videoLabel: 'Tu cara en la cámara frontal',
    feedbackLabel: 'Indicaciones',
    /** The server asks for each blink (issue 31): the intro says to wait for the cue. */
    cueIntro:
      'Poné tu cara dentro del óvalo, mirá a la cámara y tocá «Iniciar validación». Cada vez que aparezca «Parpadeá ahora», parpadeá una vez.',
    /** Before the start when the screen will light the face with colours (issue 31). */
    lightNotice:
      'Al iniciar, la pantalla va a cambiar de color unos segundos. Mantené tu rostro dentro del óvalo.',
    cue: 'Parpadeá ahora',
    /**
     * On the oval (issue 41): what to change in the framing, by the server's code, and after 3 s
     * without progress when no framing is known.
     */
    framing: {
      no_face: 'No vemos tu cara: poné toda tu cara dentro del óvalo y mirá a la cámara.',
      several_faces: 'Hay más de una cara en la imagen. Quedate solo/a frente a la cámara.',
      too_far: 'Acercá el celular.',
      too_close: 'Alejá un poco el celular.',
      too_dark: 'Hay poca luz. Buscá un lugar más iluminado.',
      not_centred: 'Centrá tu cara en el óvalo.',
      stalled: 'Mantené tu cara dentro del óvalo.',
    } satisfies Record<FramingHint, string>,
    framingLabel: 'Cómo ubicar tu cara',
  },
  document: {
    frontTitle: 'Frente de tu cédula',
    backTitle: 'Dorso de tu cédula',
    frontIntro: 'Sacale una foto al frente de tu cédula, con tu foto bien visible y sin reflejos.',
    backIntro: 'Sacale una foto al dorso de tu cédula, con el código de abajo bien nítido.',
    capture: 'Capturar',
    capturing: 'Capturando...',
    upload: 'Subir imagen',
    preparing: 'Preparando la imagen...',
    retake: 'Volver a capturar',
    /** after an uploaded photo: another file, not the camera (issue 29 item 14) */
    chooseAnother: 'Elegir otra imagen',
    accept: 'Continuar',
    cameraNotReady: 'La cámara aún no está lista. Esperá unos segundos.',
    frontVideoLabel: 'Cámara trasera: frente de la cédula',
    backVideoLabel: 'Cámara trasera: dorso de la cédula',
    frontPreviewAlt: 'Foto del frente de tu cédula',
    backPreviewAlt: 'Foto del dorso de tu cédula',
    previewTitle: 'Revisá que la foto se vea nítida y completa.',
    /** what to fix before sending (the machine's photo hint) */
    photoHint: {
      dark: 'La foto salió oscura: buscá un lugar con más luz y volvé a capturar.',
      small: 'La cédula se ve chica: acercá la cámara hasta que ocupe casi toda la foto.',
      noCard: 'No vemos una cédula en esta foto. Sacá una foto de tu cédula, entera y de cerca.',
    },
  },
  verifying: {
    title: 'Verificando tu identidad',
    body: 'Estamos comparando tu selfie con la foto de tu cédula y leyendo sus datos...',
  },
  /** The card read is already a patient's (issue 29 item 10): said as soon as it is read. */
  documentRegistered: {
    title: 'Ya tenés una cuenta con esta cédula',
    body: 'Ingresá con tu número de documento y tu PIN. Si no te acordás del PIN, recuperalo con el celular que registraste.',
    notYou:
      '¿No creaste vos esta cuenta? No sigas con este registro: acercate con tu cédula a tu centro de salud o llamá al servicio de salud para que revisen quién la creó.',
    login: onboarding.goToLogin,
    forgotPin: onboarding.forgotPin,
  },
  rejected: {
    title: 'No pudimos validar tu identidad',
    tipsTitle: 'Para el próximo intento:',
    tips: [
      'Buscá un lugar bien iluminado.',
      'Que tu cara se vea claramente en la selfie y en la foto del documento.',
      'Sin lentes, gorra ni nada que te cubra la cara.',
    ],
    retry: 'Reintentar',
    defaultMessage: 'Reintentá el proceso desde el inicio.',
  },
  review: {
    title: 'Verificá tus datos',
    intro:
      'Estos son los datos que leímos de tu cédula. Si un dato no es correcto, tocá «Hay un dato mal» y lo revisa una persona; «Reintentar» saca las fotos de nuevo.',
    labels: {
      apellido: 'Apellidos',
      nombre: 'Nombres',
      numeroDocumento: 'Documento',
      fechaNacimiento: 'Fecha de nacimiento',
      sexo: 'Sexo',
      nacionalidad: 'Nacionalidad',
      estado_civil: 'Estado civil',
    },
    empty: '—',
    /** As the card prints them (the MRZ's sex F/M; the server sends the nationality in words). */
    sexes: { F: 'FEMENINO', M: 'MASCULINO' } as Record<string, string>,
    retry: 'Reintentar',
    rejecting: 'Reiniciando...',
    confirm: 'Continuar',
    /** issue 43 item 7: say which field is wrong, to a person */
    claim: 'Hay un dato mal',
    claimTitle: '¿Qué dato está mal?',
    claimIntro:
      'Una persona revisa las fotos de tu cédula y el dato que marques. Te avisamos por SMS cuando lo revise.',
    claimFields: {
      FullName: 'Nombre y apellido',
      DocumentNumber: 'Documento',
      DateOfBirth: 'Fecha de nacimiento',
      Gender: 'Sexo',
      Nationality: 'Nacionalidad',
      MaritalStatus: 'Estado civil',
    },
    claimSaysLabel: '¿Qué debería decir? (opcional)',
    claimSend: 'Enviar a una persona',
    claimMissing: 'Elegí el dato que está mal',
    claimCancel: 'Volver a mis datos',
  },
  supplementary: {
    title: 'Datos complementarios',
    intro:
      'Estos datos nos ayudan a atenderte mejor. La dirección y el tipo de sangre son opcionales.',
    bloodLabel: 'Tipo de sangre',
    addressLabel: 'Dirección (opcional)',
    addressPlaceholder: 'Calle, número, barrio',
    departmentLabel: 'Departamento',
    departmentPlaceholder: 'Elegí un departamento',
    cityLabel: 'Ciudad',
    cityPlaceholder: 'Elegí una ciudad',
    loadingDepartments: 'Cargando departamentos...',
    loadingCities: 'Cargando ciudades...',
    retry: 'Reintentar',
    submit: 'Finalizar',
  },
} as const;

/** Errors of the identity step (spec section 8, Onboarding; docs/decisions.md for the mismatch). */
export const kycErrors: Record<KycErrorCode, string> = {
  startKycFailed: 'Error iniciando KYC',
  network: 'Error iniciando KYC',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  livenessFailed:
    'Ocurrió un problema validando tu selfie. Reiniciá el paso de validación de vida.',
  livenessNotDetected:
    'No se detectó prueba de vida. Intentá de nuevo asegurándote de mirar a la cámara y estar en un lugar bien iluminado.',
  // The challenge refused (issue 31): the server's sentence says why; this when it sends none.
  challengeFailed:
    'No pudimos confirmar la prueba de vida. Intentá de nuevo, con tu cara dentro del óvalo, y parpadeá cada vez que aparezca «Parpadeá ahora».',
  sessionExpired: 'La sesión expiró. Volvé a empezar el proceso.',
  imageFailed: 'No se pudo generar imagen',
  faceMismatch: 'La selfie y la foto del documento no coinciden. Intentá de nuevo con buena luz.',
  // A refused document says what happened and what to repeat (issue 28); the server's sentence
  // is shown where it sends one, except for the card's photo not found.
  noFaceOnDocument:
    'No pudimos ver la foto de tu cédula. Sacá otra foto del frente, entera, sin reflejos y con buena luz.',
  frontRejected:
    'No pudimos leer el frente de tu cédula. Sacá otra foto del frente, entera, sin reflejos y con buena luz.',
  documentMismatch:
    'El frente y el dorso no son de la misma cédula. Sacá las fotos del frente y del dorso de tu cédula.',
  backRejected:
    'No pudimos leer el código del dorso de tu cédula. Sacá otra foto del dorso, nítida y con buena luz.',
  documentRejected: 'No se pudo verificar el documento. Probá de nuevo.',
  documentNetwork: 'Error de conexión o validación de documento. Intentá de nuevo.',
  scanInProgress:
    'Ya estamos verificando tu cédula. Esperá el resultado antes de enviarla de nuevo.',
  rejectFailed: 'Reintentá el proceso desde el inicio.',
};

/** Errors of 'Datos complementarios' (spec section 8, Onboarding). */
export const supplementaryErrors: Record<SupplementaryErrorCode, string> = {
  departmentsFailed: 'No se pudieron cargar los departamentos.',
  citiesFailed: 'No se pudieron cargar las ciudades.',
  documentMissing: 'No se encontró el número de documento.',
};

/** The supplementary form's field messages (spec section 5). */
export const supplementaryFieldErrors: Record<
  NonNullable<SupplementaryFieldErrors[keyof SupplementaryFieldErrors]>,
  string
> = {
  departmentRequired: 'Elegí un departamento.',
  cityRequired: 'Elegí una ciudad.',
};
