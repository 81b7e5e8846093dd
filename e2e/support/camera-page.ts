import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page, type TestInfo } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_CAMERA_ARGS } from '../chromium';
import { makeBlinkVideo } from './blink-video';

/** Opens a page in a Chromium of its own whose fake camera plays the blink video of `seed`. */
export type CameraPage = (seed: number, options?: { cameraAllowed?: boolean }) => Promise<Page>;

/**
 * The `cameraPage` fixture of the face specs, for one face of tests/fixtures/faces (each spec has
 * its own, so no two specs enrol or play the same face): every browser it opened is closed after
 * the test.
 */
export const cameraPageOf =
  (face: string) =>
  async (
    { clientIp, baseURL }: { clientIp: string; baseURL: string | undefined },
    use: (cameraPage: CameraPage) => Promise<void>,
    testInfo: TestInfo,
  ) => {
    const browsers: Browser[] = [];
    await use(async (seed, options = {}) => {
      const dir = testInfo.outputPath('camera');
      mkdirSync(dir, { recursive: true });
      const video = await makeBlinkVideo(dir, { seed, seconds: 60, face });
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_ARGS, ...FAKE_CAMERA_ARGS, `--use-file-for-fake-video-capture=${video}`],
      });
      browsers.push(browser);
      const context = await browser.newContext({
        baseURL: baseURL!,
        locale: 'es-PY',
        timezoneId: 'America/Asuncion',
        // Development needs no device credential; limits then count per client address.
        extraHTTPHeaders: { 'x-forwarded-for': clientIp },
      });
      // The browser already allows the camera (what a kiosk's browser remembers after a reload).
      if (options.cameraAllowed) await context.grantPermissions(['camera']);
      return context.newPage();
    });
    for (const browser of browsers) await browser.close();
  };
