import type { AccessKind, MyDataSection } from '../../machines/my-data/my-data.types';

type IdentityField =
  'FullName' | 'DocumentNumber' | 'DateOfBirth' | 'Gender' | 'Nationality' | 'MaritalStatus';
type EvidencePart = 'selfie' | 'portrait' | 'front' | 'back' | 'desk' | 'fields';

const day = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const moment = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 'Mis datos' (issue 45): what the service holds and who looked, in plain Spanish. */
export const myData = {
  title: 'Mis datos',
  back: 'Volver al inicio',
  loading: 'Cargando tus datos...',
  sectionsLabel: 'Secciones de Mis datos',
  sections: {
    data: 'Lo que guardamos',
    accesses: 'Quién vio mis datos',
    download: 'Descargar mis datos',
    secondaryUse: 'Otros usos de mis datos',
    deletion: 'Eliminar mi cuenta',
    face: 'Mi rostro',
    corrections: 'Corregir mis datos',
  } satisfies Record<MyDataSection, string>,
  intro: 'Esto es todo lo que el servicio guarda sobre vos.',
  identityTitle: 'Tus datos de identidad',
  fields: {
    FullName: 'Nombre completo',
    DocumentNumber: 'Número de cédula',
    DateOfBirth: 'Fecha de nacimiento',
    Gender: 'Sexo',
    Nationality: 'Nacionalidad',
    MaritalStatus: 'Estado civil',
  } satisfies Record<IdentityField, string>,
  sources: {
    engine: 'Leído de tu cédula por el sistema',
    person: 'Corregido por una persona del servicio',
  },
  empty: 'Sin dato',
  accountTitle: 'Tu cuenta',
  celular: 'Celular',
  email: 'Correo electrónico',
  registeredAt: 'Fecha de registro',
  terms: 'Términos y privacidad aceptados',
  termsUnknown: 'Aceptados al registrarte (no guardamos la fecha)',
  termsVersion: (version: string) => `términos: versión ${version}`,
  privacyVersion: (version: string) => `privacidad: versión ${version}`,
  termsVersionUnknown: 'no guardamos qué versión',
  faceTitle: 'Tu rostro',
  faceEnrolled: (since: string | null) =>
    since
      ? `Tu rostro está registrado desde el ${day.format(new Date(since))} para ingresar con la cara.`
      : 'Tu rostro está registrado para ingresar con la cara.',
  faceNone: 'No tenemos tu rostro registrado.',
  evidenceTitle: 'Imágenes de tu verificación',
  evidenceNone: 'No guardamos imágenes ni datos de tu verificación.',
  evidence: (parts: string, until: string | null) =>
    until
      ? `Guardamos ${parts} hasta el ${day.format(new Date(until))}; después se borran.`
      : `Guardamos ${parts} mientras tu verificación esté abierta.`,
  parts: {
    selfie: 'tu selfie',
    portrait: 'la foto de tu cédula',
    front: 'el frente de tu cédula',
    back: 'el dorso de tu cédula',
    desk: 'la foto tomada en el centro de salud',
    fields: 'los datos leídos de tu cédula',
  } satisfies Record<EvidencePart, string>,
  and: ' y ',
  day: (iso: string) => day.format(new Date(iso)),
  moment: (iso: string) => moment.format(new Date(iso)),
  accessesIntro:
    'Cada vez que alguien del servicio miró tu verificación, y cada ingreso a tu cuenta.',
  accessesNone: 'Nadie miró tus datos todavía.',
  accessesLabel: 'Quién vio mis datos',
  kinds: {
    case_view: 'Una persona del servicio abrió tu verificación',
    case_image: 'Una persona del servicio miró una imagen de tu verificación',
    case_lookup: 'En un centro de salud buscaron tu verificación con su código',
    login: 'Ingreso con cédula y PIN',
    pin_recovery: 'Cambiaste tu PIN con un código por SMS',
    face_login: 'Ingreso con tu rostro',
    kiosk: 'Un kiosco te reconoció por tu rostro',
    my_data: 'Miraste Mis datos',
    download: 'Descargaste tus datos',
    secondary_use: 'Cambiaste tu elección sobre otros usos de tus datos',
    deletion_request: 'Pediste eliminar tu cuenta',
    deletion_cancel: 'Cancelaste la eliminación de tu cuenta',
    face_lock: 'Bloqueaste el reconocimiento de tu rostro',
    face_unlock: 'Desbloqueo del reconocimiento de tu rostro',
    face_withdraw: 'Borraste tu rostro',
    correction: 'Pediste corregir un dato',
  } satisfies Record<AccessKind, string>,
  /** a failed try says what was tried, not what was done (a failed recovery changed nothing) */
  failedKinds: {
    pin_recovery: 'Intento de recuperar tu PIN con un código por SMS',
  } satisfies Partial<Record<AccessKind, string>> as Partial<Record<AccessKind, string>>,
  failedAttempt: 'Intento fallido',
  lockedAttempt: 'Rechazado: tu rostro estaba bloqueado',
  roles: { revisor: 'Revisor', supervisor: 'Supervisor' },
  role: (role: string) => `Quién: ${role}`,
  centre: (centre: string) => `Centro de salud: ${centre}`,
  image: (part: string) => `Qué: ${part}`,
  device: (device: string) => `Kiosco n.º ${device}`,
  loadFailed: 'No pudimos cargar tus datos. Revisá tu conexión e intentá de nuevo.',
  retry: 'Intentar de nuevo',
  sessionEnded: 'Tu sesión terminó. Ingresá de nuevo para ver tus datos.',
  login: 'Ingresar',
} as const;
