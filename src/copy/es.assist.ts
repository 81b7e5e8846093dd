import type { AssistErrorCode, RejectReason } from '../../machines/kyc/kyc.assist.types';

export { errorText } from './es';

/**
 * The patient's way out of the identity step (issue 30), in the KYC chunk with its screens: a
 * person reviews the case, or the patient verifies at a health centre. What made the case (its
 * trigger) is never shown to the patient.
 */
export const assist = {
  /** On every identity step, below its own actions. */
  action: 'No puedo completar este paso',
  /** On a refusal repeated, above the two choices. */
  direct: '¿Seguís sin poder? No hace falta que lo intentes otra vez: podés seguir de otra forma.',
  review: 'Que lo revise una persona',
  reviewHint: 'Una persona revisa las fotos que ya enviaste y te avisamos por SMS.',
  centre: 'Verificar en un centro de salud',
  centreHint: 'Te damos un código para mostrar con tu cédula en un centro de salud.',
  back: 'Volver',
  retry: 'Reintentar',
  offer: {
    title: '¿No podés completar este paso?',
    intro:
      'Podés seguir tu registro de otra forma. Elegí la que te quede mejor: lo que ya enviaste no se pierde.',
  },
  opening: 'Abriendo tu caso...',
  openFailedTitle: 'No pudimos abrir tu caso',
  /** The way out of a screen whose case stays open (issue 43 item 8: 'Cancelar' read as cancelling it). */
  leaveOpenCase: {
    label: 'Salir',
    note: 'Si salís, tu caso sigue abierto: no se cancela y te avisamos por SMS.',
  },
  waiting: {
    title: 'Una persona va a revisar tu caso',
    expected: (date: string) => `Te vamos a responder a más tardar el ${date}.`,
    sms: 'Te vamos a avisar por SMS cuando tu caso esté revisado.',
    resume:
      'Podés cerrar esta página. Cuando recibas el SMS, abrí su enlace para seguir tu registro donde lo dejaste.',
    refresh: 'Actualizar',
    refreshing: 'Consultando tu caso...',
    switchHint: '¿Preferís no esperar? Podés verificar tu identidad en un centro de salud.',
  },
  centreCase: {
    title: 'Verificá tu identidad en un centro de salud',
    intro:
      'Llevá tu cédula a uno de los centros de salud de la lista y mostrá este código. Ahí te sacan una foto y terminan tu verificación.',
    codeLabel: 'Tu código',
    deadline: (date: string) => `Podés usarlo hasta el ${date}.`,
    sms: 'También te lo enviamos por SMS.',
    centresTitle: 'Centros de salud que verifican identidades',
    departmentLabel: 'Departamento',
    departmentPlaceholder: 'Elegí un departamento',
    loading: 'Cargando los centros de salud...',
    chooseDepartment: 'Elegí tu departamento para ver sus centros de salud.',
    listLabel: (departamento: string) => `Centros de salud de ${departamento}`,
    place: (direccion: string, ciudad: string) => `${direccion}, ${ciudad}`,
    /** A department without a centre: the nearest ones (issue 43 item 10). */
    noCentre: (departamento: string) =>
      `Todavía no hay un centro de salud que verifique identidades en ${departamento}. Tu código vale en cualquier centro: estos son los más cercanos.`,
    nearestLabel: (departamento: string) => `Centros de salud más cercanos a ${departamento}`,
    nearPlace: (direccion: string, ciudad: string, departamento: string) =>
      `${direccion}, ${ciudad} (${departamento})`,
  },
  rejected: {
    title: 'No pudimos verificar tu identidad',
    intro: 'Una persona revisó tu caso y no pudo verificar tu identidad:',
    centreOffer: 'Todavía podés verificarla en persona, con tu cédula, en un centro de salud.',
  },
  expired: {
    title: 'Tu código venció',
    body: 'Pasó la fecha para verificar tu identidad en un centro de salud. Podés pedir un código nuevo o que una persona revise tu caso.',
    newCode: 'Pedir un código nuevo',
  },
  decided: {
    title: 'Tu caso ya fue revisado',
    body: 'Te enviamos un SMS con un enlace: abrilo para seguir tu registro donde corresponde.',
  },
  /** A person's decision, said on the screen it reopens. */
  notices: {
    verified: 'Una persona verificó tu identidad. Completá estos datos para terminar tu registro.',
    selfie: 'Una persona revisó tu caso y te pide que vuelvas a sacar la selfie.',
    front: 'Una persona revisó tu caso y te pide una nueva foto del frente de tu cédula.',
    back: 'Una persona revisó tu caso y te pide una nueva foto del dorso de tu cédula.',
  },
} as const;

/** Why a person rejected the case, in words (contract/cases.ts REJECT_REASONS). */
export const rejectReasons: Record<RejectReason, string> = {
  faces_differ: 'La persona de la selfie no es la de la foto de la cédula.',
  document_invalid: 'La cédula no es válida, está vencida o no se puede leer.',
  document_tampered: 'La cédula muestra señales de haber sido modificada.',
  photos_unusable: 'Las fotos no permiten ver bien tu cara ni tu cédula.',
  // Issue 44 item 3: a 'posible duplicado' rejected (nothing about the other record).
  duplicate_person:
    'Tu cara ya está registrada con otra cédula. Si ya tenés una cuenta, recuperá tu PIN en /recuperar-pin; si no, verificá tu identidad en un centro de salud con tu cédula.',
  other: 'Lo que enviaste no alcanza para verificar tu identidad.',
};

export const assistErrors: Record<AssistErrorCode, string> = {
  network: 'No pudimos conectarnos. Revisá tu conexión y tocá «Reintentar»: no se perdió nada.',
  failed: 'No pudimos abrir tu caso. Intentá de nuevo en unos minutos.',
  caseTaken:
    'Una persona ya está revisando tu caso, así que ya no se puede pasar a un centro de salud. Te avisamos por SMS.',
  caseDecided: 'Tu caso ya fue revisado.',
  registrationComplete:
    'Tu registro ya está completo. Ingresá con tu número de documento y tu PIN.',
  centresFailed: 'No se pudieron cargar los centros de salud.',
};
