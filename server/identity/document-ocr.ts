import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import Tesseract from 'tesseract.js';
import { findMaritalStatus, type OcrWord } from './cedula';
import type { DocumentText } from './document-verdict';
import { decodeRgb, type ImageLimits } from './image';
import { readTd1, type MrzRead } from './mrz';

/**
 * The OCR of a cédula: the back's TD1 MRZ by a cascade of passes (stopping at the first read whose
 * check digits validate), the front's printed text with each word's box, and (only when the front
 * has no 'ESTADO CIVIL') the back's printed text. What was read is judged by document-verdict.ts.
 * Tesseract runs in its own worker threads; image preparation runs in libuv's pool (sharp).
 */
export interface DocumentOcr {
  warm(): Promise<void>;
  read(front: Uint8Array, back: Uint8Array): Promise<DocumentText>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const dataDir = (lang: 'eng' | 'spa') =>
  path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));

const MRZ_WHITELIST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

type Engines = { legacy: Tesseract.Worker; lstm: Tesseract.Worker; text: Tesseract.Worker };

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

export function createDocumentOcr(limits: ImageLimits): DocumentOcr {
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
  async function readFrontText(
    front: Uint8Array,
    e: Engines,
  ): Promise<{ text: string; words: OcrWord[] }> {
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
        front: f,
        backText: findMaritalStatus(f.text) ? '' : await readBackText(back, e),
      }));
      const [backRead, frontRead] = await Promise.all([readBack(back, e), frontP]);
      return { back: backRead, ...frontRead };
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
