import { DOCUMENT_MAX, DOCUMENT_MIN } from '../../contract/login.constants';
import type { CorrectionField } from '../../contract/my-data-correct';

/** The Spanish answers of 'Mis datos' (issue 45). */
export const myDataMessages = {
  noSession: 'Tu sesión terminó. Ingresá de nuevo para ver tus datos.',
} as const;

/** 'Corregir' (issue 45 item 5): the patient's request refused, in voseo. */
export const correctMessages = {
  badField: 'Elegí cuál de tus datos querés corregir.',
  badReason: 'Contanos por qué en una línea, de 5 a 300 caracteres.',
  badValue: {
    FullName: 'Escribí tu nombre como en tu cédula: apellidos y nombres, solo letras.',
    DocumentNumber: `Escribí el número de cédula con ${DOCUMENT_MIN} a ${DOCUMENT_MAX} dígitos, sin puntos ni letras.`,
    DateOfBirth: 'Escribí la fecha como en tu cédula: DD/MM/AAAA.',
    Gender: 'Elegí el sexo de la lista.',
    Nationality: 'Elegí la nacionalidad de la lista.',
    MaritalStatus: 'Elegí el estado civil de la lista.',
  } satisfies Record<CorrectionField, string>,
  tooMany: (max: number) =>
    `Ya pediste ${max} correcciones en las últimas 24 horas. Podés pedir otra mañana.`,
};
