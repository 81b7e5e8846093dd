import type { KycErrorCode, SupplementaryFieldErrors } from '../../machines/kyc/kyc.types';
import type { OnboardingErrorCode } from '../../machines/onboarding/onboarding.types';
import type { OtpErrorCode } from '../../machines/otp/otp.types';
import { common, sharedErrors } from './es';

export { errorText } from './es';

/**
 * The onboarding wizard's Spanish (Paraguayan voseo). Texts the spec gives are copied verbatim,
 * spelling included; the rest are ours, in the same voice.
 */
export const onboarding = {
  backHome: common.backHome,
  cancel: 'Cancelar',
  retry: 'Reintentar',
  goToLogin: 'Ir a iniciar sesión',
  registration: {
    title: 'Registrate',
    intro: 'Ingresá tu número de celular. Te vamos a enviar un código por SMS para verificarlo.',
    phoneLabel: 'Número de celular',
    phonePrefix: '+595',
    phoneHint: 'Solo celulares de Paraguay (+595).',
    phonePlaceholder: '981 123 456',
    emailLabel: 'Correo electrónico (opcional)',
    emailPlaceholder: 'nombre@correo.com',
    submit: 'Continuar',
    submitting: 'Continuando...',
  },
  verification: {
    title: 'Verificación',
    intro: (celular: string) =>
      `Ingresá el código de 6 dígitos que te enviamos por SMS al ${celular}.`,
    codeLabel: 'Código de verificación',
    submit: 'Continuar',
    submitting: 'Validando...',
    resend: 'Reenviar código',
    resending: 'Reenviando...',
    countdown: (seconds: number) => `Podés pedir un nuevo código en ${seconds} s.`,
    announceWait: (seconds: number) => `Podés pedir un nuevo código en ${seconds} segundos.`,
    announceAvailable: 'Ya podés pedir un nuevo código.',
    resent: 'Código reenviado. Revisá tu SMS.',
  },
  pinCreation: {
    title: 'Crea tu propio PIN',
    intro: 'Con este PIN y tu número de documento vas a ingresar a la aplicación.',
    tipsTitle: 'Consejos de seguridad',
    tips: ['Evitá secuencias obvias, como 123456 o 111111.', 'Evitá fechas de cumpleaños.'],
    pinLabel: 'PIN de 6 dígitos',
    pinPlaceholder: '••••••',
    termsBefore: 'Acepto los ',
    termsLink: 'términos y condiciones',
    termsNewTab: ' (se abre en una pestaña nueva)',
    submit: 'Validar',
  },
  welcome: {
    title: 'Un par de fotos y ya!',
    intro:
      'Ahora vamos a verificar tu identidad con una selfie y fotos de tu cédula. Antes, tené en cuenta:',
    tips: [
      'Buscá un lugar con buena luz.',
      'Sacate los lentes y el sombrero.',
      'Ponete delante de un fondo claro.',
      'Evitá los reflejos sobre la cara y la cédula.',
    ],
    next: 'Siguiente',
  },
  kyc: {
    title: 'Verificación de identidad',
    loading: 'Cargando...',
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
    },
    document: {
      frontTitle: 'Frente de tu cédula',
      backTitle: 'Dorso de tu cédula',
      frontIntro:
        'Sacale una foto al frente de tu cédula, con tu foto bien visible y sin reflejos.',
      backIntro: 'Sacale una foto al dorso de tu cédula, con el código de abajo bien nítido.',
      capture: 'Capturar',
      capturing: 'Capturando...',
      upload: 'Subir imagen',
      preparing: 'Preparando la imagen...',
      retake: 'Volver a capturar',
      accept: 'Continuar',
      cameraNotReady: 'La cámara aún no está lista. Esperá unos segundos.',
      frontVideoLabel: 'Cámara trasera: frente de la cédula',
      backVideoLabel: 'Cámara trasera: dorso de la cédula',
      frontPreviewAlt: 'Foto del frente de tu cédula',
      backPreviewAlt: 'Foto del dorso de tu cédula',
      previewTitle: 'Revisá que la foto se vea nítida y completa.',
    },
    verifying: {
      title: 'Verificando tu identidad',
      body: 'Estamos comparando tu selfie con la foto de tu cédula y leyendo sus datos...',
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
        'Estos son los datos que leímos de tu cédula. Si algo no es correcto, tocá «Reintentar».',
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
      retry: 'Reintentar',
      rejecting: 'Reiniciando...',
      confirm: 'Continuar',
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
  },
  unexpected: {
    title: 'Registro',
  },
  registering: {
    title: 'Finalizando tu registro',
    submitting: 'Guardando tu registro...',
  },
  complete: {
    title: 'Onboarding Completo',
    body: 'Tu registro terminó. Ya podés ingresar con tu número de documento y tu PIN.',
  },
  patientExists: {
    title: 'El paciente ya existe',
    body: 'Ya hay un registro completo con estos datos. Ingresá con tu número de documento y tu PIN.',
  },
} as const;

/** Errors of the wizard's own steps (spec sections 5 and 8, Onboarding). */
export const onboardingErrors: Record<OnboardingErrorCode, string> = {
  phoneInvalidSubmit: 'Por favor, ingresá un número de celular válido.',
  phoneInvalid: 'Número de celular inválido.',
  emailInvalid: 'Por favor, ingresá un correo válido o dejá el campo vacío.',
  startFailed: 'Error iniciando onboarding',
  sendCodeFailed: 'No se pudo enviar el código. Verificá tu número.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  pinInvalid: 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
  termsRequired: 'Debés aceptar los términos y condiciones.',
  registerFailed: 'Error al guardar el registro',
  registerInvalidResponse: 'No se pudo procesar la respuesta del servidor.',
  registerNetwork: 'No se pudo completar el registro. Intente de nuevo.',
  kycLoadFailed:
    'No se pudo cargar la verificación de identidad. Revisá tu conexión e intentá de nuevo.',
  unexpected: sharedErrors.unexpected,
};

/** Errors of the SMS code step (spec section 8, spelling as the spec has it). */
export const otpErrors: Record<OtpErrorCode, string> = {
  wrongCode:
    'El código ingresado es incorrecto o ya venció. Por favor, volve a ingresar el código o solicta el reenvio',
  network: 'No pudimos validar tu código. Revisá tu conexión e intentá nuevamente.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  resendFailed: 'No se pudo reenviar el código. Intentá de nuevo.',
};

/** Errors of the identity step (spec section 8, Onboarding; decisions.md for the mismatch). */
export const kycErrors: Record<KycErrorCode, string> = {
  startKycFailed: 'Error iniciando KYC',
  network: 'Error iniciando KYC',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  livenessFailed:
    'Ocurrió un problema validando tu selfie. Reiniciá el paso de validación de vida.',
  livenessNotDetected:
    'No se detectó prueba de vida. Intentá de nuevo asegurándote de mirar a la cámara y estar en un lugar bien iluminado.',
  sessionExpired: 'La sesión expiró. Volvé a empezar el proceso.',
  imageFailed: 'No se pudo generar imagen',
  faceMismatch: 'La selfie y la foto del documento no coinciden. Intentá de nuevo con buena luz.',
  documentRejected: 'No se pudo verificar el documento. Probá de nuevo.',
  documentNetwork: 'Error de conexión o validación de documento. Intentá de nuevo.',
  rejectFailed: 'Reintentá el proceso desde el inicio.',
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

/** 0981123456 as 0981 123 456, as patients read their number. */
export const formatCelular = (celular: string): string =>
  celular.length === 10
    ? `${celular.slice(0, 4)} ${celular.slice(4, 7)} ${celular.slice(7)}`
    : celular;
