import path from 'node:path';
import { cameraErrors } from '../src/copy/es.camera';
import { e2eEnv, expect, expectNoAxeViolations } from './fixtures';
import { button, faces, kyc, PIN, test, toSelfie } from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: plain http on a name that is not localhost.
// Helpers: e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

// A name that is not localhost, mapped to the e2e server: plain http there is not a secure context.
const host = 'portal-kyc.test';
test.use({
  extraChromiumArgs: [`--host-resolver-rules=MAP ${host} 127.0.0.1`],
  baseURL: `http://${host}:${e2eEnv.port}`,
  // The camera is never opened here: a still image, no blink video to make.
  cameraImage: path.join(faces, 'blink-open.jpg'),
});

test("plain http on a non-localhost name: the camera's 'needs HTTPS' text at the selfie", async ({
  page,
  playwright,
}) => {
  // The test's own HTTP client does not know the mapped name: it reads the SMS at 127.0.0.1.
  const api = await playwright.request.newContext({ baseURL: e2eEnv.baseURL });
  try {
    await toSelfie(page, PIN, api);
  } finally {
    await api.dispose();
  }
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
  await expect(page.getByText(cameraErrors.insecureContext, { exact: true })).toBeVisible();
  await expect(button(page, kyc.selfie.start)).toHaveCount(0);
  await expectNoAxeViolations(page);
});
