import path from 'node:path';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations, uniqueCelular } from './fixtures';
import { button, cedulas, heading, kyc, passSelfie, PIN, test } from './support/kyc';
import { choosePin, proveMobile } from './support/registration';

// Issue 18 (b): a passed selfie survives a reload. On the front step the page reloads; the browser
// holds the registration (its cookie, issue 43 item 8), so with no new SMS code it continues at the
// front of the cédula, in the same KYC session: no new selfie. (Proving the mobile again on a
// browser without it: onboarding-resume.spec.ts.) Synthetic patient 14 (e2e/support/kyc.ts).

test.describe.configure({ timeout: 240_000 });
// The synthetic patient 14, not 12: patient 12 (outdoor sunlight, skin tone VI, screen at 51%) had
// none of its blinks seen by the server in two runs (0 of 3, cues_missed); bench31's question.
test.use({ selfieSeed: 14 });

test('(b) pass the selfie, reload on the front step: the front step, no new selfie, no new code', async ({
  page,
}) => {
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await choosePin(page, PIN);
  await button(page, copy.welcome.next).click();
  await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
  await passSelfie(page);

  const sessions: string[] = [];
  const codes: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/onboarding/start-kyc')) sessions.push(r.url());
    if (r.url().endsWith('/api/onboarding/start')) codes.push(r.url());
  });
  await page.reload();
  await expect(heading(page, kyc.document.frontTitle)).toBeFocused({ timeout: 30_000 });
  await expect(page.getByTestId('onboarding-resumed')).toHaveText(copy.resumed);
  await expect(page.getByText('Paso 6 de 8', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  // The session of the passed selfie goes on: none was started, and the front is taken.
  expect(sessions).toEqual([]);
  expect(codes).toEqual([]);
  await page.getByTestId('upload-front').setInputFiles(path.join(cedulas, 'card-3-front.jpg'));
  await expect(page.getByRole('img', { name: kyc.document.frontPreviewAlt })).toBeVisible();
  // Said once, on the first screen after the resume (issue 29 item 13); an uploaded photo offers
  // another file, not the camera (item 14).
  await expect(page.getByTestId('onboarding-resumed')).toHaveCount(0);
  await expect(button(page, kyc.document.chooseAnother)).toBeVisible();
  await button(page, kyc.document.accept).click();
  await expect(heading(page, kyc.document.backTitle)).toBeFocused();
});
