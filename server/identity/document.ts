import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import Tesseract from 'tesseract.js';
import type { IdentityConfig } from './config';
import { identityMessages } from './errors';
import { decodeRgb, type ImageLimits } from './image';
import { readTd1, type MrzRead } from './mrz';

/**
 * Document reading: the back's TD1 MRZ by a cascade of OCR passes (stopping at the first read whose
 * check digits validate), the front's printed text for the names cross-check and 'ESTADO CIVIL'.
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

  async function readFrontText(front: Uint8Array, e: Engines): Promise<string> {
    const g = await grey(front);
    const png = await g.img.resize({ width: 1400 }).normalise().png().toBuffer();
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
      const [backRead, frontText] = await Promise.all([readBack(back, e), readFrontText(front, e)]);
      const checks: DocumentChecks = {
        mrzCheckDigits: Boolean(backRead.mrz),
        issuingStatePry: false,
        notExpired: null,
        namesMatchFront: null,
        maritalStatusRead: false,
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
      const marital = findMaritalStatus(frontText, f.sex);
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
      };
      if (!checks.issuingStatePry)
        return { ok: false, ...base, error: identityMessages.notParaguayan };
      if (names.ok === false) return { ok: false, ...base, error: identityMessages.nameMismatch };
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
