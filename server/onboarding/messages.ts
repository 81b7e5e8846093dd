import { shortWaitText } from '../http/messages';

/** Spanish answers of the onboarding API (voseo, texts of spec sections 5 and 8 where it has them). */
export const onboardingMessages = {
  badPhone: 'Por favor, ingresá un número de celular válido.',
  badEmail: 'Por favor, ingresá un correo válido o dejá el campo vacío.',
  badOtp: 'Ingresá el código de 6 dígitos que te enviamos por SMS.',
  badPin: 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
  pinFromOwnData:
    'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
  badSupplementary: 'Revisá los datos complementarios: elegí un departamento y una ciudad.',
  cityNotInDepartment: 'Elegí una ciudad del departamento seleccionado.',
  codeSent: 'Te enviamos un código por SMS. Vence en 5 minutos.',
  codeResent: 'Código reenviado. Revisá tu SMS.',
  sendFailed: 'No se pudo enviar el código. Verificá tu número.',
  resendFailed: 'No se pudo reenviar el código. Intentá de nuevo.',
  wrongOtp:
    'El código ingresado es incorrecto o ya venció. Por favor, volvé a ingresar el código o solicitá el reenvío.',
  otpOk: 'Código verificado.',
  phoneExists: 'Ya existe un paciente registrado con este celular. Ingresá con tu documento y PIN.',
  documentExists: 'El paciente ya existe. Ingresá con tu documento y PIN.',
  phoneNotVerified:
    'Tu celular no está verificado o la verificación venció. Volvé a empezar el registro.',
  kycIncomplete:
    'No encontramos una verificación de identidad completa. Volvé a empezar el proceso.',
  kycUnavailable: 'El registro no está disponible en este momento. Intentá de nuevo más tarde.',
  registered: 'Registro completado. Ya podés ingresar con tu número de documento y tu PIN.',
  registrationGone:
    'Tu registro venció o lo retomaste en otro dispositivo. Verificá tu celular de nuevo para continuar.',
  pinFirst: 'Elegí tu PIN antes de seguir.',
  // The page showed terms older than those in force (contract/terms.ts): read them again.
  termsOutdated:
    'Actualizamos los términos y condiciones y la política de privacidad. Volvé a cargar la página, leelos y aceptalos para seguir.',
  // A person is deciding the registration's identity (issue 30): registering waits for it.
  caseOpen:
    'Tenés un caso de verificación abierto. Esperá la respuesta antes de terminar el registro.',
  // Duplicates at registration (issue 44 item 3): the face is an enrolled patient's. Never a
  // refusal, and nothing about the other patient: a person checks it, the answer comes by SMS.
  duplicateCase: (day: string) =>
    `Antes de terminar tu registro, una persona del servicio tiene que revisar tus datos. No tenés que hacer nada ahora: te avisamos por SMS hasta el ${day}, con un enlace para seguir.`,
  // The duplicate search of the verified face has not finished in time (issue 44): try again.
  duplicateCheckWaiting:
    'Todavía estamos revisando tu verificación de identidad. Esperá unos segundos y volvé a tocar el botón para terminar tu registro.',
  // The same face and the same document (issue 44 item 3): a patient who lost access.
  recoverPin:
    'Ya tenés una cuenta con esta cédula. Si no recordás tu PIN, recuperalo en /recuperar-pin con un código por SMS a tu celular registrado.',
  sessionOfAnother:
    'Esta verificación de identidad es de otro registro. Volvé a empezar el paso 4.',
  phoneOfAnother: 'Este celular no es el de tu registro. Volvé a empezar el registro.',
  linkSent: 'Te enviamos un enlace por SMS. Abrilo en tu celular para seguir.',
  linkFailed: 'No pudimos enviar el SMS con el enlace. Intentá de nuevo.',
  /** The wait between two links (issue 43 item 8): a wait, not a fault. */
  linkResendWait: (seconds: number) =>
    `Ya te enviamos un enlace. Podés pedir otro en ${shortWaitText(seconds)}.`,
  linkUsed:
    'Este enlace ya se usó. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
  linkExpired:
    'Este enlace venció. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
  linkInvalid:
    'Este enlace no es válido. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
  badLink: 'El enlace está incompleto. Abrilo tal como llegó en el SMS.',
  // A real link of a registration that finished (issue 29 item 16): never for a forged token.
  linkRegistrationComplete: 'Tu registro ya está completo. Ingresá.',
} as const;
