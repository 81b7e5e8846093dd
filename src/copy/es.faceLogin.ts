import type {
  AuthStatus,
  CameraStatus,
  KioskMoment,
} from '../../machines/face-login/face-login.selectors';
import type {
  ActivationErrorCode,
  FaceLoginErrorCode,
} from '../../machines/face-login/face-login.types';
import { sharedErrors } from './es';

/** The face-authentication page (spec 2 'Face-authentication page', 8, 9). */
export const faceLogin = {
  title: 'Autenticación facial',
  instruction: 'Tocá “Habilitar cámara” para continuar.',
  enableCamera: 'Habilitar cámara',
  start: 'Start Authentication',
  stop: 'Stop',
  modeLegend: 'Modo',
  modes: { manual: 'Manual', kiosk: 'Kiosco' },
  mirror: 'Imagen espejada',
  statusTitle: 'Estado',
  statusLabels: {
    camera: 'Cámara',
    session: 'Sesión',
    profile: 'Perfil',
    interval: 'Intervalo',
    state: 'Estado',
  },
  none: '—',
  intervalMs: (ms: number) => `${ms} ms`,
  cameraStates: {
    off: 'Apagada',
    opening: 'Abriendo...',
    live: 'Activa',
    failed: 'Con error',
  } satisfies Record<CameraStatus, string>,
  authStates: {
    idle: 'Lista',
    waiting: 'Esperando la cámara',
    starting: 'Iniciando...',
    polling: 'Validando...',
    decided: 'Resultado',
    stopped: 'Detenida',
    failed: 'Error',
    cooldown: 'Resultado',
    retrying: 'Reintentando...',
    blocked: 'Dispositivo no habilitado',
  } satisfies Record<AuthStatus, string>,
  feedbackTitle: 'Indicaciones',
  noFeedback: 'Sin indicaciones por ahora.',
  resultTitle: 'Resultado',
  resultLabels: {
    name: 'Nombre',
    document: 'Documento',
    confidence: 'Confianza',
    threshold: 'Umbral usado',
  },
  score: (x: number) => x.toFixed(2),
  notRecognised: 'No reconocido',
  retryIn: 'Volvemos a intentar en unos segundos.',
  deviceHelpTitle: 'Este dispositivo no está habilitado',
  deviceHelp:
    'Por seguridad, solo los dispositivos de confianza pueden reconocer pacientes. Pedile a la persona a cargo que genere un enlace de activación para este dispositivo (npm run kiosk -- add "Nombre del dispositivo") y abrilo una sola vez en este navegador.',
  /** The kiosk's patient screen: nothing diagnostic, nobody's full name or number. */
  kiosk: {
    statusLabel: 'Reconocimiento',
    greeting: (names: string) => (names ? `¡Hola, ${names}!` : '¡Hola!'),
    documentTail: (digits: string) => `Documento terminado en ${digits}`,
    moments: {
      preparing: 'Preparando la cámara...',
      looking: 'Mirá a la cámara y parpadeá.',
      recognised: '',
      notRecognised: 'Acercate y mirá a la cámara para intentar de nuevo.',
      paused: 'Volvemos a intentar en unos segundos.',
    } satisfies Record<KioskMoment, string>,
  },
  activating: 'Habilitando este dispositivo...',
  activated: (name: string) => `Dispositivo habilitado: ${name}.`,
} as const;

/** Failures of an attempt, when the server sent no message of its own (spec 8). */
export const faceLoginErrors: Record<FaceLoginErrorCode, string> = {
  deviceNotActivated: 'Este dispositivo no está habilitado para el reconocimiento facial.',
  startFailed: 'No se pudo iniciar sesión',
  frameFailed: 'Error en liveness',
  network: 'Error conectando al servidor. Verifique sus datos o intente más tarde.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
};

export const activationErrors: Record<ActivationErrorCode, string> = {
  invalidLink:
    'El enlace de activación no es válido, ya se usó o venció. Pedile uno nuevo a la persona a cargo.',
  network:
    'No pudimos habilitar el dispositivo: no hay conexión con el servidor. Abrí el enlace de nuevo.',
};
