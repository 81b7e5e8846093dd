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

  it('a blank or featureless image gives no hint', () => {
    const flat = { data: new Uint8Array(160 * 120).fill(128), width: 160, height: 120 };
    expect(photoHint(flat)).toBeNull();
  });
});
