import type { FlowError } from '../../machines/shared/errors';

const moment = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});

/** A waiting period in words: '24 horas', '1 hora', '30 minutos', '7 segundos'. */
function waitText(hours: number): string {
  if (hours >= 1) return `${Math.round(hours)} ${Math.round(hours) === 1 ? 'hora' : 'horas'}`;
  const minutes = Math.round(hours * 60);
  if (minutes >= 1) return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
  return `${Math.max(1, Math.round(hours * 3600))} segundos`;
}

/** 'Eliminar mi cuenta' (issue 45 item 6), in voseo: what goes, what stays and why. */
export const myDataDeletion = {
  title: 'Eliminar mi cuenta',
  loading: 'Cargando...',
  deletedTitle: 'Si eliminás tu cuenta, borramos:',
  deleted: [
    'tu cuenta y tus datos: nombre, cédula, fecha de nacimiento, celular, correo y PIN;',
    'tu rostro registrado para ingresar con la cara;',
    'las fotos y los datos de tu verificación de identidad;',
    'tus sesiones abiertas, tus códigos y los SMS que guardamos.',
  ],
  keptTitle: 'Lo que queda',
  kept: 'La ley nos pide guardar el registro de quién miró tus datos y de cada ingreso a tu cuenta. Queda sin tu nombre, tu cédula ni tu celular: nadie puede saber que eras vos.',
  clinicalTitle: 'Tu historia clínica',
  clinical:
    'Tu historia clínica la guarda el Ministerio de Salud Pública y no se borra con tu cuenta. Para consultarla, acercate a tu centro de salud.',
  wait: (hours: number | null) =>
    hours === null
      ? 'Para cuidarte, tu cuenta se elimina un tiempo después de pedirlo. Hasta entonces podés cancelarlo.'
      : `Para cuidarte, tu cuenta se elimina ${waitText(hours)} después de pedirlo. Hasta entonces podés cancelarlo.`,
  again: 'Después podés registrarte de nuevo cuando quieras, desde cero.',
  start: 'Quiero eliminar mi cuenta',
  pinTitle: 'Confirmá con tu PIN',
  pinIntro: 'Después te enviamos un código por SMS a tu celular registrado.',
  pinLabel: 'Tu PIN (6 dígitos)',
  sendCode: 'Enviarme el código',
  sending: 'Enviando...',
  codeTitle: 'Ingresá el código del SMS',
  codeIntro: 'Te enviamos un código de 6 dígitos a tu celular registrado. Vence en 5 minutos.',
  codeLabel: 'Código (6 dígitos)',
  confirm: 'Confirmar la eliminación',
  confirming: 'Pidiendo...',
  resend: 'Reenviar el código',
  back: 'Volver',
  pendingTitle: 'Tu cuenta se va a eliminar',
  pending: (dueAt: string) =>
    `Tu cuenta se eliminará el ${moment.format(new Date(dueAt))}. Hasta entonces podés seguir ingresando y cancelarlo.`,
  pendingSms: 'Te avisamos por SMS. Cuando se elimine, te llega otro SMS de confirmación.',
  cancel: 'Cancelar la eliminación',
  /** On every other section of Mis datos while a deletion waits. */
  banner: (dueAt: string) =>
    `Pediste eliminar tu cuenta: se eliminará el ${moment.format(new Date(dueAt))}.`,
  bannerAction: 'Ver o cancelar',
  cancelling: 'Cancelando...',
  cancelledTitle: 'Cancelaste la eliminación',
  cancelled: 'Tu cuenta sigue activa, con todos tus datos.',
  askAgain: 'Pedirlo de nuevo',
  loadFailed: 'No pudimos cargar esta sección. Revisá tu conexión e intentá de nuevo.',
  retry: 'Intentar de nuevo',
  sessionEnded: 'Tu sesión terminó. Ingresá de nuevo para seguir.',
  login: 'Ingresar',
  /** An error's sentence: the server's own when it sent one, else by its kind. */
  error: (error: FlowError) =>
    error.code === 'network'
      ? 'No pudimos conectar. Revisá tu conexión e intentá de nuevo: no perdiste nada.'
      : (error.serverMessage ?? 'Algo salió mal. Intentá de nuevo.'),
} as const;
