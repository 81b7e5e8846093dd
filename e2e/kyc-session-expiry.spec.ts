import { devKycExpirePath } from '../server/identity/dev-routes';
import { kycErrors } from '../src/copy/es.kyc';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, kyc, nextKycSession, passSelfie, PIN, test, toSelfie } from './support/kyc';

// Issue 7 (KYC) in Chromium with a fake camera: an identity session that expires. Helpers:
// e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

test.use({ selfieSeed: 9 });

test("an expired session: 'La sesión expiró. Volvé a empezar el proceso.', then a new session and the selfie passes", async ({
  page,
}) => {
  const first = await toSelfie(page, PIN);
  const expired = await page.request.post(devKycExpirePath(first));
  expect(expired.status()).toBe(200);
  await button(page, kyc.selfie.start).click();
  await expect(page.getByText(kycErrors.sessionExpired, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expectNoAxeViolations(page);
  const second = nextKycSession(page);
  await button(page, kyc.selfie.retry).click();
  expect(await second).not.toBe(first);
  await passSelfie(page);
});
