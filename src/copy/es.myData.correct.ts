import type { CorrectionField, CorrectionItem } from '../../machines/my-data/correct.machine';

const day = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** 'Corregir mis datos' (issue 45 item 5): asking that a field be corrected, and its state. */
export const myDataCorrect = {
  intro:
    'Si uno de tus datos está mal, pedí que lo corrijan. Una persona del servicio lo compara con tu cédula y te responde acá.',
  listTitle: 'Tus pedidos',
  listLabel: 'Tus pedidos de corrección',
  none: 'No pediste ninguna corrección.',
  loading: 'Cargando tus pedidos...',
  start: 'Pedir una corrección',
  chooseTitle: '¿Qué dato está mal?',
  chooseHint: 'Los datos con un pedido en revisión no se pueden elegir hasta que te respondan.',
  pendingTag: 'en revisión',
  back: 'Volver',
  now: (value: string | null) => `Ahora dice: ${value ?? 'sin dato'}`,
  writeTitle: (field: string) => `Corregir: ${field}`,
  value: 'Lo que tiene que decir',
  valueHints: {
    FullName: 'Como en tu cédula: primero apellidos, después nombres.',
    DocumentNumber: 'Solo números, sin puntos.',
    DateOfBirth: 'Como en tu cédula: DD/MM/AAAA.',
    Gender: 'Como figura en tu cédula.',
    Nationality: 'Como figura en tu cédula.',
    MaritalStatus: 'Como figura en tu cédula.',
  } satisfies Record<CorrectionField, string>,
  choose: 'Elegí',
  genders: { F: 'Femenino (F)', M: 'Masculino (M)', X: 'No binario (X)' } as Record<string, string>,
  reason: 'Por qué está mal',
  reasonHint: 'En una línea, de 5 a 300 caracteres. Por ejemplo: "Me casé en 2024".',
  send: 'Enviar el pedido',
  sending: 'Enviando...',
  sentTitle: 'Recibimos tu pedido',
  sent: (field: string) =>
    `Una persona del servicio va a revisar tu ${field.toLowerCase()}. Vas a ver la respuesta en esta sección.`,
  backToList: 'Ver mis pedidos',
  states: {
    pending: 'En revisión',
    approved: 'Corregido',
    rejected: 'No se corrigió',
  } satisfies Record<CorrectionItem['state'], string>,
  stateOf: (field: string, state: string) => `${field}: ${state}`,
  asked: (value: string) => `Pediste: ${value}`,
  askedOn: (iso: string) => `Pedido el ${day.format(new Date(iso))}`,
  decidedOn: (iso: string) => `Respondido el ${day.format(new Date(iso))}`,
  rejectReasons: {
    faces_differ: 'No pudimos comprobar que la cédula sea tuya.',
    document_invalid: 'Tu cédula no dice lo que pediste.',
    document_tampered: 'No pudimos comprobar tu cédula.',
    photos_unusable:
      'No pudimos comprobarlo con las imágenes que guardamos. Acercate a un centro de salud con tu cédula.',
    duplicate_person: 'No pudimos comprobarlo.',
    other: 'No pudimos comprobarlo.',
  } satisfies Record<NonNullable<CorrectionItem['rejectReason']>, string>,
  note: (note: string) => `Nota de la persona que lo revisó: ${note}`,
  loadFailed: 'No pudimos cargar tus pedidos. Revisá tu conexión e intentá de nuevo.',
  sendFailed: 'No pudimos enviar tu pedido. Lo que escribiste sigue acá: intentá de nuevo.',
  retry: 'Intentar de nuevo',
  sessionEnded: 'Tu sesión terminó. Ingresá de nuevo para ver tus datos.',
  login: 'Ingresar',
} as const;
