import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import Tesseract from 'tesseract.js';
import type { IdentityConfig } from './config';
import { identityMessages } from './errors';
import { decodeRgb, type ImageLimits } from './image';
import { readTd1, type MrzRead } from './mrz';
import type { FaceObservation, FrameAnalysis } from './types';

/**
 * Document reading: the back's TD1 MRZ by a cascade of OCR passes (stopping at the first read whose
 * check digits validate), the front's printed text and layout. The front must prove it is the front
 * of the same cédula: card labels present, its printed document number and names equal to the MRZ's
 * (fail closed when they cannot be read), and the photo area located from the labels' positions so
 * the face check uses the face printed there, not any face in the picture. 'ESTADO CIVIL' is read
 * from the front, or from the back's printed text when the front does not carry it.
 * Tesseract runs in its own worker threads; image preparation runs in libuv's pool (sharp).
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

/** A region as fractions (0-1) of the oriented image's width and height. */
export type Area = { x0: number; y0: number; x1: number; y1: number };

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

export interface DocumentReader {
  warm(): Promise<void>;
  read(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const dataDir = (lang: 'eng' | 'spa') =>
  path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));

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

const MRZ_WHITELIST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

type Engines = { legacy: Tesseract.Worker; lstm: Tesseract.Worker; text: Tesseract.Worker };

export const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

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
 * (edit distance <= 1, or as a prefix where the MRZ truncated it). A token one or two letters off is
 * corrected from the front (names carry no check digit). null when the front is unreadable.
 */
export function crossCheckNames(
  tokens: string[],
  frontText: string,
): { ok: boolean | null; tokens: string[] } {
  const ws = words(frontText).filter((w) => w.length >= 2 && !/\d/.test(w));
  if (!ws.some((w) => editDistance(w, 'APELLIDOS') <= 2 || editDistance(w, 'NOMBRES') <= 2))
    return { ok: null, tokens };
  let found = 0;
  const fixed = tokens.map((t) => {
    if (ws.includes(t)) return (found++, t);
    let best: { w: string; d: number } | null = null;
    for (const w of ws) {
      const d = editDistance(w, t);
      if (!best || d < best.d) best = { w, d };
    }
    if (best && best.d <= (t.length >= 6 ? 2 : 1)) return (found++, best.w);
    return t;
  });
  return { ok: found === tokens.length, tokens: fixed };
}

type OcrWord = { text: string; x0: number; y0: number; x1: number; y1: number };
type FrontText = { text: string; words: OcrWord[] };

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

/** Document numbers printed on the front: '6.824.773' or '6824773' (dates and other digits excluded). */
export function frontNumbers(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    const t = raw.replace(/^[^0-9]+|[^0-9]+$/g, '');
    if (/^\d{1,3}([.,]\d{3}){1,2}$/.test(t) || /^\d{5,9}$/.test(t)) out.add(t.replace(/\D/g, ''));
  }
  return [...out];
}

/**
 * The front's number against the MRZ's: true when printed exactly, false when a different number is
 * printed, null when none was read or the closest is one digit off (an OCR slip: ask for a clearer photo).
 */
export function matchNumber(mrzNumber: string, printed: string[]): boolean | null {
  if (printed.includes(mrzNumber)) return true;
  if (!printed.length) return null;
  return printed.some((n) => editDistance(n, mrzNumber) <= 1) ? null : false;
}

/**
 * The photo area of a Paraguayan cédula's front: the block left of the printed fields, from the
 * 'APELLIDOS' label down to the document number (found from the labels' OCR boxes, so the card may be
 * anywhere in the picture and at any scale). null when no field label was found.
 */
export function photoAreaOf(ws: OcrWord[]): Area | null {
  const labels = ws.filter((w) => FIELD_LABELS.some((l) => isLabel(words(w.text)[0] ?? '', l)));
  if (!labels.length) return null;
  const left = Math.min(...labels.map((l) => l.x0));
  const top = Math.min(...labels.map((l) => l.y0));
  const lineH = Math.max(...labels.map((l) => l.y1 - l.y0));
  const bottom = Math.max(...labels.map((l) => l.y1)) + 3 * lineH;
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

type Pass = {
  name: string;
  engine: keyof Engines;
  prepare: (img: Sharp) => Sharp;
  crop?: 'bottom';
};

/** The cascade: cheap, usually enough passes first; rotations and binarisation for poor photos. */
const PASSES: Pass[] = [
  { name: 'legacy-1000', engine: 'legacy', prepare: (s) => s.resize({ width: 1000 }).normalise() },
  {
    name: 'legacy-bottom-1400',
    engine: 'legacy',
    crop: 'bottom',
    prepare: (s) => s.resize({ width: 1400 }).normalise(),
  },
  { name: 'lstm-1000', engine: 'lstm', prepare: (s) => s.resize({ width: 1000 }).normalise() },
  {
    name: 'legacy-sharpen',
    engine: 'legacy',
    crop: 'bottom',
    prepare: (s) => s.resize({ width: 1400 }).normalise().sharpen({ sigma: 1.2 }),
  },
  {
    name: 'legacy-threshold',
    engine: 'legacy',
    crop: 'bottom',
    prepare: (s) => s.resize({ width: 1400 }).normalise().threshold(140),
  },
  ...[-6, -3, 3, 6].map((deg): Pass => ({
    name: `legacy-rot${deg}`,
    engine: 'legacy',
    prepare: (s) => s.rotate(deg, { background: '#ffffff' }).resize({ width: 1200 }).normalise(),
  })),
  {
    name: 'lstm-bottom-sharpen',
    engine: 'lstm',
    crop: 'bottom',
    prepare: (s) => s.resize({ width: 1400 }).normalise().sharpen({ sigma: 1.2 }),
  },
];

export function createDocumentReader(config: IdentityConfig): DocumentReader {
  const limits: ImageLimits = {
    maxUploadBytes: config.maxUploadBytes,
    maxPixels: config.maxPixels,
    minImageSide: config.minImageSide,
  };
  let engines: Promise<Engines> | null = null;

  const options = (lang: 'eng' | 'spa', legacy: boolean) => ({
    langPath: path.join(dataDir(lang), legacy ? '4.0.0' : '4.0.0_best_int'),
    gzip: true,
    cacheMethod: 'none',
    legacyCore: legacy,
    legacyLang: legacy,
    errorHandler: () => {},
  });

  async function start(): Promise<Engines> {
    const [legacy, lstm, text] = await Promise.all([
      Tesseract.createWorker('eng', Tesseract.OEM.TESSERACT_ONLY, options('eng', true)),
      Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, options('eng', false)),
      Tesseract.createWorker('spa', Tesseract.OEM.LSTM_ONLY, options('spa', false)),
    ]);
    const mrzParams = {
      tessedit_char_whitelist: MRZ_WHITELIST,
      tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK,
      user_defined_dpi: '300',
    };
    await Promise.all([
      legacy.setParameters(mrzParams),
      lstm.setParameters(mrzParams),
      text.setParameters({ user_defined_dpi: '300' }),
    ]);
    return { legacy, lstm, text };
  }
  const getEngines = () =>
    (engines ??= start().catch((err) => ((engines = null), Promise.reject(err))));

  /** Oriented greyscale PNG of an upload (EXIF honoured, limits enforced by decodeRgb). */
  async function grey(bytes: Uint8Array): Promise<{ img: Sharp; width: number; height: number }> {
    const rgb = await decodeRgb(bytes, limits, 2400);
    const img = sharp(rgb.data, {
      raw: { width: rgb.width, height: rgb.height, channels: 3 },
    }).greyscale();
    return { img, width: rgb.width, height: rgb.height };
  }

  async function readBack(
    back: Uint8Array,
    e: Engines,
  ): Promise<{ mrz: MrzRead | null; passes: number; pass?: string }> {
    const g = await grey(back);
    let passes = 0;
    for (const pass of PASSES) {
      passes++;
      let img = g.img.clone();
      if (pass.crop === 'bottom') {
        const top = Math.floor(g.height * 0.45);
        img = img.extract({ left: 0, top, width: g.width, height: g.height - top });
      }
      const png = await pass.prepare(img).png().toBuffer();
      const { data } = await e[pass.engine].recognize(png);
      const mrz = readTd1(data.text);
      if (mrz) return { mrz, passes, pass: pass.name };
    }
    return { mrz: null, passes };
  }

  /** The front's printed text with each word's box (fractions of the image). */
  async function readFrontText(front: Uint8Array, e: Engines): Promise<FrontText> {
    const g = await grey(front);
    const width = 1400;
    const height = Math.round((g.height * width) / g.width);
    const png = await g.img.resize({ width }).normalise().png().toBuffer();
    const { data } = await e.text.recognize(png, {}, { text: true, blocks: true });
    const ws: OcrWord[] = [];
    for (const b of data.blocks ?? [])
      for (const p of b.paragraphs)
        for (const l of p.lines)
          for (const w of l.words)
            ws.push({
              text: w.text,
              x0: w.bbox.x0 / width,
              y0: w.bbox.y0 / height,
              x1: w.bbox.x1 / width,
              y1: w.bbox.y1 / height,
            });
    return { text: data.text, words: ws };
  }

  /** The back's printed text above the MRZ (where some cards print 'ESTADO CIVIL'). */
  async function readBackText(back: Uint8Array, e: Engines): Promise<string> {
    const g = await grey(back);
    const png = await g.img
      .extract({ left: 0, top: 0, width: g.width, height: Math.floor(g.height * 0.6) })
      .resize({ width: 1400 })
      .normalise()
      .png()
      .toBuffer();
    const { data } = await e.text.recognize(png);
    return data.text;
  }

  return {
    async warm() {
      const e = await getEngines();
      const blank = await sharp({
        create: { width: 200, height: 60, channels: 3, background: '#fff' },
      })
        .png()
        .toBuffer();
      await Promise.all([
        e.legacy.recognize(blank),
        e.lstm.recognize(blank),
        e.text.recognize(blank),
      ]);
    },

    async read(front, back) {
      const e = await getEngines();
      // The front's text, then (only when the front has no 'ESTADO CIVIL') the back's, on the text
      // engine while the MRZ cascade runs on the other two.
      const frontP = readFrontText(front, e).then(async (f) => ({
        ...f,
        backText: findMaritalStatus(f.text) ? '' : await readBackText(back, e),
      }));
      const [backRead, frontRead] = await Promise.all([readBack(back, e), frontP]);
      const frontText = frontRead.text;
      const photoArea = photoAreaOf(frontRead.words);
      const checks: DocumentChecks = {
        mrzCheckDigits: Boolean(backRead.mrz),
        issuingStatePry: false,
        notExpired: null,
        namesMatchFront: null,
        maritalStatusRead: false,
        frontIsDocument: looksLikeCard(frontText),
        numberMatchesFront: null,
        photoAreaFound: photoArea !== null,
      };
      const mrz = backRead.mrz;
      if (!mrz)
        return {
          ok: false,
          checks,
          passes: backRead.passes,
          error: identityMessages.mrzUnreadable,
        };
      const f = mrz.fields;
      checks.issuingStatePry = f.issuingState === 'PRY';
      checks.notExpired = f.expirationDate >= new Date().toISOString().slice(0, 10);
      const tokens = [...f.surnames, ...f.names];
      const names = crossCheckNames(tokens, frontText);
      checks.namesMatchFront = names.ok;
      checks.numberMatchesFront = matchNumber(f.documentNumber, frontNumbers(frontText));
      const marital =
        findMaritalStatus(frontText, f.sex) ?? findMaritalStatus(frontRead.backText, f.sex);
      checks.maritalStatusRead = marital !== null;
      const base = {
        checks,
        passes: backRead.passes,
        pass: backRead.pass,
        mrz: {
          lines: mrz.lines,
          autocorrected: mrz.autocorrected,
          expirationDate: f.expirationDate,
        },
        ...(photoArea ? { photoArea } : {}),
      };
      if (!checks.issuingStatePry)
        return { ok: false, ...base, error: identityMessages.notParaguayan };
      // The front must be this cédula's front: fail closed on anything not read.
      if (!checks.frontIsDocument)
        return { ok: false, ...base, error: identityMessages.notADocument };
      if (names.ok === false || checks.numberMatchesFront === false)
        return { ok: false, ...base, error: identityMessages.documentMismatch };
      if (names.ok === null || checks.numberMatchesFront === null || !photoArea)
        return { ok: false, ...base, error: identityMessages.frontUnreadable };
      return {
        ok: true,
        ...base,
        idData: {
          FullName: names.tokens.join(' '),
          DocumentNumber: f.documentNumber,
          DateOfBirth: f.birthDate,
          Gender: f.sex,
          Nationality: f.nationality,
          MaritalStatus: marital ?? '',
        },
      };
    },

    async close() {
      const e = engines;
      engines = null;
      if (e) {
        const w = await e.catch(() => null);
        if (w)
          await Promise.allSettled([w.legacy.terminate(), w.lstm.terminate(), w.text.terminate()]);
      }
    },
  };
}
