import { mkdirSync } from 'node:fs';
import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { faceLogin as faceCopy } from '../../src/copy/es.faceLogin';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_CAMERA_ARGS } from '../chromium';
import { makeBlinkVideo, type BlinkVideoOptions } from './blink-video';
import { launchLive, withLiveFace } from './live-face';

/**
 * Opens a page in a Chromium of its own whose fake camera plays the blink video of `seed` (a live
 * face: the browser holds e2e/support/live-face.ts's lock until it closes, and a video is drawn with
 * it held): 60 s unless `seconds` says less (a shorter video is made faster; Chromium loops it, and
 * a loop repeats frames the server refuses, so it must outlast what the page films). `prepare`
 * makes a video ahead, while the test does other things (the page opened later waits for the same
 * one).
 */
export type CameraPage = ((
  seed: number,
  options?: { cameraAllowed?: boolean; seconds?: number },
) => Promise<Page>) & { prepare: (seed: number, seconds?: number) => Promise<string> };

/**
 * The `cameraPage` fixture of the face specs, for one face of tests/fixtures/faces (each spec has
 * its own, so no two specs enrol or play the same face), filmed at `framing`: every browser it
 * opened is closed after the test.
 */
export const cameraPageOf =
  (face: string, framing: Pick<BlinkVideoOptions, 'raise'> = {}) =>
  async (
    { clientIp, baseURL }: { clientIp: string; baseURL: string | undefined },
    use: (cameraPage: CameraPage) => Promise<void>,
    testInfo: TestInfo,
  ) => {
    const browsers: Browser[] = [];
    const videos = new Map<string, Promise<string>>();
    const prepare = (seed: number, seconds = 60) => {
      const key = `${seed}-${seconds}`;
      if (!videos.has(key)) {
        const dir = testInfo.outputPath('camera');
        mkdirSync(dir, { recursive: true });
        // Drawing a video keeps the cores busy for seconds: not beside the other worker's live face.
        videos.set(
          key,
          withLiveFace(() => makeBlinkVideo(dir, { seed, seconds, face, ...framing })),
        );
      }
      return videos.get(key)!;
    };
    const open = async (
      seed: number,
      options: { cameraAllowed?: boolean; seconds?: number } = {},
    ) => {
      const video = await prepare(seed, options.seconds);
      const browser = await launchLive({
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
    };
    await use(Object.assign(open, { prepare }));
    // A test may close one itself (a kiosk stopped at its first decision).
    for (const browser of browsers) if (browser.isConnected()) await browser.close();
  };

/**
 * The kiosk (`/face-login?modo=kiosco`, its browser already allowing the camera, its video
 * `seconds` long) until its first decision, then closed so it tries no more. A failure shows for
 * the kiosk's 700 ms cooldown only: the page looks at every animation frame, not at expect's 1 s
 * poll. Returns the moment box's text: the greeting, 'No reconocido' or the time-up.
 */
export async function kioskDecision(
  cameraPage: CameraPage,
  seed: number,
  seconds: number,
): Promise<string> {
  const kiosk = await cameraPage(seed, { cameraAllowed: true, seconds });
  await kiosk.goto('/face-login?modo=kiosco');
  await expect(kiosk.getByRole('status', { name: faceCopy.kiosk.statusLabel })).toBeVisible();
  const decided = await kiosk.waitForFunction(
    (ends) => {
      const text = document.querySelector('[data-testid="kiosk-moment"]')?.textContent ?? '';
      return ends.some((end) => text.includes(end)) ? text : false;
    },
    [faceCopy.notRecognised, '¡Hola', faceCopy.kiosk.moments.timedOut],
    { polling: 'raf', timeout: 90_000 },
  );
  const text = (await decided.jsonValue()) as string;
  await kiosk.context().browser()?.close();
  return text;
}
