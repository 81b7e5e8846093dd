import path from 'node:path';
import { cameraErrors } from '../src/copy/es.camera';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, faces, kyc, PIN, test, toSelfie } from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: the camera permission withheld, then granted.
// Helpers: e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

// No auto-accepted prompt: the permission is the context's (withheld until granted). No liveness
// challenge runs: the camera shows a still face (no blink seed needed).
test.use({ cameraPrompt: 'browser', cameraImage: path.join(faces, 'blink-open.jpg') });

test('withheld: the selfie shows the permission text; granted in the browser: it resumes by itself, without a reload', async ({
  page,
  context,
}) => {
  await context.clearPermissions();
  await toSelfie(page, PIN);
  await expect(page.getByText(cameraErrors.permissionDenied, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(button(page, kyc.selfie.start)).toHaveCount(0);
  await expectNoAxeViolations(page);
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  await context.grantPermissions(['camera']);
  await expect(button(page, kyc.selfie.start)).toBeEnabled({ timeout: 30_000 });
  await expect(page.getByText(cameraErrors.permissionDenied, { exact: true })).toHaveCount(0);
  expect(navigations).toBe(0);
});
