import type { FaceObservation, FrameAnalysis } from './types';

/**
 * The rules of a Paraguayan cédula, as pure functions of what was read (no OCR, no images): document
 * numbers, names, 'ESTADO CIVIL', the printed labels and the photo area located from them.
 * document-verdict.ts applies them to one reading; document-ocr.ts produces the readings.
 */

/** A word the OCR read, with its box as fractions (0-1) of the image's width and height. */
export type OcrWord = { text: string; x0: number; y0: number; x1: number; y1: number };

/** A region as fractions (0-1) of the oriented image's width and height. */
export type Area = { x0: number; y0: number; x1: number; y1: number };

const MARITAL_STATUSES = [
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
export const words = (text: string) =>
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
 * was read (small labels are the first to blur).
 */
export function crossCheckNames(
  tokens: string[],
  frontText: string,
): { ok: boolean | null; tokens: string[]; found: number; front: (string | null)[] } {
  const ws = words(frontText).filter((w) => w.length >= 2 && !/\d/.test(w));
  const labels = ws.some(
    (w) => editDistance(w, 'APELLIDOS') <= 2 || editDistance(w, 'NOMBRES') <= 2,
  );
  const front = tokens.map((t) => {
    if (ws.includes(t)) return t;
    let best: { w: string; d: number } | null = null;
    for (const w of ws) {
      const d = editDistance(w, t);
      if (!best || d < best.d) best = { w, d };
    }
    return best && best.d <= (t.length >= 6 ? 2 : 1) ? best.w : null;
  });
  const found = front.filter((w) => w !== null).length;
  if (found === tokens.length) return { ok: true, tokens, found, front };
  return { ok: labels ? false : null, tokens, found, front };
}

/**
 * The spelling of each name, by vote: the MRZ's read, the other MRZ reads of the same card (their
 * check digits valid too) and the word the front printed. Names carry no check digit, so one
 * read's slip ('HARIA', 'CARLOSK': a '<' read as K) is outvoted by two that agree; a tie keeps
 * the first MRZ read.
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
    return best;
  });
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
const FIELD_LABELS = ['APELLIDOS', 'NOMBRES', 'DOCUMENTO'];

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
 * The photo area of a Paraguayan cédula's front: the block left of the printed fields, from the
 * 'APELLIDOS' label down to the document number (found from the OCR boxes of the field labels, and
 * of the values when given: the names and the number the MRZ says, so that a photo whose small labels
 * blurred is still located; the card may be anywhere in the picture and at any scale). null when
 * nothing was found.
 */
export function photoAreaOf(ws: OcrWord[], values: string[] = []): Area | null {
  const labels = ws.filter((w) => FIELD_LABELS.some((l) => isLabel(words(w.text)[0] ?? '', l)));
  const wanted = new Set(values.map((v) => normaliseDocumentNumber(v)));
  const valueWords = ws.filter((w) => {
    const t = words(w.text).join('');
    return t.length >= 3 && (wanted.has(t) || wanted.has(normaliseDocumentNumber(t)));
  });
  const anchors = [...labels, ...valueWords];
  if (!anchors.length || (!labels.length && valueWords.length < 2)) return null;
  const left = Math.min(...anchors.map((l) => l.x0));
  const lineH = Math.max(...anchors.map((l) => l.y1 - l.y0)) * (labels.length ? 1 : 0.6);
  // Labels stand above their values: the area starts a label's height above the first value.
  const top = Math.min(...labels.map((l) => l.y0), ...valueWords.map((v) => v.y0 - 1.6 * lineH));
  const bottom = labels.length
    ? Math.max(...labels.map((l) => l.y1)) + 3 * lineH
    : Math.max(...valueWords.map((v) => v.y1)) + lineH;
  const span = Math.max(bottom - top, 8 * lineH);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return {
    x0: clamp(left - 0.9 * span),
    y0: clamp(top - 0.25 * span),
    x1: clamp(left),
    y1: clamp(bottom + 0.1 * span),
  };
}

/** The largest face whose centre lies inside the area (boxes in the analysed image's pixels). */
export function faceInArea(frame: FrameAnalysis, area: Area): FaceObservation | null {
  const inside = frame.faces.filter((f) => {
    const cx = (f.box[0] + f.box[2] / 2) / frame.width;
    const cy = (f.box[1] + f.box[3] / 2) / frame.height;
    return cx >= area.x0 && cx <= area.x1 && cy >= area.y0 && cy <= area.y1;
  });
  return inside.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0] ?? null;
}
