/**
 * Real photos of the cédula (issue 22) and the scan's time budget (issue 21, item 1), on the engine
 * with its real OCR: cards photographed on a table (tests/fixtures/capture.ts) are found,
 * straightened and read; a genuine card read poorly is never called another card; the substitution
 * attacks stay refused when photographed too; a noise back is refused before any OCR and no read
 * outlives its budget.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../../server/identity/config';
import { createDocumentReader } from '../../server/identity/document';
import { identityMessages } from '../../server/identity/errors';
import { rng } from '../fixtures/cedula';
import { photographCard, type Capture } from '../fixtures/capture';
import { cardIdData, cardManifest, fixture } from './frames';
import { useScanEngine } from './engine';

const card = (name: string) => fixture('cedulas', `${name}.jpg`);
const T = 180_000;

/** A card lying on a wooden table, turned and seen from a slant; and another on cloth. */
const onTable: Capture = {
  rotate: 8,
  tilt: 10,
  tiltSide: 'top',
  fill: 0.7,
  blur: 0.8,
  quality: 70,
  background: 'wood',
};
const onCloth: Capture = {
  rotate: -6,
  tilt: 8,
  tiltSide: 'left',
  fill: 0.75,
  blur: 0.6,
  quality: 75,
  background: 'cloth',
};

describe('photos of the cédula on the engine', () => {
  const { scan } = useScanEngine(700, T);

  it(
    'a card tilted on a table, both sides, completes with every field',
    { timeout: T },
    async () => {
      const r = await scan(
        await photographCard(card('card-1-front'), onTable, 1),
        await photographCard(card('card-1-back'), onCloth, 2),
      );
      expect(r).toMatchObject({ success: true, kyc_complete: true });
      // This photo's front is read with its accent: 'FRANCO LÓPEZ' as printed (the MRZ: 'LOPEZ').
      const { expected, printedName } = cardManifest['card-1']!;
      expect(r.id_data).toEqual({ ...expected, FullName: printedName });
    },
  );

  it(
    'a blurred front (1.5 px) completes, and is never called another card',
    { timeout: T },
    async () => {
      const front = await photographCard(
        card('card-2-front'),
        { rotate: -4, fill: 0.85, blur: 1.5, quality: 60, background: 'dark' },
        3,
      );
      const r = await scan(front, card('card-2-back'));
      expect(r.error).toBeUndefined();
      // The front prints 'ÓSCAR' and the OCR reads its accent, blurred too (the MRZ: 'OSCAR').
      const { expected, printedName } = cardManifest['card-2']!;
      expect(r.id_data).toEqual({ ...expected, FullName: printedName });
    },
  );

  it(
    "photographed, another card's front with this back is still another card",
    { timeout: T },
    async () => {
      const r = await scan(
        await photographCard(card('card-4-front'), onTable, 4),
        await photographCard(card('card-3-back'), onCloth, 5),
      );
      expect(r).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.documentMismatch,
        reason: 'document_mismatch',
      });
    },
  );

  it(
    'photographed, a selfie as the front and a photo pasted on the card stay refused',
    { timeout: T },
    async () => {
      const selfie = await scan(
        await photographCard(fixture('faces', 'blink-open.jpg'), onTable, 6),
        card('card-1-back'),
      );
      expect(selfie.success).toBe(false);
      expect([identityMessages.notADocument, identityMessages.faceMismatch]).toContain(
        selfie.error,
      );
      const pasted = await scan(
        await photographCard(card('card-3-front-pasted'), onTable, 7),
        await photographCard(card('card-3-back'), onCloth, 8),
      );
      expect(pasted).toMatchObject({
        success: false,
        error: identityMessages.faceMismatch,
        reason: 'face_mismatch',
      });
    },
  );
});

/** A JPEG of random pixels, as the outside probe sent for a back. */
async function noise(width: number, height: number, seed: number): Promise<Buffer> {
  const r = rng(seed);
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(r() * 256);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('the OCR of one scan is bounded', () => {
  const reader = createDocumentReader(loadIdentityConfig({}));
  afterAll(() => reader.close());

  it('a back of random pixels is refused before any OCR pass', { timeout: T }, async () => {
    const back = await reader.straighten(await noise(1012, 638, 9));
    expect(back.textLines).toBeLessThan(4);
    const r = await reader.read(await reader.straighten(card('card-1-front')), back);
    expect(r).toMatchObject({ ok: false, passes: 0, error: identityMessages.mrzUnreadable });
  });

  it(
    'a read that outlives its budget stops as unreadable, and the next read works',
    { timeout: T },
    async () => {
      // A back whose MRZ lines are there but too soft to read: every pass of the cascade fails.
      const soft = await sharp(card('card-1-back')).blur(5).jpeg().toBuffer();
      const back = await reader.straighten(soft);
      expect(back.textLines).toBeGreaterThanOrEqual(4);
      const r = await reader.read(await reader.straighten(card('card-1-front')), back, 1500);
      expect(r).toMatchObject({ ok: false, timedOut: true });
      expect(r.error?.startsWith(identityMessages.mrzUnreadable)).toBe(true);
      // The engines ended by the budget start again for the next patient.
      const next = await reader.read(
        await reader.straighten(card('card-1-front')),
        await reader.straighten(card('card-1-back')),
      );
      expect(next.idData).toEqual(cardIdData('card-1', next.idData));
    },
  );
});
