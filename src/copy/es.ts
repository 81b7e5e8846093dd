import type { LoginErrorCode, LoginMissing } from '../../machines/login/login.types';
import type { DashboardButton, EmergencyLine } from '../../machines/dashboard/dashboard.types';

/** THE Spanish catalogue. Texts from the spec are copied verbatim. */
export const appName = 'Portal del Paciente';

export const common = {
  appName,
  back: 'Volver',
  backHome: 'Volver al inicio',
  loading: 'Cargando...',
  logoAlt: `${appName}, inicio`,
} as const;

/** The show/hide button of every masked PIN field (src/components/PinField.tsx). */
export const pinField = {
  show: 'Mostrar PIN',
  hide: 'Ocultar PIN',
  placeholder: '••••••',
} as const;

export const landing = {
  title: appName,
  subtitle: 'Tu salud, a un toque. Registrate o ingresá con tu número de documento.',
  register: 'Registrarme',
  login: 'Ingresar',
  terms: 'Términos y condiciones',
} as const;

export const login = {
  title: 'Iniciar sesión',
  documentoLabel: 'Número de documento',
  documentoPlaceholder: '1234567',
  pinLabel: 'PIN',
  pinPlaceholder: '••••••',
  pinHint: 'Tu PIN de 6 dígitos',
  submit: 'Validar',
  submitting: 'Validando...',
  /** While the login is checked (up to seconds after repeated failures), beside 'Validando...'. */
  checking: 'Estamos verificando tus datos. Puede tardar unos segundos.',
  forgotPin: '¿Olvidaste tu PIN?',
  backToHome: common.backHome,
  /** Beside the disabled 'Validar': what is missing. */
  missing: {
    documentoAndPin: 'Ingresá tu número de documento (al menos 5 dígitos) y tu PIN de 6 dígitos.',
    documento: 'Ingresá tu número de documento (al menos 5 dígitos).',
    pin: 'Ingresá tu PIN de 6 dígitos.',
  } satisfies Record<LoginMissing, string>,
} as const;

/** Texts several flows share. The 429 fallback is used only when the server sent no message (it says N minutes). */
export const sharedErrors = {
  tooManyAttempts: 'Demasiados intentos. Esperá unos minutos e intentá de nuevo.',
  unexpected: 'Algo salió mal, recargá la página.',
} as const;

/** Fallbacks when the server sends no message of its own (spec section 8, Login). */
export const loginErrors: Record<LoginErrorCode, string> = {
  loginFailed: 'Error de login',
  rejected: 'Error de autenticación.',
  network: 'Error conectando al servidor. Verifique sus datos o intente más tarde.',
  tooManyAttempts: sharedErrors.tooManyAttempts,
};

/** The server's own message when it sent one, else the catalogue's text for the code. */
export function errorText<C extends string>(
  error: { code: C; serverMessage?: string | undefined } | null,
  catalogue: Record<C, string>,
): string | null {
  return error ? (error.serverMessage ?? catalogue[error.code]) : null;
}

export const dashboard = {
  title: 'Inicio',
  greeting: (nombre: string) => `Hola, ${nombre}`,
  menuLabel: 'Menú',
  /** the menu's entry to 'Mis datos' (issue 45; its own copy is src/copy/es.myData.ts) */
  myData: 'Mis datos',
  logout: 'Cerrar sesión',
  loggingOut: 'Cerrando sesión...',
  features: {
    autoconsulta: 'AUTOCONSULTA',
    historial: 'HISTORIAL',
    sos: 'SOS',
  } satisfies Record<DashboardButton, string>,
  comingSoon: (feature: string) => `${feature}: Próximamente. Estamos trabajando en esta función.`,
  dismiss: 'Cerrar aviso',
  /** SOS: the emergency lines, each a link that dials (issue 43 item 5). */
  sos: {
    title: 'Números de emergencia',
    intro: 'Tocá un número para llamar.',
    lines: {
      seme: { name: 'SEME 141', detail: 'Emergencias médicas y ambulancia' },
      police: { name: '911', detail: 'Policía Nacional' },
    } satisfies Record<EmergencyLine, { name: string; detail: string }>,
    close: 'Cerrar',
  },
} as const;

export const notFound = {
  title: 'Página no encontrada',
  body: 'La página que buscás no existe o cambió de lugar.',
  home: 'Ir al inicio',
} as const;
