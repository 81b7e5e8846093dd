import type {
  OperatorCaseKind,
  CaseStep,
  CaseTrigger,
  CorrectableField,
  DecisionOutcome,
  EvidenceImage,
  FieldOrigin,
  IdentityReason,
  OperatorErrorCode,
  OperatorNotice,
  RejectReason,
} from '../../machines/operators/operators.types';
import { sharedErrors } from './es';

/**
 * The back office at /operador (issue 30), for the service's staff. The spec leaves its texts open
 * beyond the buttons the issue names ('Ingresar con tu llave de acceso', 'Crear llave de acceso',
 * 'Tomar el siguiente', 'Buscar por código', 'Corregir', 'Aprobar', 'Rechazar', 'Pedir que repita',
 * 'Soltar', 'Tomar foto', 'Necesita supervisor', 'Queda pendiente de un supervisor').
 */
export const operador = {
  title: 'Verificación asistida',
  checking: 'Verificando tu sesión...',
  login: {
    title: 'Ingreso de operadores',
    intro: 'Ingresá con la llave de acceso que registraste en este equipo o en tu teléfono.',
    submit: 'Ingresar con tu llave de acceso',
    busy: 'Esperando tu llave de acceso...',
  },
  notices: {
    sessionExpired: 'Tu sesión terminó. Ingresá de nuevo con tu llave de acceso.',
    loggedOut: 'Cerraste la sesión.',
  } satisfies Record<OperatorNotice, string>,
  enrolment: {
    title: 'Alta de operador',
    loading: 'Verificando el enlace...',
    greeting: (nombre: string) => `Hola, ${nombre}`,
    intro:
      'Vas a crear una llave de acceso (passkey) para ingresar a la verificación asistida. Solo vos podés usarla, con tu huella, tu rostro o el PIN de tu equipo.',
    role: (rol: string) => `Rol: ${rol}`,
    submit: 'Crear llave de acceso',
    busy: 'Creando tu llave de acceso...',
    retry: 'Intentar de nuevo',
    toLogin: 'Ir al ingreso',
  },
  roles: { revisor: 'Revisor', supervisor: 'Supervisor' } as Record<string, string>,
  header: {
    operator: (nombre: string, rol: string) => `${nombre} (${rol})`,
    logout: 'Cerrar sesión',
    loggingOut: 'Cerrando sesión...',
  },
  errors: {
    linkInvalid:
      'El enlace de alta venció o ya se usó. Pedí uno nuevo a quien administra el sistema.',
    hostIsIp:
      'Esta página se abrió con una dirección IP (como 127.0.0.1) y las llaves de acceso solo funcionan con el nombre del sitio. Abrí el mismo enlace cambiando la dirección IP por localhost (si el sistema corre en este equipo) o por el nombre del sitio.',
    cancelled: 'Se canceló la llave de acceso. Intentá de nuevo cuando estés listo.',
    unsupported:
      'Este navegador no admite llaves de acceso. Usá un navegador actualizado (Chrome, Edge, Firefox o Safari).',
    passkeyFailed: 'No se pudo usar la llave de acceso. Intentá de nuevo.',
    rejected: 'La llave de acceso no fue aceptada. Si es tu primera vez, usá tu enlace de alta.',
    network: 'No hay conexión con el servidor. Intentá de nuevo en unos momentos.',
    tooManyAttempts: sharedErrors.tooManyAttempts,
    notFound: 'No se encontró lo que buscabas.',
    forbidden: 'Tu rol no permite esta acción.',
    conflict: 'Otro operador ya tomó o decidió este caso.',
    caseChanged:
      'El caso cambió desde que lo abriste (una corrección o una foto nueva). Revisalo de nuevo antes de aprobar.',
    server: sharedErrors.unexpected,
  } satisfies Record<OperatorErrorCode, string>,
} as const;

/** Triggers, kinds and the engine's reasons in words (never the codes). */
export const operadorTerms = {
  kinds: {
    review: 'Revisión',
    centro: 'Centro de salud',
    duplicate: 'Posible duplicado',
    correction: 'Corrección de datos',
  } satisfies Record<OperatorCaseKind, string>,
  triggers: {
    patient_choice: 'El paciente pidió ayuda',
    liveness_failed: 'La selfie no pasó la prueba de vida',
    document_unreadable: 'No se pudo leer la cédula',
    no_face_on_document: 'No se encontró la foto en la cédula',
    face_mismatch: 'La cara no coincide con la de la cédula',
    document_mismatch: 'El frente y el dorso son de cédulas distintas',
    no_camera: 'Sin cámara disponible',
    possible_duplicate: 'La cara ya está registrada con otra cédula',
    patient_correction: 'El paciente pidió corregir un dato',
  } satisfies Record<CaseTrigger, string>,
  reasons: {
    session_invalid: 'Sesión de verificación no válida',
    session_expired: 'La sesión de verificación venció',
    session_closed: 'La sesión de verificación ya estaba cerrada',
    liveness_missing: 'Falta la prueba de vida',
    attempts_exhausted: 'Se agotaron los intentos',
    frames_exhausted: 'Se agotaron las imágenes de la prueba de vida',
    cues_missed: 'No parpadeó cuando se le pidió',
    light_mismatch: 'No se vio en la cara la luz de la pantalla',
    face_changed: 'Otra cara tomó la validación',
    light_unjudged: 'No se pudo juzgar la luz de la pantalla (demasiada luz o la cara lejos)',
    scan_in_progress: 'Había otra lectura en curso',
    face_mismatch: 'La cara no coincide con la de la cédula',
    no_face_on_document: 'No se encontró la foto en el frente',
    not_a_document: 'El frente no parece una cédula',
    front_unreadable: 'No se leyeron el número ni los nombres del frente',
    document_mismatch: 'El frente y el dorso son de cédulas distintas',
    mrz_unreadable: 'No se leyó la zona de lectura del dorso',
    back_missing: 'Falta el dorso',
    not_paraguayan: 'No es una cédula paraguaya',
    document_expired: 'La cédula está vencida',
  } satisfies Record<IdentityReason, string>,
  steps: { selfie: 'Selfie', front: 'Frente', back: 'Dorso' } satisfies Record<CaseStep, string>,
  rejectReasons: {
    faces_differ: 'La persona no es la de la cédula',
    document_invalid: 'La cédula no es válida, está vencida o no se lee',
    document_tampered: 'La cédula muestra señales de alteración',
    photos_unusable: 'Las fotos no permiten decidir',
    duplicate_person: 'Es la misma persona que el paciente ya registrado',
    other: 'Otro motivo',
  } satisfies Record<RejectReason, string>,
  fields: {
    FullName: 'Nombre completo',
    DocumentNumber: 'Número de documento',
    DateOfBirth: 'Fecha de nacimiento',
    Gender: 'Sexo',
    Nationality: 'Nacionalidad',
    MaritalStatus: 'Estado civil',
  } satisfies Record<CorrectableField, string>,
  images: {
    selfie: 'Selfie del paciente (el cuadro que decidió)',
    portrait: 'Foto de la cédula',
    front: 'Frente de la cédula',
    back: 'Dorso de la cédula',
    desk: 'Foto tomada en el centro de salud',
  } satisfies Record<EvidenceImage, string>,
};

/** A reason code in words; a code the back office does not know is shown as it is. */
export const reasonText = (code: string): string =>
  (operadorTerms.reasons as Record<string, string>)[code] ?? code;

const relative = new Intl.RelativeTimeFormat('es-PY', { numeric: 'auto' });
/** A case's age in words ('hace 3 horas'), from minutes. */
export function ageText(minutes: number): string {
  if (minutes < 1) return 'recién';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  if (minutes < 48 * 60) return relative.format(-Math.floor(minutes / 60), 'hour');
  return relative.format(-Math.floor(minutes / (24 * 60)), 'day');
}

export const queueCopy = {
  title: 'Casos abiertos',
  loading: 'Cargando los casos...',
  total: (n: number) => (n === 1 ? '1 caso abierto' : `${n} casos abiertos`),
  empty: 'No hay casos abiertos.',
  tableCaption: 'Casos abiertos, del más antiguo al más reciente',
  columns: { age: 'Antigüedad', kind: 'Tipo', trigger: 'Motivo', badge: 'Aprobación' },
  needsSupervisor: 'Necesita supervisor',
  claim: 'Tomar el siguiente',
  claiming: 'Tomando un caso...',
  nothingToTake: 'No hay casos para tomar',
  refresh: 'Actualizar',
  searchCode: 'Buscar por código',
  opening: 'Abriendo el caso...',
  expired: 'Tu sesión terminó.',
  code: {
    title: 'Buscar por código',
    intro: 'Ingresá el código que el paciente trae del celular o del SMS (8 caracteres).',
    label: 'Código',
    placeholder: 'XXXX-XXXX',
    submit: 'Buscar',
    looking: 'Buscando...',
    cancel: 'Volver a la lista',
    incomplete:
      'El código tiene 8 caracteres (letras y números, sin 0, O, 1, I, L, 2, Z, 5, S, 8 ni B).',
    limited: (seconds: number) =>
      `Demasiadas búsquedas. Esperá ${
        seconds >= 60 ? `${Math.ceil(seconds / 60)} min` : `${seconds} s`
      } y volvé a intentar.`,
  },
};

export const caseCopy = {
  title: (kind: string) => `Caso: ${kind}`,
  loading: 'Cargando el caso...',
  retry: 'Intentar de nuevo',
  backToQueue: 'Volver a la lista',
  summary: 'Resumen',
  trigger: 'Motivo',
  step: 'Paso',
  openedAt: 'Abierto',
  expiresAt: 'Vence el código',
  readOnly: 'Solo lectura: no tenés tomado este caso o ya está decidido.',
  needsSupervisor: 'Necesita supervisor',
  approvals: (n: number) => (n === 1 ? '1 aprobación' : `${n} aprobaciones`),
  evidence: 'Evidencia',
  faces: 'Selfie y foto de la cédula',
  documentSides: 'Cédula',
  missingImage: 'Imagen no disponible',
  similarity: 'Similitud de rostros',
  similarityValue: (value: number, threshold: number | null) =>
    threshold === null ? `${value} %` : `${value} % (umbral ${threshold} %)`,
  notMeasured: 'No medida',
  attempts: (liveness: number, scans: number) =>
    `Intentos: ${liveness} de prueba de vida, ${scans} de lectura de la cédula`,
  reasons: 'Rechazos del sistema',
  noReasons: 'Ninguno',
  fields: 'Datos de identidad',
  /** issue 44 item 3: the patient already registered whose face this registration's is */
  duplicate: {
    title: 'Paciente ya registrado con esta cara',
    intro:
      'La selfie de este registro se parece a la cara de un paciente ya registrado con otra cédula. Compará la selfie y la cédula de este registro con los datos del paciente registrado.',
    documento: 'Número de documento',
    nombre: 'Nombre',
    registeredAt: 'Registrado el',
    similarity: 'Similitud de las caras',
    similarityValue: (value: number, threshold: number) => `${value} % (umbral ${threshold} %)`,
    unknown: 'Sin dato',
    howToDecide:
      'Aprobá si son personas distintas: el registro sigue. Rechazá si es la misma persona: se le indica recuperar su PIN o verificar su identidad en un centro de salud.',
  },
  /** issue 43 item 7: what the patient said on 'Verificá tus datos', as their words */
  patientClaimTitle: 'Según el paciente',
  patientClaim: (field: string, says: string | undefined) =>
    `El paciente dice que «${field}» está mal${says ? ` y que debería decir «${says}»` : ''}. Es lo que dice el paciente, no un dato verificado: corregí solo lo que muestre la cédula.`,
  /** where each field's value comes from (issue 42): the approver sees what was typed */
  origins: {
    read: 'Leído de la cédula',
    typed: 'Escrito por un operador',
    missing: 'Sin dato',
  } satisfies Record<FieldOrigin, string>,
  sexes: { F: 'FEMENINO', M: 'MASCULINO', X: 'SIN ESPECIFICAR' } as Record<string, string>,
  version: (version: string) => `Versión del caso: ${version}`,
  needsCard:
    'Nadie vio la cédula de este caso: no se puede aprobar a distancia. Pedí que repita el frente o rechazalo para que verifique su identidad en un centro de salud.',
  needsSelfie:
    'Este caso no tiene selfie: no se puede aprobar a distancia. Pedí que repita la selfie o rechazalo para que verifique su identidad en un centro de salud.',
  needsSecondApproval:
    'Este caso necesita dos aprobaciones de la misma versión: la segunda, de otro supervisor.',
  correct: 'Corregir',
  correctField: (label: string) => `Corregir ${label.toLowerCase()}`,
  corrections: 'Correcciones',
  correctionLine: (field: string, from: string, to: string, reason: string, operator: string) =>
    `${field}: «${from}» → «${to}». Motivo: ${reason} (${operator})`,
  correction: {
    value: 'Valor correcto',
    reason: 'Motivo de la corrección',
    reasonHint: 'Obligatorio: por qué corregís este dato.',
    save: 'Guardar corrección',
    saving: 'Guardando...',
    choose: 'Elegí una opción',
    hints: {
      DocumentNumber: 'Solo números, sin puntos, como para ingresar.',
      DateOfBirth: 'Como en la cédula: DD/MM/AAAA.',
    } as Partial<Record<CorrectableField, string>>,
    /** why the value is refused, by field (the same rule the server checks) */
    invalid: {
      FullName: 'Escribí el nombre completo como en la cédula: apellidos y nombres, solo letras.',
      DocumentNumber:
        'El número de documento tiene de 5 a 12 dígitos, sin puntos ni letras, como para ingresar.',
      DateOfBirth: 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.',
      Gender: 'Elegí el sexo de la lista.',
      Nationality: 'Elegí la nacionalidad de la lista.',
      MaritalStatus: 'Elegí el estado civil de la lista.',
    } satisfies Record<CorrectableField, string>,
    unchanged: 'Escribí un valor distinto del actual.',
    reasonMissing: 'Escribí el motivo de la corrección (al menos 3 caracteres).',
  },
  actions: 'Decisión',
  approve: 'Aprobar',
  reject: 'Rechazar',
  repeat: 'Pedir que repita',
  release: 'Soltar',
  cancel: 'Cancelar',
  approveConfirm: {
    title: '¿Aprobar este caso?',
    body: 'El paciente podrá continuar su registro con estos datos.',
    typed: (fields: string) => `Escritos por un operador, no leídos de la cédula: ${fields}.`,
    confirm: 'Sí, aprobar',
  },
  rejectForm: {
    title: 'Rechazar el caso',
    reason: 'Motivo del rechazo',
    placeholder: 'Elegí un motivo',
    note: 'Nota (opcional, no la ve el paciente)',
    confirm: 'Confirmar rechazo',
  },
  repeatForm: {
    title: 'Pedir que repita un paso',
    legend: 'Paso a repetir',
    confirm: 'Confirmar',
  },
  needsDeskPhoto: 'Para aprobar, primero tomá la foto del paciente en el centro de salud.',
  desk: {
    title: 'Foto en el centro de salud',
    intro: 'Verificá la cédula física y tomá una foto del paciente con la cámara del escritorio.',
    start: 'Abrir la cámara del escritorio',
    camera: 'Cámara del escritorio',
    opening: 'Abriendo la cámara...',
    capture: 'Tomar foto',
    capturing: 'Tomando la foto...',
    uploading: 'Enviando la foto...',
    retryCamera: 'Reintentar la cámara',
    matchTitle: 'Coincidencia con la foto de la cédula',
    matchValue: (value: number, threshold: number | null) =>
      threshold === null ? `${value} %` : `${value} % (umbral ${threshold} %)`,
    matchAbove: 'Señal: parecida a la foto de la cédula.',
    matchBelow: 'Señal: poco parecida a la foto de la cédula. Mirá bien a la persona y la cédula.',
    noPortrait: 'No hay foto de la cédula para comparar.',
    signal: 'Es una señal para vos, no una decisión: la decisión es tuya.',
  },
  deciding: 'Registrando la decisión...',
  releasing: 'Soltando el caso...',
  outcomes: {
    approved: 'Caso aprobado. El paciente recibirá un SMS para continuar.',
    awaiting_supervisor: 'Queda pendiente de un supervisor',
    rejected: 'Caso rechazado. El paciente recibirá un SMS con el motivo.',
    repeat: 'Se pidió que el paciente repita el paso. Recibirá un SMS.',
  } satisfies Record<DecisionOutcome, string>,
  /** A patient's correction from Mis datos (issue 45 item 5): the answer is shown there, no SMS. */
  correctionOutcomes: {
    approved: 'Corrección aprobada. El dato del paciente ya cambió; lo ve en Mis datos.',
    awaiting_supervisor: 'Queda pendiente de un supervisor',
    rejected: 'Corrección rechazada. El paciente ve el motivo en Mis datos.',
    repeat: 'Una corrección no se repite.',
  } satisfies Record<DecisionOutcome, string>,
  closed: 'Volviendo a la lista...',
};
