import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import Tesseract from 'tesseract.js';
import type { StraightenedCard } from './card-geometry';
import { findMaritalStatus, type OcrWord } from './cedula';
import {
  frontDiffers,
  judgeFront,
  type DocumentText,
  type FrontJudgement,
  type FrontRead,
} from './document-verdict';
import type { RgbImage } from './image';
import { readTd1, type MrzRead } from './mrz';

/**
 * The OCR of a cédula, on the straightened photos of both sides (card-geometry.ts): the back's TD1
 * MRZ by a cascade of passes (stopping at the first read whose check digits validate), the front's
 * printed text with each word's box by a cascade of its own (stopping at the first pass whose number
 * and names agree with the MRZ, or that proves another card's front: judgeFront), and
 * (only when the front has no 'ESTADO CIVIL') the back's printed text. What was read is judged by
 * document-verdict.ts.
 *
 * Every read has a time budget: each Tesseract call races the deadline, and when it is reached the
 * engines are ended (the only way to stop a recognition; the next read starts them again) and what
 * was read so far is judged, which is an unreadable side. A back with next to no text lines is
 * refused before any OCR (a noise image would otherwise run the whole cascade for minutes).
 * Tesseract runs in its own worker threads; image preparation runs in libuv's pool (sharp).
 */
interface DocumentOcr {
  warm(): Promise<void>;
  read(front: StraightenedCard, back: StraightenedCard, budgetMs: number): Promise<DocumentText>;
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
  // A card photographed upside down.
  {
    name: 'legacy-rot180',
    engine: 'legacy',
    prepare: (s) => s.rotate(180).resize({ width: 1200 }).normalise(),
  },
];

type FrontPass = { name: string; prepare: (img: Sharp) => Sharp; upsideDown?: boolean };

/** The front's cascade: plain first, then sharper, larger, local contrast, binarised, upside down. */
const FRONT_PASSES: FrontPass[] = [
  { name: 'text-1400', prepare: (s) => s.resize({ width: 1400 }).normalise() },
  {
    name: 'text-1400-sharpen',
    prepare: (s) => s.resize({ width: 1400 }).normalise().sharpen({ sigma: 1.2 }),
  },
  {
    name: 'text-1800-clahe',
    prepare: (s) =>
      s
        .resize({ width: 1800 })
        .clahe({ width: 64, height: 64, maxSlope: 3 })
        .sharpen({ sigma: 1.5 }),
  },
  {
    name: 'text-1800-sharpen',
    prepare: (s) => s.resize({ width: 1800 }).normalise().sharpen({ sigma: 2 }),
  },
  {
    name: 'text-1400-threshold',
    prepare: (s) => s.resize({ width: 1400 }).normalise().threshold(150),
  },
  {
    name: 'text-1400-rot180',
    upsideDown: true,
    prepare: (s) => s.rotate(180).resize({ width: 1400 }).normalise(),
  },
];

/** MRZ reads beyond the first that vote on a name the front printed otherwise. */
const VOTE_READS = 2;

/** A back needs this many text lines to be worth reading (a cédula's shows 8-10; noise none). */
const MIN_TEXT_LINES = 4;

/** The deadline of a read was reached. */
class OutOfTime extends Error {}

export function createDocumentOcr(): DocumentOcr {
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

  /** Ends the engines (a recognition cannot be stopped otherwise); the next read starts new ones. */
  async function stop() {
    const e = engines;
    engines = null;
    const w = e && (await e.catch(() => null));
    if (w) await Promise.allSettled([w.legacy.terminate(), w.lstm.terminate(), w.text.terminate()]);
  }

  /** A read's clock: each step races the deadline. */
  const clock = (budgetMs: number) => {
    const deadline = performance.now() + budgetMs;
    return <T>(work: Promise<T>): Promise<T> => {
      const left = deadline - performance.now();
      if (left <= 0) return Promise.reject(new OutOfTime());
      let timer: NodeJS.Timeout | undefined;
      const out = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OutOfTime()), left);
      });
      return Promise.race([work, out]).finally(() => clearTimeout(timer));
    };
  };
  type Clock = ReturnType<typeof clock>;

  /** A straightened side as a greyscale sharp pipeline. */
  const grey = (img: RgbImage): Sharp =>
    sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).greyscale();

  /** The MRZ cascade from pass `from`: the first read whose check digits validate. */
  async function readBack(
    back: RgbImage,
    e: Engines,
    within: Clock,
    from = 0,
  ): Promise<{ mrz: MrzRead | null; passes: number; pass?: string }> {
    let passes = from;
    for (const pass of PASSES.slice(from)) {
      passes++;
      let img = grey(back);
      if (pass.crop === 'bottom') {
        const top = Math.floor(back.height * 0.45);
        img = img.extract({ left: 0, top, width: back.width, height: back.height - top });
      }
      const png = await within(pass.prepare(img).png().toBuffer());
      const { data } = await within(e[pass.engine].recognize(png));
      const mrz = readTd1(data.text);
      if (mrz) return { mrz, passes, pass: pass.name };
    }
    return { mrz: null, passes };
  }

  /** One pass of the front: its printed text with each word's box (fractions of the image). */
  async function readFront(
    front: RgbImage,
    pass: FrontPass,
    e: Engines,
    within: Clock,
  ): Promise<FrontRead> {
    const png = await within(pass.prepare(grey(front)).png().toBuffer({ resolveWithObject: true }));
    const { width, height } = png.info;
    const { data } = await within(e.text.recognize(png.data, {}, { text: true, blocks: true }));
    // Boxes of an upside-down pass are turned back to the straightened image's coordinates.
    const box = (x0: number, y0: number, x1: number, y1: number) =>
      pass.upsideDown
        ? { x0: 1 - x1 / width, y0: 1 - y1 / height, x1: 1 - x0 / width, y1: 1 - y0 / height }
        : { x0: x0 / width, y0: y0 / height, x1: x1 / width, y1: y1 / height };
    const words: OcrWord[] = [];
    for (const b of data.blocks ?? [])
      for (const p of b.paragraphs)
        for (const l of p.lines)
          for (const w of l.words)
            words.push({ text: w.text, ...box(w.bbox.x0, w.bbox.y0, w.bbox.x1, w.bbox.y1) });
    return { text: data.text, words, pass: pass.name };
  }

  /** The back's printed text above the MRZ (where some cards print 'ESTADO CIVIL'). */
  async function readBackText(back: RgbImage, e: Engines, within: Clock): Promise<string> {
    const png = await within(
      grey(back)
        .extract({ left: 0, top: 0, width: back.width, height: Math.floor(back.height * 0.6) })
        .resize({ width: 1400 })
        .normalise()
        .png()
        .toBuffer(),
    );
    const { data } = await within(e.text.recognize(png));
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

    async read(front, back, budgetMs) {
      const quality = {
        front: { ...front.quality, found: front.found },
        back: { ...back.quality, found: back.found },
      };
      const text: DocumentText = {
        back: { mrz: null, passes: 0 },
        front: [],
        backText: '',
        quality,
      };
      // Next to no text lines (random pixels, a blurred picture): nothing to read on this back.
      if (back.textLines < MIN_TEXT_LINES) return text;
      // Starting the engines (after a budget ended them) is not the upload's doing: not counted.
      const e = await getEngines();
      const within = clock(budgetMs);
      try {
        // The front's first pass, then (only when it has no 'ESTADO CIVIL') the back's text, on the
        // text engine while the MRZ cascade runs on the other two.
        const firstFront = readFront(front.image, FRONT_PASSES[0]!, e, within).then(async (f) => {
          text.front.push(f);
          if (!findMaritalStatus(f.text)) text.backText = await readBackText(back.image, e, within);
        });
        const mrzRead = readBack(back.image, e, within).then((b) => (text.back = b));
        await Promise.all([mrzRead, firstFront]);
        const mrz = text.back.mrz;
        if (!mrz) return text;
        const judged: FrontJudgement[] = text.front.map((f) => judgeFront(f, mrz.fields));
        for (const pass of FRONT_PASSES.slice(1)) {
          if (judged.some((j) => j.agrees) || frontDiffers(judged)) break;
          const f = await readFront(front.image, pass, e, within);
          text.front.push(f);
          judged.push(judgeFront(f, mrz.fields));
        }
        // A name the front printed otherwise (one letter): two more reads of the MRZ settle it by
        // vote (voteNames); names carry no check digit, and the next pass of the cascade, on the
        // same engine, often repeats the first read's slip ('RAHIREZ' twice, 'RAMIREZ' sharpened).
        const agreed = judged.find((j) => j.agrees);
        if (agreed && agreed.names.front.some((w, i) => w !== agreed.names.tokens[i])) {
          try {
            const others: MrzRead[] = [];
            while (others.length < VOTE_READS && text.back.passes < PASSES.length) {
              const other = await readBack(back.image, e, within, text.back.passes);
              text.back.passes = other.passes;
              if (!other.mrz) break;
              others.push(other.mrz);
              text.back.others = others;
            }
          } catch (err) {
            // Out of time for the vote only: the read stands with the first MRZ's spelling.
            if (!(err instanceof OutOfTime)) throw err;
            await stop();
          }
        }
        return text;
      } catch (err) {
        if (!(err instanceof OutOfTime)) throw err;
        await stop();
        return { ...text, timedOut: true };
      }
    },

    close: stop,
  };
}
