const time = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  hour: '2-digit',
  minute: '2-digit',
});
const day = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** 'Descargar mis datos' (issue 45 item 2), in voseo. */
export const myDataDownload = {
  intro:
    'Preparamos un solo archivo con todo lo que guardamos sobre vos: tus datos, tus consentimientos, tus sesiones, quién vio tus datos, las decisiones sobre tu identidad y la historia de tus verificaciones. Las imágenes van solo si todavía las guardamos.',
  format:
    'Es un archivo ZIP con datos.json (para leer con una computadora) y resumen.html (para leer en el navegador).',
  private:
    'Nunca te mandamos tus datos por SMS ni por correo: se descargan solo desde acá, con tu sesión abierta.',
  request: 'Preparar mi archivo',
  building: 'Preparando tu archivo... Puede tardar hasta un minuto.',
  ready: 'Tu archivo está listo.',
  link: (fileName: string, size: number) =>
    `Descargar ${fileName} (${size < 1024 * 1024 ? `${Math.max(1, Math.round(size / 1024))} kB` : `${(size / 1024 / 1024).toFixed(1)} MB`})`,
  expires: (iso: string) =>
    `El enlace vence a las ${time.format(new Date(iso))}. Si lo pedís de nuevo antes, te damos el mismo archivo.`,
  expired: 'El enlace venció. Prepará un archivo nuevo.',
  again: 'Preparar de nuevo',
  failed: 'No pudimos preparar tu archivo. Revisá tu conexión e intentá de nuevo.',
  retry: 'Intentar de nuevo',
} as const;

/** 'Otros usos de mis datos' (issue 45 item 7), in voseo. */
export const secondaryUse = {
  intro:
    'Usamos tus datos para atenderte. Si no querés que se usen para nada más (por ejemplo, estudios o listados que te nombren), marcalo acá. Podés cambiarlo cuando quieras.',
  statistics:
    'Las estadísticas del portal (cuántas personas completan cada paso y cuánto tardan) no guardan ningún dato personal: no te nombran y no se pueden unir a vos.',
  loading: 'Cargando tu elección...',
  choice: 'No quiero que mis datos se usen para nada más que mi atención',
  optedOut: (since: string | null) =>
    since
      ? `Elegiste que tus datos se usen solo para tu atención (desde el ${day.format(new Date(since))}).`
      : 'Elegiste que tus datos se usen solo para tu atención.',
  notOptedOut: 'No te opusiste a otros usos de tus datos.',
  saving: 'Guardando tu elección...',
  saved: 'Guardamos tu elección.',
  saveFailed: 'No pudimos guardar tu elección. Intentá de nuevo.',
  loadFailed: 'No pudimos cargar tu elección. Revisá tu conexión e intentá de nuevo.',
  retry: 'Intentar de nuevo',
} as const;
