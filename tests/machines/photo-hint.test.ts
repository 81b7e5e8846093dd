/**
 * The document preview's hint before sending (issue 22, item 4): a dark photo and a card too far
 * in the frame are said; a card that fills the photo is not. On cards photographed on a table
 * (tests/fixtures/capture.ts), decoded as the browser's 160 px greyscale copy.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoHint } from '../../machines/shared/photo-hint';
import { photographCard, type Capture } from '../fixtures/capture';
import { fixture } from '../identity/frames';

async function hintOf(side: string, capture: Capture) {
  const photo = await photographCard(fixture('cedulas', `${side}.jpg`), capture, 3);
  const { data, info } = await sharp(photo)
    .resize({ width: 160 })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return photoHint({ data, width: info.width, height: info.height });
}

describe('photo hint before sending a document', () => {
  it('no hint for a card that fills most of the photo, in good light', async () => {
    expect(await hintOf('card-1-front', { fill: 0.85, rotate: 4, background: 'wood' })).toBeNull();
    expect(await hintOf('card-2-back', { fill: 0.7, rotate: -6, background: 'cloth' })).toBeNull();
  });

  it('a dark photo', async () => {
    expect(
      await hintOf('card-1-front', { fill: 0.8, light: 'dim', background: 'dark', quality: 60 }),
    ).toBe('dark');
  });

  it('a card too far from the camera', async () => {
    expect(await hintOf('card-1-front', { fill: 0.3, background: 'wood' })).toBe('small');
    expect(await hintOf('card-2-back', { fill: 0.28, rotate: 5, background: 'white' })).toBe(
      'small',
    );
  });

  it('a blank or featureless image shows no card (issue 29 item 14)', () => {
    const flat = { data: new Uint8Array(160 * 120).fill(128), width: 160, height: 120 };
    expect(photoHint(flat)).toBe('noCard');
  });

  it('a photo of a face, not a card, is flagged; every fixture card filling the photo is not', async () => {
    for (const face of ['person-01.jpg', 'person-02.jpg', 'blink-open.jpg', 'group.jpg']) {
      const { data, info } = await sharp(fixture('faces', face))
        .resize({ width: 160 })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(photoHint({ data, width: info.width, height: info.height }), face).toBe('noCard');
    }
    const cards = [
      'card-2-front',
      'card-3-front',
      'card-4-front',
      'card-5-front',
      'card-5-back',
      'templates/antigua-back',
      'templates/antigua-front',
      'templates/clasica-back',
      'templates/clasica-front',
      'templates/extranjero-back',
      'templates/extranjero-front',
      'templates/fotoDerecha-back',
      'templates/fotoDerecha-front',
      'templates/numeroBajoFoto-back',
      'templates/numeroBajoFoto-front',
      'templates/policarbonato-back',
      'templates/policarbonato-front',
    ];
    for (const card of cards)
      expect(await hintOf(card, { fill: 0.8, rotate: 3, background: 'wood' }), card).toBeNull();
  });
});
