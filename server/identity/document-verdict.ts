import {
  crossCheckNames,
  editDistance,
  findMaritalStatus,
  frontNumbers,
  looksLikeCard,
  matchNumber,
  nationalityInWords,
  normaliseDocumentNumber,
  printedSpelling,
  untruncatedNames,
  voteNames,
  type OcrWord,
} from './cedula';
import type { IdentityReason } from '../../contract/identity';
import type { EngineReason } from '../../contract/insight';
import type { CardQuality } from './card-geometry';
import { identityMessages } from './errors';
import type { MrzFields, MrzRead } from './mrz';

/**
 * The document verdict: a pure function of what the OCR read (document-ocr.ts) and today's date.
 * The front must prove it is the front of the same cédula as the back, failing closed: its printed
 * labels present, and its printed document number and names equal to the MRZ's, wherever the card's
 * layout prints them (the portrait is found by the face detector: cedula.ts findPortrait, in
 * document-scan.ts). 'ESTADO CIVIL' comes from the front, or from the back's printed text when the
 * front does not carry it. Every refusal carries its reason code beside its Spanish sentence.
 *
 * The front is read by a cascade of passes (judgeFront decides when to stop). Only a front read with
 * confidence is called another card's ('El frente y el dorso no son de la misma cédula'):
 * - the same other number (two digits or more off the MRZ's) read by two passes, or
 * - a pass that read the MRZ's number exactly and at most half of its names.
 * Anything else not proven is 'we could not read the front', with a hint of what to fix.
 */
export type IdData = {
  FullName: string;
  DocumentNumber: string;
  DateOfBirth: string;
  Gender: 'M' | 'F' | 'X';
  /** In words, as the card prints it ('PARAGUAYA', 'ARGENTINA'), from the MRZ's code. */
  Nationality: string;
  /** From the printed 'ESTADO CIVIL', matched to its closed set; '' when it could not be read. */
  MaritalStatus: string;
};

type DocumentChecks = {
  mrzCheckDigits: boolean;
  issuingStatePry: boolean;
  notExpired: boolean | null;
  namesMatchFront: boolean | null;
  maritalStatusRead: boolean;
  /** The front shows a cédula's printed labels (not a selfie or another picture). */
  frontIsDocument: boolean;
  /** The front's printed document number equals the MRZ's; null when it could not be read. */
  numberMatchesFront: boolean | null;
};

export type DocumentReading = {
  ok: boolean;
  idData?: IdData;
  /**
   * The fields as the MRZ gives them (names in its letters), whenever it was read, even when the
   * document is refused: kept for a person who reviews the case (issue 30), never answered.
   */
  fields?: IdData;
  checks: DocumentChecks;
  /** How many OCR passes ran on the back before a valid MRZ (or all of them). */
  passes: number;
  pass?: string;
  /** The front's pass that decided, and how many front passes ran. */
  frontPass?: string;
  frontPasses?: number;
  /** The read's time budget ran out (what was read by then was judged). */
  timedOut?: boolean;
  error?: string;
  /** Why it was refused (with `error`). */
  reason?: DocumentReason;
  mrz?: { lines: [string, string, string]; autocorrected: number; expirationDate: string };
};

/** Why a document was refused: a code of both the browser's list and journey insight's. */
export type DocumentReason = Extract<IdentityReason, EngineReason>;

/** One pass of the front's OCR: its printed text, and each word with its box. */
export type FrontRead = { text: string; words: OcrWord[]; pass?: string };

/** What the photo of each side showed (card-geometry.ts), for the hint of a retake. */
type SideQuality = CardQuality & { found: boolean };

/** What the OCR read of one document: the back's MRZ (null: no read validated) and printed text. */
export type DocumentText = {
  back: {
    mrz: MrzRead | null;
    passes: number;
    pass?: string | undefined;
    /** Further reads of the MRZ (check digits valid), made when a name was not read alike. */
    others?: MrzRead[];
  };
  /** The front's passes, in the cascade's order (at least one unless the back was unreadable). */
  front: FrontRead[];
  /** The back's printed text above the MRZ; '' when it was not read (the front has 'ESTADO CIVIL'). */
  backText: string;
  quality?: { front?: SideQuality; back?: SideQuality };
  /** The time budget ran out before the cascades ended. */
  timedOut?: boolean;
};

/** One front pass judged against the MRZ. */
export type FrontJudgement = {
  read: FrontRead;
  isCard: boolean;
  names: ReturnType<typeof crossCheckNames>;
  number: boolean | null;
  /** Numbers printed on the front two digits or more off the MRZ's. */
  otherNumbers: string[];
  /** Number and names agree: the cascade stops here. */
  agrees: boolean;
};

export function judgeFront(read: FrontRead, mrz: MrzFields): FrontJudgement {
  const names = crossCheckNames([...mrz.surnames, ...mrz.names], read.text, mrz.namesCut);
  const printed = frontNumbers(read.text);
  const number = matchNumber(mrz.documentNumber, printed);
  const mrzNumber = normaliseDocumentNumber(mrz.documentNumber);
  return {
    read,
    // The card's printed words, or its own number and names (a front whose small print blurred).
    isCard: looksLikeCard(read.text) || (number === true && names.ok === true),
    names,
    number,
    otherNumbers: printed.filter((n) => editDistance(n, mrzNumber) >= 2),
    agrees: names.ok === true && number === true,
  };
}

/** Another card's front, proven (see the file's comment); the cascade stops here too. */
export function frontDiffers(js: FrontJudgement[]): boolean {
  const namesDiffer = js.some(
    (j) => j.number === true && j.names.ok === false && j.names.found * 2 <= j.names.tokens.length,
  );
  const seen = new Map<string, number>();
  for (const j of js) for (const n of new Set(j.otherNumbers)) seen.set(n, (seen.get(n) ?? 0) + 1);
  return namesDiffer || [...seen.values()].some((count) => count >= 2);
}

/** What to fix before a retake, from what the photo of a side showed; null when nothing stands out. */
export function retakeHint(q: SideQuality | undefined): string | null {
  if (!q) return null;
  if (q.brightness < 75) return identityMessages.hintDark;
  if (q.glare >= 0.004) return identityMessages.hintGlare;
  if (q.brightness > 238) return identityMessages.hintBright;
  if (q.found && q.fraction < 0.3) return identityMessages.hintSmall;
  if (q.sharpness < 25) return identityMessages.hintBlur;
  return null;
}

const withHint = (message: string, q: SideQuality | undefined) => {
  const hint = retakeHint(q);
  return hint ? `${message} ${hint}` : message;
};

/** Today as YYYY-MM-DD (UTC), the day a document's expiry is compared with. */
const today = () => new Date().toISOString().slice(0, 10);

/** The verdict on one document: ok with its identity data, or which Spanish error, and the checks. */
export function documentVerdict(read: DocumentText, day: string = today()): DocumentReading {
  const mrz = read.back.mrz;
  const timedOut = read.timedOut ? { timedOut: true } : {};
  const judged = mrz ? read.front.map((r) => judgeFront(r, mrz.fields)) : [];
  // The pass that decides: the first that agrees, else the first that looks like a card.
  const best = judged.find((j) => j.agrees) ?? judged.find((j) => j.isCard) ?? judged[0] ?? null;
  const checks: DocumentChecks = {
    mrzCheckDigits: Boolean(mrz),
    issuingStatePry: false,
    notExpired: null,
    namesMatchFront: null,
    maritalStatusRead: false,
    frontIsDocument: judged.some((j) => j.isCard) || read.front.some((r) => looksLikeCard(r.text)),
    numberMatchesFront: null,
  };
  if (!mrz)
    return {
      ok: false,
      checks,
      passes: read.back.passes,
      ...timedOut,
      error: withHint(identityMessages.mrzUnreadable, read.quality?.back),
      reason: 'mrz_unreadable',
    };
  const f = mrz.fields;
  checks.issuingStatePry = f.issuingState === 'PRY';
  checks.notExpired = f.expirationDate >= day;
  checks.namesMatchFront = best?.names.ok ?? null;
  checks.numberMatchesFront = best?.number ?? null;
  const marital =
    read.front.map((r) => findMaritalStatus(r.text, f.sex)).find(Boolean) ??
    findMaritalStatus(read.backText, f.sex);
  checks.maritalStatusRead = Boolean(marital);
  const base = {
    fields: {
      FullName: [...f.surnames, ...f.names].join(' '),
      DocumentNumber: normaliseDocumentNumber(f.documentNumber),
      DateOfBirth: f.birthDate,
      Gender: f.sex,
      Nationality: nationalityInWords(f.nationality),
      MaritalStatus: marital ?? '',
    },
    checks,
    passes: read.back.passes,
    pass: read.back.pass,
    ...(best?.read.pass ? { frontPass: best.read.pass, frontPasses: read.front.length } : {}),
    ...timedOut,
    mrz: {
      lines: mrz.lines,
      autocorrected: mrz.autocorrected,
      expirationDate: f.expirationDate,
    },
  };
  if (!checks.issuingStatePry)
    return { ok: false, ...base, error: identityMessages.notParaguayan, reason: 'not_paraguayan' };
  // The front must be this cédula's front: fail closed on anything not read.
  if (!checks.frontIsDocument)
    return { ok: false, ...base, error: identityMessages.notADocument, reason: 'not_a_document' };
  if (!best?.agrees) {
    if (frontDiffers(judged)) {
      if (judged.some((j) => j.otherNumbers.length)) checks.numberMatchesFront = false;
      if (judged.some((j) => j.names.ok === false)) checks.namesMatchFront = false;
      return {
        ok: false,
        ...base,
        error: identityMessages.documentMismatch,
        reason: 'document_mismatch',
      };
    }
    return {
      ok: false,
      ...base,
      error: withHint(identityMessages.frontUnreadable, read.quality?.front),
      reason: 'front_unreadable',
    };
  }
  return {
    ok: true,
    ...base,
    idData: {
      // The MRZ's letters (by vote), written as the front prints them where it agrees.
      FullName: printedSpelling(
        untruncatedNames(
          mrz.lines[2],
          voteNames(
            best.names.tokens,
            (read.back.others ?? [])
              .map((o) => o.fields)
              .filter((o) => o.documentNumber === f.documentNumber && o.birthDate === f.birthDate)
              .map((o) => [...o.surnames, ...o.names]),
            best.names.front,
          ),
          best.read.text,
        ),
        best.read.text,
      ).join(' '),
      DocumentNumber: normaliseDocumentNumber(f.documentNumber),
      DateOfBirth: f.birthDate,
      Gender: f.sex,
      Nationality: nationalityInWords(f.nationality),
      MaritalStatus: marital ?? '',
    },
  };
}
