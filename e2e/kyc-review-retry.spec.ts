import type { Response } from '@playwright/test';
import { identityPaths } from '../contract/identity';
import { expect } from './fixtures';
import {
  button,
  heading,
  isPost,
  kyc,
  nextKycSession,
  passSelfie,
  PIN,
  test,
  toSelfie,
  uploadDocuments,
} from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: 'Reintentar' on the review. Helpers:
// e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

// One synthetic patient through two selfies: its scene's clock goes on, so no frame repeats.
test.use({ selfieSeed: 3 });

test("'Reintentar' on 'Verificá tus datos' posts kyc-reject, clears every capture and the selfie passes again in a new session", async ({
  page,
}) => {
  // The session the review belongs to: the last one started (a selfie the challenge refused is
  // tried again in a new session, e2e/support/kyc.ts SELFIE_RETRIES).
  let first = '';
  const onStart = (r: Response) => {
    if (isPost(identityPaths.startKyc)(r) && r.status() === 200)
      void r.json().then((b: { session_id: string }) => (first = b.session_id));
  };
  page.on('response', onStart);
  await toSelfie(page, PIN);
  await passSelfie(page);
  await uploadDocuments(page, 'card-1');
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 120_000 });

  page.off('response', onStart);
  expect(first).not.toBe('');
  const reject = page.waitForRequest((r) => r.url().endsWith(identityPaths.kycReject));
  const second = nextKycSession(page);
  await button(page, kyc.review.retry).click();
  expect((await reject).postDataJSON()).toEqual({
    session_id: first,
    reason: 'Usuario no conforme o datos incorrectos.',
  });
  expect(await second).not.toBe(first);
  await expect(heading(page, kyc.selfie.title)).toBeFocused();

  await passSelfie(page);
  // Nothing of the first attempt is left: the front starts live, with no preview.
  await expect(button(page, kyc.document.upload)).toBeEnabled();
  await expect(page.getByRole('img', { name: kyc.document.frontPreviewAlt })).toHaveCount(0);
  await expect(button(page, kyc.document.accept)).toHaveCount(0);
});
