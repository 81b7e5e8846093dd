import path from 'node:path';
import { identityPaths, type LivenessResponse } from '../contract/identity';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, faces, heading, isPost, kyc, PIN, test, toSelfie } from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: a still photo in front of the camera. Helpers:
// e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

test.use({ cameraImage: path.join(faces, 'blink-open.jpg') });

test("never passes the blink challenge: after several liveness answers the button still reads 'Detener'", async ({
  page,
}) => {
  await toSelfie(page, PIN);
  const answers: LivenessResponse[] = [];
  let done: () => void;
  const sixAnswers = new Promise<void>((resolve) => (done = resolve));
  page.on('response', async (r) => {
    if (!isPost(identityPaths.liveness)(r)) return;
    answers.push((await r.json()) as LivenessResponse);
    if (answers.length === 6) done();
  });
  await button(page, kyc.selfie.start).click();
  await expect(button(page, kyc.selfie.stop)).toBeVisible();
  await sixAnswers;
  expect(answers.every((a) => !a.liveness_detected)).toBe(true);
  await expect(button(page, kyc.selfie.stop)).toBeEnabled();
  await expect(page.getByText(kyc.selfie.passed)).toHaveCount(0);
  await expect(heading(page, kyc.selfie.title)).toBeVisible();
  await expectNoAxeViolations(page);
});
