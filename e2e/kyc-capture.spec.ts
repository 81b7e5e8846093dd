import path from 'node:path';
import type { Page } from '@playwright/test';
import { identityPaths } from '../contract/identity';
import { expect, expectNoAxeViolations } from './fixtures';
import {
  button,
  CAMERA_READY_MS,
  cedulas,
  heading,
  isPost,
  kyc,
  passSelfie,
  PIN,
  showOnCamera,
  stillVideo,
  test,
  toSelfie,
} from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: the documents taken with 'Capturar' from a fake
// camera that shows the cédula. Helpers: e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

/**
 * Counts, in the page, every time a 'Capturar' button is enabled and whether the camera's video
 * element had fired 'playing' by then ('Capturar' is enabled only when the video plays).
 */
async function watchCaptureButton(page: Page, label: string) {
  await page.addInitScript((name) => {
    const w = window as unknown as { captureEnabled: number; captureBeforePlaying: number };
    w.captureEnabled = 0;
    w.captureBeforePlaying = 0;
    const playing = new WeakSet<EventTarget>();
    const enabled = new WeakSet<Element>();
    document.addEventListener('playing', (e) => e.target && playing.add(e.target), true);
    new MutationObserver(() => {
      for (const b of document.querySelectorAll('button')) {
        const on = b.textContent === name && !b.disabled;
        if (on && !enabled.has(b)) {
          enabled.add(b);
          w.captureEnabled += 1;
          const video = document.querySelector('video');
          if (!video || !playing.has(video)) w.captureBeforePlaying += 1;
        } else if (!on) enabled.delete(b);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  }, label);
}

test.use({ selfieSeed: 4 });

test("the rear camera shows the cédula: 'Capturar' (enabled only once the video plays) takes the front and the back to the review", async ({
  page,
  cameraDir,
  cameraFile,
}) => {
  await watchCaptureButton(page, kyc.document.capture);
  // The selfie's camera opens with the blink video; every later opening shows the card. The
  // cards are 760x479: padded to 760x480 (yuv420p needs even sizes).
  const size = { width: 760, height: 480 };
  const front = stillVideo(cameraDir, path.join(cedulas, 'card-1-front.jpg'), size);
  const back = stillVideo(cameraDir, path.join(cedulas, 'card-1-back.jpg'), size);
  await toSelfie(page, PIN);
  await expect(button(page, kyc.selfie.start)).toBeEnabled({ timeout: CAMERA_READY_MS });
  showOnCamera(cameraFile, front);
  await passSelfie(page);

  const capture = button(page, kyc.document.capture);
  await expect(capture).toBeEnabled({ timeout: 20_000 });
  await capture.click();
  await expect(page.getByRole('img', { name: kyc.document.frontPreviewAlt })).toBeVisible();
  await expectNoAxeViolations(page);
  // The preview released the camera: the back's opening sees the back.
  showOnCamera(cameraFile, back);
  await button(page, kyc.document.accept).click();
  await expect(heading(page, kyc.document.backTitle)).toBeFocused();
  await expect(capture).toBeEnabled({ timeout: 20_000 });
  await capture.click();
  await expect(page.getByRole('img', { name: kyc.document.backPreviewAlt })).toBeVisible();
  const scan = page.waitForResponse(isPost(identityPaths.scanId), { timeout: 120_000 });
  await button(page, kyc.document.accept).click();
  expect((await scan).ok()).toBe(true);
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 30_000 });
  await expect(page.getByText('6.824.773', { exact: true })).toBeVisible();

  const counts = await page.evaluate(() => {
    const w = window as unknown as { captureEnabled: number; captureBeforePlaying: number };
    return { enabled: w.captureEnabled, beforePlaying: w.captureBeforePlaying };
  });
  expect(counts.enabled).toBeGreaterThanOrEqual(2);
  expect(counts.beforePlaying).toBe(0);
});
