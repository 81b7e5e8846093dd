/** Debian's Chromium (never a downloaded browser: see the README) and its launch flags, shared by playwright.config.ts and bench/. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Camera flows: auto-accept the permission prompt and use Chromium's fake camera. */
export const FAKE_CAMERA_ARGS = [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];
