import { MARITAL_STATUSES, NATIONALITY_CODES } from '../../contract/case-fields';
import type { FaceObservation, FrameAnalysis } from './types';

/**
 * The rules of a Paraguayan cédula, as pure functions of what was read (no OCR, no images): document
 * numbers, names, 'ESTADO CIVIL', nationality, the printed labels, and the portrait among the faces
 * found on the front (wherever the card's layout puts it).
 * document-verdict.ts applies them to one reading; document-ocr.ts produces the readings.
 */

/** A word the OCR read, with its box as fractions (0-1) of the image's width and height. */
export type OcrWord = { text: string; x0: number; y0: number; x1: number; y1: number };

const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

/** Words of OCR text, upper case, without accents (MRZ spelling: Ñ -> N). */
const words = (text: string) =>
  stripAccents(text.toUpperCase())
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);

/** 'ESTADO CIVIL' value from printed text, matched to the closed set (edit distance), preferring the word after the label. */
export function findMaritalStatus(text: string, sex?: string): string | null {
  const ws = words(text);
  let best: { value: string; score: number } | null = null;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (w.length < 4) continue;
    const afterLabel = ws.slice(Math.max(0, i - 3), i).some((p) => editDistance(p, 'CIVIL') <= 1);
    for (const v of MARITAL_STATUSES) {
      const dist = editDistance(w, v);
      if (dist > (v.length >= 8 ? 2 : 1)) continue;
      const genderOk =
        !sex || (sex === 'F' ? v.endsWith('A') : sex === 'M' ? v.endsWith('O') : true);
      const score = dist - (afterLabel ? 1.5 : 0) - (genderOk ? 0.5 : 0);
      if (!best || score < best.score) best = { value: v, score };
    }
  }
  return best?.value ?? null;
}

/**
 * Cross-checks MRZ names with the front's printed words: each MRZ token should appear on the front
 * (edit distance <= 1, or <= 2 for six letters or more: either OCR slips). `front` is the word that
 * matched each token (null: none). The spelling is settled by voteNames and printedSpelling, not
 * here. null when the front is unreadable: neither the 'APELLIDOS'/'NOMBRES' labels nor every name
 * was read (small labels are the first to blur). Two names read as one word ('VERAVILLALBA': the
 * space between them missed) are both found; with `lastCut` (a full MRZ names line) the last name
 * is found as the start of a printed word ('EL' of 'ELENA').
 */
export function crossCheckNames(
  tokens: string[],
  frontText: string,
  lastCut = false,
): { ok: boolean | null; tokens: string[]; found: number; front: (string | null)[] } {
  const ws = words(frontText).filter((w) => w.length >= 2 && !/\d/.test(w));
  const labels = ws.some(
    (w) => editDistance(w, 'APELLIDOS') <= 2 || editDistance(w, 'NOMBRES') <= 2,
  );
  const near = (w: string, t: string) => editDistance(w, t) <= (t.length >= 6 ? 2 : 1);
  // Two names printed side by side read as one word when the OCR missed the space between them
  // ('VERAVILLALBA'): each is found, in the MRZ's spelling (the joined word does not vote on it).
  const joined = (i: number) =>
    [tokens[i - 1]! + tokens[i]!, tokens[i]! + tokens[i + 1]!].some(
      (pair, k) => (k === 0 ? i > 0 : i + 1 < tokens.length) && ws.some((w) => near(w, pair)),
    );
  const front = tokens.map((t, i) => {
    if (ws.includes(t)) return t;
    let best: { w: string; d: number } | null = null;
    for (const w of ws) {
      const d = editDistance(w, t);
      if (!best || d < best.d) best = { w, d };
    }
    if (best && near(best.w, t)) return best.w;
    // The last name cut by a full MRZ names line: the start of a printed word (completed from it by
    // untruncatedNames).
    if (
      lastCut &&
      i === tokens.length - 1 &&
      ws.some((w) => w.length > t.length && w.startsWith(t))
    )
      return t;
    return joined(i) ? t : null;
  });
  const found = front.filter((w) => w !== null).length;
  if (found === tokens.length) return { ok: true, tokens, found, front };
  return { ok: labels ? false : null, tokens, found, front };
}

/**
 * The spelling of each name, by vote: the MRZ's read, the other MRZ reads of the same card (their
 * check digits valid too) and the word the front printed. Names carry no check digit, so one
 * read's slip ('HARIA', 'CARLOSK': a '<' read as K) is outvoted by two that agree; a tie keeps
 * the first MRZ read, unless the other side of it is the front's word with an MRZ read of its own.
 */
export function voteNames(
  tokens: string[],
  others: string[][],
  front: (string | null)[],
): string[] {
  return tokens.map((t, i) => {
    const votes = new Map<string, number>([[t, 1]]);
    const add = (w: string | null | undefined) => {
      if (w && w.length >= 2) votes.set(w, (votes.get(w) ?? 0) + 1);
    };
    for (const o of others) if (o.length === tokens.length) add(o[i]);
    add(front[i]);
    let best = t;
    for (const [w, n] of votes) if (n > votes.get(best)!) best = w;
    // A tie between MRZ reads alone and MRZ reads the front agrees with goes to the latter: the
    // MRZ reads share their engine and photo (their slips repeat: 'RAHIREZ' twice), the front's
    // OCR is another's.
    const printed = front[i];
    if (
      printed &&
      printed !== best &&
      votes.get(printed) === votes.get(best) &&
      votes.get(printed)! >= 2
    )
      best = printed;
    return best;
  });
}

/**
 * A TD1 names line holds 30 characters: a longer name is cut (ICAO 9303: 'OVIEDO<MARTINEZ<<CELESTE<
 * RAQUE', 'ESPINOLA<CABALLERO<<CELESTE<ELE') while the front prints it whole. When the line is full,
 * its last piece is completed by the front's word that begins with it (the cut piece added when the
 * MRZ's reading left it out); otherwise the names stand.
 */
export function untruncatedNames(line: string, tokens: string[], frontText: string): string[] {
  if (line.length < 30 || line.endsWith('<')) return tokens;
  const piece = line.split('<').filter(Boolean).at(-1) ?? '';
  const whole = words(frontText).find((w) => w.length > piece.length && w.startsWith(piece));
  if (!piece || !whole) return tokens;
  return tokens.at(-1) === piece ? [...tokens.slice(0, -1), whole] : [...tokens, whole];
}

/** The capitals a printed Paraguayan name may carry beyond the MRZ's A-Z. */
const PRINTED_NAME = /^[A-ZÁÉÍÓÚÜÑ]+$/;

/**
 * Each name as the card prints it (accents, Ñ): the front's word whose letters without accents
 * (Ñ -> N, as the MRZ writes it) equal the name letter for letter; the name as given (the MRZ's
 * spelling) otherwise. A word with marks no Spanish name carries ('PÀEZ', 'LÔPEZ') is an OCR slip.
 */
export function printedSpelling(tokens: string[], frontText: string): string[] {
  const printed = frontText
    .normalize('NFC')
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => PRINTED_NAME.test(w));
  return tokens.map((t) => printed.find((w) => stripAccents(w) === t) ?? t);
}

const isLabel = (w: string, label: string) => editDistance(w, label) <= (label.length >= 7 ? 2 : 1);
const CARD_WORDS = [
  'APELLIDOS',
  'NOMBRES',
  'DOCUMENTO',
  'CEDULA',
  'IDENTIDAD',
  'REPUBLICA',
  'PARAGUAY',
];

/** A printed cédula shows at least two of its fixed words; a selfie or a random picture does not. */
export function looksLikeCard(text: string): boolean {
  const ws = words(text);
  return CARD_WORDS.filter((c) => ws.some((w) => isLabel(w, c))).length >= 2;
}

/**
 * A document number as compared and stored: its characters without separators ('.', ',', spaces,
 * the MRZ's '<' fillers) and without leading zeros. A back's MRZ may carry the number zero-padded to
 * its nine places ('005123478') where the front prints '5.123.478' and the patient logs in with
 * 5123478.
 */
export function normaliseDocumentNumber(raw: string): string {
  return raw.replace(/[\s.,<]/g, '').replace(/^0+(?=.)/, '');
}

/** Document numbers printed on the front: '6.824.773' or '6824773' (dates and other digits excluded). */
export function frontNumbers(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    const t = raw.replace(/^[^0-9]+|[^0-9]+$/g, '');
    if (/^\d{1,3}([.,]\d{3}){1,2}$/.test(t) || /^\d{5,9}$/.test(t))
      out.add(normaliseDocumentNumber(t.replace(/\D/g, '')));
  }
  return [...out];
}

/**
 * The front's number against the MRZ's (both without leading zeros): true when printed exactly,
 * false when a different number is printed, null when none was read or the closest is one digit off
 * (an OCR slip: ask for a clearer photo).
 */
export function matchNumber(mrzNumber: string, printed: string[]): boolean | null {
  const mrz = normaliseDocumentNumber(mrzNumber);
  const numbers = printed.map(normaliseDocumentNumber);
  if (numbers.includes(mrz)) return true;
  if (!numbers.length) return null;
  return numbers.some((n) => editDistance(n, mrz) <= 1) ? null : false;
}

/**
 * The card's printed portrait among the faces found on its straightened front (issue 28): found by
 * what it is, not by where a template puts it. The portrait is the largest face; a second, smaller
 * 'ghost' portrait (a card's security copy) is allowed; faces too small to be a portrait (a pattern,
 * a detector's false find) are ignored. Refused:
 * - `no_face`: no face of portrait size on the front;
 * - `not_a_card`: the largest face fills the whole picture as no card's portrait does (a face photo
 *   held to the camera; a selfie is mostly told by its lack of text lines, document-scan.ts);
 * - `second_face`: another face nearly as large as the portrait (a photo pasted on the card: the
 *   substitution defence; a ghost portrait is far smaller).
 * Sizes are fractions of the straightened front's height. The detector's box is much larger than the
 * face: a card's portrait measures 0.25-0.7 of the front's height (0.7 when the warp lost the card's
 * dark header), a selfie 0.8-0.9, a ghost 0.15-0.2.
 * What this cannot see: the attacker's face printed over the card's own portrait (the OCR check binds
 * the card's names and number, not its photo).
 */
const PORTRAIT = {
  /** Faces lower than this share of the front's height are not a portrait (nor a ghost). */
  minHeight: 0.08,
  /** A face higher than this share of the front's height is no card's portrait. */
  maxHeight: 0.85,
  /**
   * A second face with this share of the portrait's area or more is a second portrait (a ghost
   * measures about 0.1). Low, so that a pasted face cannot pass the card's own portrait off as its
   * ghost: it would have to be 2.2 times its height (a portrait measures 0.4 or more), more than a
   * card holds (maxHeight).
   */
  secondArea: 0.2,
} as const;

type PortraitFind =
  | { portrait: FaceObservation; ghosts: number }
  | { refused: 'no_face' | 'not_a_card' | 'second_face' };

export function findPortrait(frame: Pick<FrameAnalysis, 'height' | 'faces'>): PortraitFind {
  const area = (f: FaceObservation) => f.box[2] * f.box[3];
  const faces = frame.faces
    .filter((f) => f.box[3] >= PORTRAIT.minHeight * frame.height)
    .sort((a, b) => area(b) - area(a));
  const portrait = faces[0];
  if (!portrait) return { refused: 'no_face' };
  if (portrait.box[3] > PORTRAIT.maxHeight * frame.height) return { refused: 'not_a_card' };
  const others = faces.slice(1);
  if (others.some((f) => area(f) >= PORTRAIT.secondArea * area(portrait)))
    return { refused: 'second_face' };
  return { portrait, ghosts: others.length };
}

/**
 * ICAO 9303 nationality codes as a Paraguayan cédula prints the nationality (issue 28; the list is
 * the contract's, which the back office's corrections take too): a foreign
 * resident's card says 'ARGENTINA' on its front and 'ARG' in its MRZ. A code not listed is given as
 * it is.
 */
const NATIONALITIES: Record<string, string> = {
  ...NATIONALITY_CODES,
  // Germany's own code in a TD1's nationality field (ICAO 9303 allows 'D').
  D: 'ALEMANA',
};

export const nationalityInWords = (code: string): string => NATIONALITIES[code] ?? code;
