import {
  crossCheckNames,
  findMaritalStatus,
  frontNumbers,
  looksLikeCard,
  matchNumber,
  normaliseDocumentNumber,
  photoAreaOf,
  type Area,
  type OcrWord,
} from './cedula';
import { identityMessages } from './errors';
import type { MrzRead } from './mrz';

/**
 * The document verdict: a pure function of what the OCR read (document-ocr.ts) and today's date.
 * The front must prove it is the front of the same cédula as the back, failing closed: its printed
 * labels present, its printed document number and names equal to the MRZ's, and the photo area
 * located from the labels (the face check uses the face printed there). 'ESTADO CIVIL' comes from the
 * front, or from the back's printed text when the front does not carry it.
 */
export type IdData = {
  FullName: string;
  DocumentNumber: string;
  DateOfBirth: string;
  Gender: 'M' | 'F' | 'X';
  Nationality: string;
  /** From the printed 'ESTADO CIVIL', matched to its closed set; '' when it could not be read. */
  MaritalStatus: string;
};

export type DocumentChecks = {
  mrzCheckDigits: boolean;
  issuingStatePry: boolean;
  notExpired: boolean | null;
  namesMatchFront: boolean | null;
  maritalStatusRead: boolean;
  /** The front shows a cédula's printed labels (not a selfie or another picture). */
  frontIsDocument: boolean;
  /** The front's printed document number equals the MRZ's; null when it could not be read. */
  numberMatchesFront: boolean | null;
  /** The photo area was located from the printed labels. */
  photoAreaFound: boolean;
};

export type DocumentReading = {
  ok: boolean;
  idData?: IdData;
  checks: DocumentChecks;
  /** How many OCR passes ran on the back before a valid MRZ (or all of them). */
  passes: number;
  pass?: string;
  error?: string;
  mrz?: { lines: [string, string, string]; autocorrected: number; expirationDate: string };
  /** Where the card's photo is on the front (left of the printed fields), when the labels were found. */
  photoArea?: Area;
};

/** What the OCR read of one document: the back's MRZ (null: no read validated) and printed text. */
export type DocumentText = {
  back: { mrz: MrzRead | null; passes: number; pass?: string | undefined };
  /** The front's printed text, and each word with its box. */
  front: { text: string; words: OcrWord[] };
  /** The back's printed text above the MRZ; '' when it was not read (the front has 'ESTADO CIVIL'). */
  backText: string;
};

/** Today as YYYY-MM-DD (UTC), the day a document's expiry is compared with. */
export const today = () => new Date().toISOString().slice(0, 10);

/** The verdict on one document: ok with its identity data, or which Spanish error, and the checks. */
export function documentVerdict(read: DocumentText, day: string = today()): DocumentReading {
  const frontText = read.front.text;
  const photoArea = photoAreaOf(read.front.words);
  const checks: DocumentChecks = {
    mrzCheckDigits: Boolean(read.back.mrz),
    issuingStatePry: false,
    notExpired: null,
    namesMatchFront: null,
    maritalStatusRead: false,
    frontIsDocument: looksLikeCard(frontText),
    numberMatchesFront: null,
    photoAreaFound: photoArea !== null,
  };
  const mrz = read.back.mrz;
  if (!mrz)
    return {
      ok: false,
      checks,
      passes: read.back.passes,
      error: identityMessages.mrzUnreadable,
    };
  const f = mrz.fields;
  checks.issuingStatePry = f.issuingState === 'PRY';
  checks.notExpired = f.expirationDate >= day;
  const tokens = [...f.surnames, ...f.names];
  const names = crossCheckNames(tokens, frontText);
  checks.namesMatchFront = names.ok;
  checks.numberMatchesFront = matchNumber(f.documentNumber, frontNumbers(frontText));
  const marital = findMaritalStatus(frontText, f.sex) ?? findMaritalStatus(read.backText, f.sex);
  checks.maritalStatusRead = marital !== null;
  const base = {
    checks,
    passes: read.back.passes,
    pass: read.back.pass,
    mrz: {
      lines: mrz.lines,
      autocorrected: mrz.autocorrected,
      expirationDate: f.expirationDate,
    },
    ...(photoArea ? { photoArea } : {}),
  };
  if (!checks.issuingStatePry) return { ok: false, ...base, error: identityMessages.notParaguayan };
  // The front must be this cédula's front: fail closed on anything not read.
  if (!checks.frontIsDocument) return { ok: false, ...base, error: identityMessages.notADocument };
  if (names.ok === false || checks.numberMatchesFront === false)
    return { ok: false, ...base, error: identityMessages.documentMismatch };
  if (names.ok === null || checks.numberMatchesFront === null || !photoArea)
    return { ok: false, ...base, error: identityMessages.frontUnreadable };
  return {
    ok: true,
    ...base,
    idData: {
      FullName: names.tokens.join(' '),
      DocumentNumber: normaliseDocumentNumber(f.documentNumber),
      DateOfBirth: f.birthDate,
      Gender: f.sex,
      Nationality: f.nationality,
      MaritalStatus: marital ?? '',
    },
  };
}
