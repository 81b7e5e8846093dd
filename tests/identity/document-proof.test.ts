/**
 * Issue 11, item 1: the front must be proved to be the front of the same cédula (no identity
 * substitution). Each attack below completed KYC as the back's person before the fix.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { identityMessages } from '../../server/identity/errors';
import { cardIdData, fixture } from './frames';
import { useScanEngine } from './engine';

const card = (name: string) => fixture('cedulas', `${name}.jpg`);
const T = 180_000;

describe('front proof on the engine', () => {
  const { scan, harness } = useScanEngine(300, T);

  it(
    'a selfie as the front, with any back, is refused: no document on it',
    { timeout: T },
    async () => {
      const r = await scan(fixture('faces', 'blink-open.jpg'), card('card-3-back'));
      expect(r).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.notADocument,
        reason: 'not_a_document',
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
        reason: 'document_mismatch',
      });
      const other = await scan(card('card-2-front'), card('card-1-back'));
      expect(other.error).toBe(identityMessages.documentMismatch);
    },
  );

  it(
    "a front with the selfie's photo pasted beside the card's own portrait is refused",
    { timeout: T },
    async () => {
      const r = await scan(card('card-3-front-pasted'), card('card-3-back'));
      expect(r).toMatchObject({
        success: false,
        error: identityMessages.faceMismatch,
        reason: 'face_mismatch',
      });
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
      expect(r.reason).toBe('front_unreadable');
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
        id_data: cardIdData('card-1', r.id_data),
      });
    },
  );

  it(
    "a back whose MRZ carries the number zero-padded ('005123478') matches the printed '5.123.478'",
    { timeout: T },
    async () => {
      const read = await harness().engine.readDocument(card('card-5-front'), card('card-5-back'));
      expect(read.mrz?.lines[0].slice(5, 14)).toBe('005123478');
      expect(read.checks.numberMatchesFront).toBe(true);
      const r = await scan(card('card-5-front'), card('card-5-back'));
      expect(r).toEqual({
        success: true,
        kyc_complete: true,
        id_data: cardIdData('card-5', r.id_data),
      });
      expect(r.id_data!.DocumentNumber).toBe('5123478');
    },
  );

  it(
    "reads 'ESTADO CIVIL' printed on the back when the front lacks it",
    { timeout: T },
    async () => {
      const r = await scan(card('card-4-front'), card('card-4-back'));
      expect(r.success).toBe(true);
      expect(r.id_data).toEqual(cardIdData('card-4', r.id_data));
      expect(r.id_data!.MaritalStatus).toBe('SOLTERO');
    },
  );
});
