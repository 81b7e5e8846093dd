/** Spanish messages the API answers with (voseo, as in the app). */
export const messages = {
  badRequest: 'Los datos enviados no son válidos. Revisalos e intentá de nuevo.',
  badJson: 'El cuerpo de la solicitud no es un JSON válido.',
  unsupportedMediaType: 'Formato no admitido. Enviá los datos como JSON.',
  payloadTooLarge: 'La solicitud es demasiado grande.',
  headersTooLarge: 'Los encabezados de la solicitud son demasiado grandes.',
  requestTimeout: 'La solicitud tardó demasiado. Intentá de nuevo.',
  notFound: 'No encontramos lo que buscás.',
  internal: 'Tuvimos un problema interno. Intentá de nuevo en unos minutos.',
  shuttingDown: 'El servicio se está reiniciando. Intentá de nuevo en unos segundos.',
  tooManyAttempts: (minutes: number) =>
    `Demasiados intentos. Esperá ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'} e intentá de nuevo.`,
  /** The wait between two SMS codes to one mobile (issue 43 item 8): a wait, not a fault. */
  resendWait: (seconds: number) =>
    `Ya te enviamos un código. Podés pedir otro en ${shortWaitText(seconds)}.`,
  loginBadCredentials: 'Número de documento o PIN incorrectos.',
  /** A locked ledger (issue 29 item 9): the same for any document number, registered or not. */
  loginLocked: (seconds: number) =>
    `Demasiados intentos con este número de documento. Por seguridad, esperá ${waitText(seconds)} ` +
    'e intentá de nuevo, o tocá «¿Olvidaste tu PIN?» para crear uno nuevo.',
  loginLockedForGood:
    'Demasiados intentos con este número de documento. Por seguridad, para volver a entrar tocá ' +
    '«¿Olvidaste tu PIN?» y creá un PIN nuevo.',
  loginBadInput: 'Ingresá tu número de documento y tu PIN de 6 dígitos.',
  loginOk: 'Sesión iniciada.',
  logoutOk: 'Sesión cerrada.',
} as const;

/** A wait in whole minutes up to an hour, then in whole hours (rounded up: never too early). */
function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? 'hora' : 'horas'}`;
}

/** A wait in seconds under a minute, then as waitText says it. */
export function shortWaitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s >= 60) return waitText(s);
  return `${s} ${s === 1 ? 'segundo' : 'segundos'}`;
}
