import { DOCUMENT_MAX, DOCUMENT_MIN } from '../../contract/login.constants';
import type { CorrectableField } from '../../contract/operators';

/** Spanish answers of the case routes (voseo). */
export const caseMessages = {
  // The patient's side
  pinFirst: 'Primero elegí tu PIN.',
  caseTaken: 'Una persona ya está revisando tu caso. Esperá su respuesta: te avisamos por SMS.',
  caseDecided: 'Tu caso ya tiene una decisión. Revisá su estado.',
  reviewAfterReject: 'Tu caso ya fue revisado. Podés verificar tu identidad en un centro de salud.',
  notPatientTrigger:
    'Elegí qué pasó en este paso: no pudiste completarlo o el sistema no te reconoció.',
  codeSmsFailed: 'No pudimos enviarte el código por SMS. Anotalo: lo ves en esta pantalla.',
  // The operator's side
  loginRequired: 'Ingresá con tu llave de acceso para continuar.',
  badCaseId: 'No encontramos ese caso.',
  notYours: 'Este caso no está reservado para vos. Tomalo de la cola para verlo.',
  claimLost: 'Tu reserva de este caso venció por inactividad. Tomalo de nuevo desde la cola.',
  notHeld: 'Este caso ya no está reservado para vos. Tomalo de nuevo desde la cola.',
  notOpen: 'Este caso ya tiene una decisión.',
  noImage: 'Este caso no tiene esa imagen.',
  badImage: 'Indicá una imagen válida: selfie, portrait, front, back o desk.',
  badField:
    'Revisá la corrección: indicá el campo, el valor nuevo y el motivo (al menos 3 letras).',
  badDecision:
    'Revisá la decisión: aprobar, rechazar con un motivo de la lista o pedir que repita un paso.',
  badCode: 'Ingresá un código válido de 8 caracteres (por ejemplo, ABCD-EFGH).',
  codeNotFound: 'No encontramos un caso abierto con ese código. Revisá el código y su vencimiento.',
  caseHeld: 'Otra persona está atendiendo este caso.',
  noFace:
    'Este caso no tiene ninguna foto del rostro. Tomá la foto en el escritorio antes de aprobar.',
  /** A remote review has no desk photo to take (issue 43 item 2): its selfie, or nothing. */
  noFaceRemote:
    'Este caso no tiene ninguna foto del rostro: no se puede aprobar a distancia. Pedí que repita la selfie o rechazalo para que verifique su identidad en un centro de salud.',
  fieldsMissing:
    'Faltan el nombre completo o el número de documento: corregilos con los de la cédula antes de aprobar.',
  supervisorOnly: 'Este caso necesita la aprobación de una persona con rol de supervisor.',
  secondApprover: 'La segunda aprobación tiene que ser de otro supervisor.',
  caseChanged:
    'El caso cambió desde que lo abriste (una corrección o una foto nueva). Revisalo de nuevo antes de aprobar.',
  cardMissing:
    'Nadie vio la cédula de este caso: no se puede aprobar a distancia. Pedí que repita el frente o rechazalo para que verifique su identidad en un centro de salud.',
  /** A correction whose value fails its field's rule (contract/case-fields.ts), by field. */
  badValue: {
    FullName: 'Escribí el nombre completo como en la cédula: apellidos y nombres, solo letras.',
    DocumentNumber: `El número de documento tiene de ${DOCUMENT_MIN} a ${DOCUMENT_MAX} dígitos, sin puntos ni letras, como para ingresar.`,
    DateOfBirth: 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.',
    Gender: 'Elegí el sexo de la lista.',
    Nationality: 'Elegí la nacionalidad de la lista.',
    MaritalStatus: 'Elegí el estado civil de la lista.',
  } satisfies Record<CorrectableField, string>,
  noSelfieForSide:
    'Este caso no tiene selfie: para repetir un lado del documento, pedí primero que repita la selfie.',
  notCentro: 'La foto en el escritorio es solo para los casos del centro de salud.',
  deskNotJpeg: 'Enviá la foto como imagen JPEG.',
  deskNoFace:
    'No se ve un rostro claro en la foto. Pedile al paciente que mire a la cámara con buena luz.',
  registrationGone: 'El registro de este caso ya no existe.',
  /** 'Corregir' in Mis datos (issue 45 item 5): the patient's answers and the operator's. */
  correctionSameValue: 'Ese dato ya dice eso. Escribí el valor correcto si es otro.',
  correctionOpen:
    'Ya pediste corregir este dato y una persona lo está revisando. Esperá su respuesta en Mis datos.',
  correctionNoRepeat:
    'En una corrección de datos no se repite un paso: aprobala o rechazala con el motivo.',
  correctionOtherField:
    'En una corrección pedida por el paciente solo se corrige el dato que pidió.',
  correctionCardMissing:
    'No hay imagen de la cédula guardada: el nombre o el número de cédula no se cambian a distancia. Rechazalo para que el paciente vaya a un centro de salud con su cédula.',
  correctionStale:
    'El dato del paciente cambió desde que pidió la corrección. Rechazala: puede pedirla de nuevo.',
  correctionDocumentTaken: 'Ese número de cédula ya es de otro paciente: no se puede aprobar.',
  /** A 'posible duplicado' (issue 44 item 3) is decided by a supervisor, and never as a repeat. */
  duplicateSupervisorOnly: 'Un posible duplicado lo decide una persona con rol de supervisor.',
  duplicateNoRepeat:
    'En un posible duplicado no se repite un paso: aprobalo si son personas distintas o rechazalo.',
};
