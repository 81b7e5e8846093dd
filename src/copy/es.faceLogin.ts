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
    timedOut: 'Tiempo agotado',
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
  deviceHelpTitle: 'Este equipo no está habilitado',
  /** No command here: patients read this page; the operator's log and docs/face-login.md have it. */
  deviceHelp:
    'Por seguridad, solo los equipos de confianza pueden reconocer pacientes. La persona a cargo tiene que habilitarlo abriendo en este navegador un enlace de activación.',
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
      timedOut: 'Se terminó el tiempo. Volvé a iniciar la validación.',
      paused: 'Volvemos a intentar en unos segundos.',
      blocked: 'Este equipo no está habilitado. Avisá al personal.',
    } satisfies Record<KioskMoment, string>,
    /** After a time-up: starts a new validation. */
    restart: 'Iniciar validación',
  },
  activating: 'Habilitando este dispositivo...',
  activated: (name: string) => `Dispositivo habilitado: ${name}.`,
} as const;

/** Failures of an attempt, when the server sent no message of its own (spec 8). */
export const faceLoginErrors: Record<FaceLoginErrorCode, string> = {
  deviceNotActivated: 'Este equipo no está habilitado. Avisá al personal.',
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
