import { shortWaitText } from '../http/messages';

/** Spanish answers of the PIN recovery API (voseo; the spec's fallbacks where it has them). */
export const recoveryMessages = {
  /** The one answer of send-pin-otp, whether or not the document and mobile match. */
  codeSent:
    'Si el número de documento y el celular coinciden con tu registro, te enviamos un código por SMS. Vence en 5 minutos.',
  /** The wait between two sends for one pair (issue 43 item 8): the same for every pair. */
  resendWait: (seconds: number) =>
    `Si los datos coinciden con tu registro, ya te enviamos un código. Podés pedir otro en ${shortWaitText(seconds)}.`,
  badDocument: 'Ingresá tu número de documento (solo números).',
  badCelular: 'Ingresá tu celular registrado: solo números, como 0981123456.',
  badOtp: 'Ingresá el código de 6 dígitos que te enviamos por SMS.',
  wrongOtp: 'Código incorrecto o vencido.',
  otpOk: 'Código verificado. Ya podés elegir tu nuevo PIN.',
  badPin: 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
  pinFromOwnData:
    'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
  noGrant:
    'Tu autorización para cambiar el PIN venció o no es válida. Volvé a pedir un código por SMS.',
  pinChanged: 'PIN actualizado correctamente. Ya podés ingresar con tu nuevo PIN.',
} as const;
