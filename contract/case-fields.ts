import * as z from 'zod/mini';
import { cardDateIso, cardDateParts } from './card-date';
import { digits, noControlCharacters } from './common';
import { DOCUMENT_MAX, DOCUMENT_MIN } from './login.constants';

/**
 * The identity fields a person may type in assisted verification (issue 42, item 2), each by the
 * rule the rest of the product holds it to: the document number as login takes it
 * (DOCUMENT_MIN..DOCUMENT_MAX digits), the date of birth by the card-date parser, sex, nationality
 * and marital status from the lists a cédula prints. The back office's form (machines/operador)
 * and the server's correction route (server/cases) check with these same schemas.
 */

/** Sex as the cédula's MRZ gives it (server/identity/mrz.ts): 'X' when it is not printed. */
export const SEXES = ['F', 'M', 'X'] as const;

/** The identity fields of a cédula: what the engine reads, an operator corrects, a patient claims. */
export const IDENTITY_FIELDS = [
  'FullName',
  'DocumentNumber',
  'DateOfBirth',
  'Gender',
  'Nationality',
  'MaritalStatus',
] as const;

/**
 * The nationalities a Paraguayan cédula prints, in words, by their ICAO 9303 code (the engine's
 * `nationalityInWords` in server/identity/cedula.ts reads them from here).
 */
export const NATIONALITY_CODES = {
  PRY: 'PARAGUAYA',
  ARG: 'ARGENTINA',
  BRA: 'BRASILEÑA',
  BOL: 'BOLIVIANA',
  URY: 'URUGUAYA',
  CHL: 'CHILENA',
  PER: 'PERUANA',
  COL: 'COLOMBIANA',
  VEN: 'VENEZOLANA',
  ECU: 'ECUATORIANA',
  MEX: 'MEXICANA',
  ESP: 'ESPAÑOLA',
  ITA: 'ITALIANA',
  DEU: 'ALEMANA',
  FRA: 'FRANCESA',
  PRT: 'PORTUGUESA',
  USA: 'ESTADOUNIDENSE',
  CHN: 'CHINA',
  TWN: 'TAIWANESA',
  KOR: 'COREANA',
  JPN: 'JAPONESA',
  CUB: 'CUBANA',
  DOM: 'DOMINICANA',
  LBN: 'LIBANESA',
} as const;
export const NATIONALITIES = Object.values(NATIONALITY_CODES) as Array<
  (typeof NATIONALITY_CODES)[keyof typeof NATIONALITY_CODES]
>;

/** 'ESTADO CIVIL' as the cédula prints it (the engine's closed set, server/identity/cedula.ts reads it). */
export const MARITAL_STATUSES = [
  'SOLTERO',
  'SOLTERA',
  'CASADO',
  'CASADA',
  'DIVORCIADO',
  'DIVORCIADA',
  'VIUDO',
  'VIUDA',
  'SEPARADO',
  'SEPARADA',
] as const;

/**
 * Surnames and given names as the card prints them: at least two words of letters (accents, Ñ),
 * joined by single spaces; an apostrophe, a hyphen or a dot inside a word.
 */
const FULL_NAME = /^\p{L}[\p{L}\p{M}'’.-]*(?: \p{L}[\p{L}\p{M}'’.-]*)+$/u;
export const FULL_NAME_MAX = 120;

/** The card's date as the card-date parser reads it (DD/MM/AAAA or AAAA-MM-DD), a real day. */
export const cardDate = z.string().check(
  z.maxLength(10),
  z.refine((v) => cardDateParts(v) !== null),
);

/** One schema per identity field a person may type. */
export const idFieldValues = {
  FullName: z
    .string()
    .check(z.minLength(3), z.maxLength(FULL_NAME_MAX), noControlCharacters(), z.regex(FULL_NAME)),
  DocumentNumber: digits(DOCUMENT_MIN, DOCUMENT_MAX),
  DateOfBirth: cardDate,
  Gender: z.enum(SEXES),
  Nationality: z.enum(NATIONALITIES as [string, ...string[]]),
  MaritalStatus: z.enum(MARITAL_STATUSES),
};
export type IdFieldName = keyof typeof idFieldValues;

/**
 * A typed value as it is kept: the date as ISO (AAAA-MM-DD, as the engine reads it), anything else
 * as typed. Only for a value its schema accepted.
 */
export const keptIdValue = (field: IdFieldName, value: string): string =>
  field === 'DateOfBirth' ? (cardDateIso(value) ?? value) : value;
