import type { CameraErrorCode } from '../../machines/shared/camera';

/** The camera's failures (docs/decisions.md, 'Texts the spec leaves open'), for every capture step and the kiosk. */
export const cameraErrors: Record<CameraErrorCode, string> = {
  insecureContext: 'La cámara solo funciona en una conexión segura (HTTPS o localhost).',
  unsupported: 'Tu navegador no permite usar la cámara. Probá con otro navegador.',
  permissionDenied:
    'No diste permiso para usar la cámara. Habilitalo en la configuración del navegador.',
  notFound: 'No encontramos una cámara en este dispositivo.',
  openFailed: 'No se pudo abrir la cámara',
};

/** What the patient can do next, by failure (shown under the message). */
export const cameraHelp: Record<CameraErrorCode, string> = {
  insecureContext: 'Abrí esta página con una dirección que empiece con https://.',
  unsupported: 'Podés usar Chrome, Firefox, Safari o Edge actualizados.',
  permissionDenied:
    'Cuando habilites la cámara, esta pantalla sigue sola: no hace falta recargar la página.',
  notFound: 'Conectá una cámara o usá otro dispositivo.',
  openFailed: 'Cerrá otras aplicaciones que estén usando la cámara y probá de nuevo.',
};

export const camera = {
  retry: 'Reintentar',
  videoLabel: 'Vista de la cámara',
} as const;
