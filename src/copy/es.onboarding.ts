import type { OnboardingErrorCode, PinMissing } from '../../machines/onboarding/onboarding.types';
import type { OtpErrorCode } from '../../machines/otp/otp.types';
import { common, sharedErrors } from './es';

export { errorText } from './es';

/**
 * The onboarding wizard's Spanish (Paraguayan voseo). Texts the spec gives are copied verbatim but
 * for plain spelling slips (docs/decisions.md); the rest are ours, in the same voice.
 */
export const onboarding = {
  backHome: common.backHome,
  cancel: 'Cancelar',
  retry: 'Reintentar',
  goToLogin: 'Ir a iniciar sesión',
  forgotPin: '¿Olvidaste tu PIN?',
  /** The wizard's progress on steps 0 to 4, read once when it changes. */
  progress: (step: number, of: number) => `Paso ${step} de ${of}`,
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
    // A non-breaking space: the unit never wraps alone onto the next line (issue 43 item 9).
    countdown: (seconds: number) => `Podés pedir un nuevo código en ${seconds}\u00a0s.`,
    announceWait: (seconds: number) => `Podés pedir un nuevo código en ${seconds} segundos.`,
    announceAvailable: 'Ya podés pedir un nuevo código.',
    resent: 'Código reenviado. Revisá tu SMS.',
    codeMissing: 'Escribí los 6 dígitos del código que te enviamos.',
  },
  pinCreation: {
    title: 'Creá tu propio PIN',
    intro: 'Con este PIN y tu número de documento vas a ingresar a la aplicación.',
    tipsTitle: 'Consejos de seguridad',
    tips: ['Evitá secuencias obvias, como 123456 o 111111.', 'Evitá fechas de cumpleaños.'],
    pinLabel: 'PIN de 6 dígitos',
    pinPlaceholder: '••••••',
    termsBefore: 'Acepto los ',
    termsLink: 'términos y condiciones',
    termsNewTab: ' (se abre en una pestaña nueva)',
    submit: 'Validar',
    saving: 'Guardando...',
    /** Beside the disabled 'Validar': what is missing. */
    missing: {
      pinAndTerms: 'Escribí tu PIN y aceptá los términos para continuar.',
      pin: 'Escribí tu PIN de 6 dígitos para continuar.',
      terms: 'Aceptá los términos para continuar.',
    } satisfies Record<PinMissing, string>,
  },
  /** After the card is read, when the chosen PIN comes from the patient's own data. */
  pinRenewal: {
    title: 'Elegí otro PIN',
    intro:
      'El PIN que elegiste sale de tu fecha de nacimiento o de tu número de documento: cualquiera que vea tu cédula lo podría adivinar. Elegí otro PIN de 6 dígitos.',
    pinLabel: 'Nuevo PIN de 6 dígitos',
    submit: 'Guardar PIN y finalizar',
    missing: 'Escribí tu nuevo PIN de 6 dígitos para continuar.',
  },
  welcome: {
    title: '¡Un par de fotos y ya!',
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
  /** A registration continued after a lost page (issue 18). */
  resumed: 'Retomamos tu registro donde lo dejaste.',
  /** The first device while the phone continues the registration. */
  handoff: {
    title: 'Seguí en tu celular',
    sending: 'Enviando el enlace por SMS...',
    intro: (celular: string) =>
      `Te enviamos un SMS al ${celular} con un enlace. Abrilo en tu celular para sacarte la selfie y fotografiar tu cédula.`,
    expiry: (minutes: number) =>
      `El enlace vence en ${minutes} minutos y sirve una sola vez. Esta pantalla se actualiza sola.`,
    stages: {
      waiting: 'Esperando que abras el enlace en tu celular...',
      opened: 'Abriste el enlace en tu celular.',
      selfie: 'Tu selfie está lista. Ahora fotografiá tu cédula.',
      document: 'Leímos tu cédula. Confirmá tus datos en el celular para terminar.',
      completed: 'Tu registro terminó.',
    },
    resend: 'Reenviar el enlace',
    useThisDevice: 'Usar la cámara de este dispositivo',
  },
  /** The phone that opened the SMS link. */
  link: {
    title: 'Seguí tu registro',
    opening: 'Abriendo tu registro...',
    restart: 'Ingresar mi celular',
  },
  /** A back or cancel while this browser forgets the registration it holds (one short call). */
  leaving: {
    title: 'Saliendo del registro',
    status: 'Un momento...',
  },
  /** Step 4 while its chunk loads (screens/KycLoadScreen); the KYC sub-steps' texts are es.kyc.ts. */
  identity: {
    title: 'Verificación de identidad',
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
  pinFromOwnData:
    'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
  termsRequired: 'Debés aceptar los términos y condiciones.',
  registerFailed: 'Error al guardar el registro',
  registerInvalidResponse: 'No se pudo procesar la respuesta del servidor.',
  registerNetwork: 'No se pudo completar el registro. Intente de nuevo.',
  kycLoadFailed:
    'No se pudo cargar la verificación de identidad. Revisá tu conexión e intentá de nuevo.',
  unexpected: sharedErrors.unexpected,
  savePinFailed: 'No pudimos guardar tu PIN. Revisá tu conexión e intentá de nuevo.',
  handoffFailed: 'No pudimos enviar el SMS con el enlace. Intentá de nuevo.',
  handoffStopped:
    'Este registro ya no sigue en este dispositivo. Verificá tu celular de nuevo para continuar.',
  linkRefused:
    'Este enlace no es válido. Ingresá tu celular para continuar tu registro con un código por SMS.',
  linkRegistrationComplete: 'Tu registro ya está completo. Ingresá.',
};

/** Errors of the SMS code step (spec section 8; its spelling slips fixed, docs/decisions.md). */
export const otpErrors: Record<OtpErrorCode, string> = {
  wrongCode:
    'El código ingresado es incorrecto o ya venció. Por favor, volvé a ingresar el código o solicitá el reenvío.',
  network: 'No pudimos validar tu código. Revisá tu conexión e intentá nuevamente.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  resendFailed: 'No se pudo reenviar el código. Intentá de nuevo.',
};

/**
 * 0981123456 as 0981 123 456, as patients read their number, joined by no-break spaces: a number
 * never breaks across lines (issue 29 item 18).
 */
export const formatCelular = (celular: string): string =>
  celular.length === 10
    ? `${celular.slice(0, 4)}\u00a0${celular.slice(4, 7)}\u00a0${celular.slice(7)}`
    : celular;
