/**
 * Issue 11, item 1: the front must be proved to be the front of the same cédula (no identity
 * substitution). Each attack below completed KYC as the back's person before the fix.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  faceInArea,
  frontNumbers,
  looksLikeCard,
  matchNumber,
  photoAreaOf,
} from '../../server/identity/document';
import { getCompletedKyc } from '../../server/identity/engine';
import { identityMessages } from '../../server/identity/errors';
import type { FrameAnalysis } from '../../server/identity/types';
import { fixture } from './frames';
import { liveSession, startEngine, type Harness } from './engine';

const manifest = JSON.parse(fixture('cedulas', 'manifest.json').toString()) as Record<
  string,
  { expected: Record<string, string> }
>;
const card = (name: string) => fixture('cedulas', `${name}.jpg`);
const T = 180_000;

describe('front proof, pure parts', () => {
  it('finds printed document numbers, not dates', () => {
    expect(frontNumbers('N° DOCUMENTO\n6.824.773 02/09/2035\n')).toEqual(['6824773']);
    expect(frontNumbers('DOCUMENTO 4518203.')).toEqual(['4518203']);
    expect(frontNumbers('08/10/1955 FEMENINO')).toEqual([]);
  });

  it('a number one digit off is unreadable (clearer photo), another number a mismatch', () => {
    expect(matchNumber('6824773', ['6824773'])).toBe(true);
    expect(matchNumber('6824773', ['6824778'])).toBeNull();
    expect(matchNumber('6824773', [])).toBeNull();
    expect(matchNumber('6824773', ['4518203'])).toBe(false);
  });

  it('a card shows its labels; a selfie does not', () => {
    expect(looksLikeCard('REPÚBLICA DEL PARAGUAY\nAPELLIDOS\nFRANCO')).toBe(true);
    expect(looksLikeCard('—\nNe >\nMia A ;\n')).toBe(false);
  });

  it('the photo area is left of the field labels, and only a face centred there counts', () => {
    const w = (text: string, x0: number, y0: number) => ({
      text,
      x0,
      y0,
      x1: x0 + 0.09,
      y1: y0 + 0.02,
    });
    const area = photoAreaOf([
      w('APELLIDOS', 0.34, 0.2),
      w('NOMBRES', 0.34, 0.33),
      w('DOCUMENTO', 0.36, 0.72),
    ])!;
    expect(area.x1).toBeCloseTo(0.34);
    expect(area.x0).toBe(0);
    const face = (x: number, y: number) => ({
      box: [x, y, 100, 120] as [number, number, number, number],
      score: 1,
      ear: { left: 0.3, right: 0.3, mean: 0.3 },
      luminance: 120,
    });
    const frame: FrameAnalysis = {
      width: 1000,
      height: 630,
      luminance: 120,
      faces: [face(700, 200), face(100, 250)],
      timings: { decodeMs: 0, detectMs: 0 },
    };
    expect(faceInArea(frame, area)?.box[0]).toBe(100);
    expect(faceInArea({ ...frame, faces: [face(700, 200)] }, area)).toBeNull();
    expect(photoAreaOf([w('PARAGUAY', 0.4, 0.05)])).toBeNull();
  });
});

describe('front proof on the engine', () => {
  let h: Harness;
  let seed = 300;
  beforeAll(async () => {
    h = await startEngine({}, { ocr: true });
  }, T);
  afterAll(async () => {
    await h?.engine.close();
    await h?.db.close();
  });

  async function scan(front: Buffer, back: Buffer) {
    const sid = await liveSession(h, seed++);
    const r = await h.engine.scanDocument(h.db, sid, { front, back });
    if (!r.success) expect(await getCompletedKyc(h.db, sid)).toBeNull();
    return r;
  }

  it(
    'a selfie as the front, with any back, is refused: no document on it',
    { timeout: T },
    async () => {
      const r = await scan(fixture('faces', 'blink-open.jpg'), card('card-3-back'));
      expect(r).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.notADocument,
      });
    },
  );

  it(
    "another card's front with this back is refused, even a namesake's (same names, other number)",
    { timeout: T },
    async () => {
      const namesake = await scan(card('card-4-front'), card('card-3-back'));
      expect(namesake).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.documentMismatch,
      });
      const other = await scan(card('card-2-front'), card('card-1-back'));
      expect(other.error).toBe(identityMessages.documentMismatch);
    },
  );

  it(
    "a front with another card's photo pasted outside the photo area is refused",
    { timeout: T },
    async () => {
      const r = await scan(card('card-3-front-pasted'), card('card-3-back'));
      expect(r.success).toBe(false);
      expect(r.error).toBe(identityMessages.faceMismatch);
    },
  );

  it(
    'a front whose number cannot be read fails closed, asking for a clearer photo',
    { timeout: T },
    async () => {
      // The bottom of the card (number row) is cut off: names and photo are there, the number is not.
      const front = await sharp(card('card-1-front'))
        .extract({ left: 0, top: 0, width: 760, height: 330 })
        .jpeg({ quality: 90 })
        .toBuffer();
      const r = await scan(front, card('card-1-back'));
      expect(r.error).toBe(identityMessages.frontUnreadable);
    },
  );

  it(
    "the genuine card at the browser's upload size (2000 px, JPEG 0.92) completes",
    { timeout: T },
    async () => {
      const scaled = (b: Buffer) =>
        sharp(b).resize({ width: 2000 }).jpeg({ quality: 92 }).toBuffer();
      const r = await scan(await scaled(card('card-1-front')), await scaled(card('card-1-back')));
      expect(r).toEqual({
        success: true,
        kyc_complete: true,
        id_data: manifest['card-1']!.expected,
      });
    },
  );

  it(
    "reads 'ESTADO CIVIL' printed on the back when the front lacks it",
    { timeout: T },
    async () => {
      const r = await scan(card('card-4-front'), card('card-4-back'));
      expect(r.success).toBe(true);
      expect(r.id_data).toEqual(manifest['card-4']!.expected);
      expect(r.id_data!.MaritalStatus).toBe('SOLTERO');
    },
  );
});
