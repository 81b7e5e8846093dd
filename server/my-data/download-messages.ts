/** The Spanish answers of the download and of secondary uses (issue 45 items 2 and 7). */
export const downloadMessages = {
  notFound: 'No encontramos esa descarga. Pedila de nuevo desde Mis datos.',
  expired: 'El enlace de descarga venció. Pedí uno nuevo desde Mis datos.',
  noToken: 'Falta el enlace de la descarga. Pedila de nuevo desde Mis datos.',
  busy: 'Estamos preparando tu archivo. Intentá de nuevo en unos segundos.',
  buildFailed: 'No pudimos preparar tu archivo. Intentá de nuevo en unos minutos.',
  badSecondaryUse: 'Elegí si aceptás o no otros usos de tus datos.',
} as const;
