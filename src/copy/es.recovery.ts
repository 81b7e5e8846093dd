import type { OtpErrorCode } from '../../machines/otp/otp.types';
import type { RecoveryErrorCode, RecoveryMissing } from '../../machines/recovery/recovery.types';
import { sharedErrors } from './es';
import { formatCelular, onboarding } from './es.onboarding';

export { errorText } from './es';
export { formatCelular };

/**
 * PIN recovery's Spanish (Paraguayan voseo). Titles and fallbacks are the spec's (sections 2 and
 * 8), copied verbatim; the rest are ours, in the same voice.
 */
export const recovery = {
  backToLogin: 'Volver al inicio de sesión',
  backToRequest: 'Volver a Recuperar Pin',
  request: {
    title: 'Recuperar Pin',
    intro:
      'Ingresá tu número de documento y el celular que registraste. Te vamos a enviar un código por SMS.',
    documentoLabel: 'Número de documento',
    documentoPlaceholder: '1234567',
    celularLabel: 'Celular registrado',
    celularPlaceholder: '098XXXXXXX',
    celularHint: 'Como lo tenés agendado: 0981 123 456 o +595 981 123 456.',
    submit: 'Enviar código',
    submitting: 'Enviando...',
  },
  /** Beside a disabled submit: what is missing. */
  missing: {
    documentoAndCelular: 'Ingresá tu número de documento y tu celular registrado para continuar.',
    documento: 'Ingresá tu número de documento para continuar.',
    celular: 'Ingresá tu celular registrado para continuar.',
    pin: 'Escribí tu nuevo PIN de 6 dígitos para continuar.',
  } satisfies Record<RecoveryMissing, string>,
  verification: {
    ...onboarding.verification,
    title: 'Verificá tu código',
    intro: (celular: string) =>
      `Si los datos coinciden con tu registro, te enviamos un código de 6 dígitos por SMS al ${celular}.`,
    submit: 'Validar código',
    /** After 'Enviar código', for when no SMS arrives (issue 29 item 15). */
    noSms: {
      title: '¿No te llegó el SMS?',
      registered:
        'Solo lo enviamos si el celular es el que registraste con ese número de documento: revisá los dos datos.',
      // The wait itself is the countdown above: one wait on the screen (issue 43 item 9).
      retry:
        'Si son correctos, esperá un poco: el SMS puede demorar. Cuando termine la espera, podés pedir otro código.',
    },
  },
  newPin: {
    title: 'Nuevo PIN',
    intro: 'Elegí un PIN de 6 dígitos que no sea una secuencia fácil ni una fecha de cumpleaños.',
    pinLabel: 'Nuevo PIN de 6 dígitos',
    pinPlaceholder: '••••••',
    submit: 'Guardar PIN',
    submitting: 'Guardando...',
  },
  done: {
    title: '¡PIN actualizado correctamente!',
    body: 'Por seguridad cerramos las sesiones abiertas. Ingresá con tu número de documento y tu nuevo PIN.',
    toLogin: 'Volver al login',
  },
  unexpected: {
    title: 'Recuperar Pin',
  },
} as const;

/** Step 0 and 2 errors: the server's message when it sent one, else these (spec 8). */
export const recoveryErrors: Record<RecoveryErrorCode, string> = {
  documentoInvalid: 'Ingresá tu número de documento (al menos 5 dígitos).',
  celularInvalid: 'Ingresá tu celular registrado: solo números, como 0981123456.',
  sendFailed: 'No se pudo enviar el código. Verifique los datos.',
  pinInvalid: 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
  pinFromOwnData:
    'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
  saveFailed: 'No se pudo guardar el PIN.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  unexpected: sharedErrors.unexpected,
};

/** Step 1 (the shared OTP child) in PIN recovery: the spec's recovery fallbacks. */
export const recoveryOtpErrors: Record<OtpErrorCode, string> = {
  wrongCode: 'Código incorrecto o vencido.',
  network: 'No pudimos validar tu código. Revisá tu conexión e intentá nuevamente.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
  resendFailed: 'No se pudo reenviar el código. Intentá de nuevo.',
};
