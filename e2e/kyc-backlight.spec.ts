import { expect } from './fixtures';
import { passSelfie, PIN, test, toSelfie } from './support/kyc';

// Issue 31's light before a bright background: the darkest skin tone before a window, with a front
// camera that meters on the face (faceMetering 1: face-priority auto exposure; the journeys' camera
// meters the whole frame). The camera exposes for the face and burns the window, so the light has
// no background to compare the face's change with. Where the camera offers exposure compensation
// (the synthetic camera's default, as Chrome on Android) the page sees the burnt corners before the
// colours start and asks for -1 EV, and the selfie passes; where it does not (iOS Safari), the light
// refused before issue 41 and is now judged on the face's own shape. Synthetic patients 15 and 16
// (e2e/support/kyc.ts).

test.describe.configure({ timeout: 240_000 });
const scene = { tone: 'VI', lighting: 'window', face: 'blink', faceMetering: 1 } as const;
/** The exposure compensation the page asked of the synthetic camera (EV). */
const askedEv = (page: import('@playwright/test').Page) =>
  page.evaluate(
    () => (window as { __syntheticCamera?: { exposureEv: number } }).__syntheticCamera!.exposureEv,
  );

test.describe('a camera that offers exposure compensation', () => {
  test.use({ selfieSeed: 15, selfieScene: scene });

  test('a dark face before a bright window: the page darkens the exposure and the selfie passes', async ({
    page,
  }) => {
    await toSelfie(page, PIN);
    expect(await askedEv(page)).toBe(0);
    await passSelfie(page);
    expect(await askedEv(page)).toBeCloseTo(-1, 5);
  });
});

test.describe('a camera without it', () => {
  test.use({
    selfieSeed: 16,
    selfieScene: { ...scene, exposureCompensation: false },
  });

  // Issue 41: the light no longer needs a background to compare with: with the window burnt and no
  // exposure control (iOS Safari), it is judged on the face's own shape and the selfie passes.
  test('the same scene: the light is judged on the face itself and the selfie passes, no exposure asked', async ({
    page,
  }) => {
    await toSelfie(page, PIN);
    await passSelfie(page);
    expect(await askedEv(page)).toBe(0);
  });
});
