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
  loginBadCredentials: 'Número de documento o PIN incorrectos.',
  loginBadInput: 'Ingresá tu número de documento y tu PIN de 6 dígitos.',
  loginOk: 'Sesión iniciada.',
  logoutOk: 'Sesión cerrada.',
} as const;
