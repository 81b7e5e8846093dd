import { login as loginCopy } from '../src/copy/es';
import { supplementaryFieldErrors } from '../src/copy/es.kyc';
import { onboarding as copy, onboardingErrors } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, heading, kyc, passSelfie, test, toSelfie, uploadDocuments } from './support/kyc';

// Step 4 through the real build, the real API and the real identity engine, in Chromium with a fake
// camera playing a blink video made from the engine's fixtures (e2e/support/blink-video.ts).
// Each liveness journey plays its own blink video (`test.use({ blinkSeed })`): the server refuses a
// frame another session already showed (replay check). Seeds 1-4 and 9-12 are the KYC specs'
// (this file: 1); the fixture and the steps are in e2e/support/kyc.ts.

test.describe.configure({ timeout: 240_000 });

test('a new patient passes the selfie, the cédula and the review, is asked for another PIN because the first was the birthday on the card, finishes onboarding and logs in with the cédula number and the new PIN', async ({
  page,
}) => {
  // Card 1: born 08/10/1955, document 6.824.773. 081055 (DDMMYY) passes step 2: the card is not
  // read yet.
  const birthdayPin = '081055';
  const pin = '735194';
  await toSelfie(page, birthdayPin);
  await expect(page.getByText('Paso 5 de 8', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await passSelfie(page);
  // The document step: the rear camera plays, 'Capturar' is there for it, 'Subir imagen' too.
  await expect(button(page, kyc.document.capture)).toBeEnabled({ timeout: 20_000 });
  await expectNoAxeViolations(page);
  await uploadDocuments(page, 'card-1');
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 90_000 });
  const value = (label: string) =>
    page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  // The card prints 'LÓPEZ', the MRZ 'LOPEZ': the printed spelling when the OCR reads the accent.
  await expect(value(kyc.review.labels.apellido)).toHaveText(/^FRANCO L[OÓ]PEZ$/);
  await expect(value(kyc.review.labels.nombre)).toHaveText('LIZ ANA');
  // As the card prints it.
  await expect(value(kyc.review.labels.numeroDocumento)).toHaveText('6.824.773');
  await expect(value(kyc.review.labels.fechaNacimiento)).toHaveText('08/10/1955');
  await expect(value(kyc.review.labels.sexo)).toHaveText('FEMENINO');
  await expect(value(kyc.review.labels.nacionalidad)).toHaveText('PARAGUAYA');
  await expect(value(kyc.review.labels.estado_civil)).toHaveText('CASADA');
  await expectNoAxeViolations(page);
  await button(page, kyc.review.confirm).click();

  await expect(heading(page, kyc.supplementary.title)).toBeFocused();
  const department = page.getByLabel(kyc.supplementary.departmentLabel, { exact: true });
  const city = page.getByLabel(kyc.supplementary.cityLabel, { exact: true });
  await expect(department.locator('option')).not.toHaveCount(1);
  await expect(city).toBeDisabled();
  await button(page, kyc.supplementary.submit).click();
  await expect(page.getByText(supplementaryFieldErrors.departmentRequired)).toBeVisible();
  await expect(page.getByText(supplementaryFieldErrors.cityRequired)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel(kyc.supplementary.bloodLabel, { exact: true }).selectOption('O+');
  await page
    .getByLabel(kyc.supplementary.addressLabel, { exact: true })
    .fill('Av. Mcal. López 1234');
  await department.selectOption({ index: 1 });
  await expect(city).toBeEnabled();
  await city.selectOption({ index: 1 });
  const registers: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/onboarding/register')) registers.push(r.url());
  });
  await button(page, kyc.supplementary.submit).click();

  // The card is read: the birthday PIN is asked again on a step of its own, before any register.
  await expect(heading(page, copy.pinRenewal.title)).toBeFocused();
  expect(registers).toEqual([]);
  await expectNoAxeViolations(page);
  const newPin = page.getByLabel(copy.pinRenewal.pinLabel, { exact: true });
  await newPin.fill('682477'); // 6 digits in a row of the document number
  await button(page, copy.pinRenewal.submit).click();
  await expect(newPin).toHaveAccessibleDescription(onboardingErrors.pinFromOwnData);
  await expect(newPin).toBeFocused();
  expect(registers).toEqual([]);
  await newPin.fill(pin);
  await button(page, copy.pinRenewal.submit).click();

  await expect(heading(page, copy.complete.title)).toBeVisible({ timeout: 30_000 });
  await page.goto('/login');
  await page.getByLabel(loginCopy.documentoLabel, { exact: true }).fill('6824773');
  await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill(pin);
  await button(page, loginCopy.submit).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
});
