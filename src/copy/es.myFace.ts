const day = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** 'Mi rostro' (issue 45 item 4): lock face recognition, unlock it, or withdraw the face. */
export const myFace = {
  title: 'Mi rostro',
  intro:
    'Tu rostro sirve para ingresar con la cara en la página de ingreso y en los kioscos de los centros de salud.',
  loading: 'Cargando tu rostro...',
  since: (iso: string | null) =>
    iso
      ? `Tu rostro está registrado desde el ${day.format(new Date(iso))}.`
      : 'Tu rostro está registrado.',
  active: 'El reconocimiento de tu rostro está activo.',
  locked: (iso: string | null) =>
    `El reconocimiento de tu rostro está bloqueado${iso ? ` desde el ${day.format(new Date(iso))}` : ''}. Ni los kioscos ni el ingreso con la cara te reconocen.`,
  none: 'Sin rostro registrado',
  noneDetail: 'Ingresás con tu cédula y tu PIN.',
  noReenrol:
    'Por ahora no se puede volver a registrar el rostro desde Mis datos. Si lo necesitás, acercate a un centro de salud.',
  lock: 'Bloquear el reconocimiento',
  lockHelp:
    'Si bloqueás, nadie puede ingresar con tu cara hasta que lo desbloquees con tu PIN y un código por SMS. Para bloquear no hace falta código.',
  locking: 'Bloqueando...',
  unlock: 'Desbloquear el reconocimiento',
  unlockHelp: (celular: string | null) =>
    celular
      ? `Para desbloquear te enviamos un código por SMS a tu celular terminado en ${celular.slice(-3)}.`
      : 'Para desbloquear necesitás un celular registrado.',
  sendingCode: 'Enviando el código...',
  withdraw: 'Borrar mi rostro',
  withdrawHelp:
    'Si borrás tu rostro, lo quitamos de todos los lugares donde lo guardamos y ya no vas a poder ingresar con la cara. Seguís ingresando con tu cédula y tu PIN.',
  evidenceNote:
    'Las imágenes de tu verificación que todavía guardamos (las ves en "Lo que guardamos") no se borran con esto: son la prueba de tu verificación y se borran en la fecha indicada.',
  unlockTitle: 'Desbloquear el reconocimiento',
  unlockIntro: 'Ingresá tu PIN y el código de 6 dígitos que te enviamos por SMS.',
  pinLabel: 'Tu PIN',
  otpLabel: 'Código del SMS',
  unlockSubmit: 'Desbloquear',
  unlocking: 'Verificando...',
  resend: 'Enviar otro código',
  resendIn: (seconds: number) => `Podés pedir otro código en ${seconds} segundos.`,
  cancel: 'Cancelar',
  unlockMissing: 'Ingresá tu PIN de 6 dígitos y el código de 6 dígitos.',
  withdrawTitle: 'Borrar tu rostro',
  withdrawIntro: 'Para confirmar, ingresá tu PIN. Esto no se puede deshacer desde Mis datos.',
  withdrawSubmit: 'Sí, borrar mi rostro',
  withdrawing: 'Borrando...',
  withdrawMissing: 'Ingresá tu PIN de 6 dígitos.',
  withdrawnTitle: 'Borramos tu rostro',
  network: 'No pudimos conectarnos. Revisá tu conexión e intentá de nuevo.',
  failed: 'No pudimos cargar tu rostro. Intentá de nuevo.',
  retry: 'Intentar de nuevo',
  sessionEnded: 'Tu sesión terminó. Ingresá de nuevo para seguir.',
  login: 'Ingresar',
} as const;
