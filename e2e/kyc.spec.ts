import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { login as loginCopy, landing } from '../src/copy/es';
import { onboarding as copy, supplementaryFieldErrors } from '../src/copy/es.onboarding';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_CAMERA_ARGS } from './chromium';
import {
  expect,
  expectNoAxeViolations,
  readSmsOutbox,
  test as base,
  uniqueCelular,
} from './fixtures';
import { makeBlinkVideo } from './support/blink-video';

// Step 4 through the real build, the real API and the real identity engine, in Chromium with a fake
// camera playing a blink video made from the engine's fixtures (e2e/support/blink-video.ts).

const cedulas = path.resolve('tests', 'fixtures', 'cedulas');
const kyc = copy.kyc;

/**
 * Each liveness journey plays its own blink video (`test.use({ blinkSeed })`): the server refuses a
 * frame another session already showed (replay check), so two journeys never share one. A seed is
 * a worker option, so tests with different seeds run in different browsers. Seeds 1-4 and 9-12 are this
 * file's; see e2e/support/blink-video.ts for the others.
 */
const test = base.extend<object, { blinkSeed: number; blinkVideo: string }>({
  blinkSeed: [1, { scope: 'worker', option: true }],
  blinkVideo: [
    async ({ blinkSeed }, use, workerInfo) => {
      const dir = path.resolve('test-results', `fake-camera-${workerInfo.workerIndex}`);
      mkdirSync(dir, { recursive: true });
      await use(await makeBlinkVideo(dir, { seed: blinkSeed }));
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  launchOptions: [
    async ({ blinkVideo }, use) => {
      await use({
        executablePath: CHROMIUM_PATH,
        args: [
          ...CHROMIUM_ARGS,
          ...FAKE_CAMERA_ARGS,
          `--use-file-for-fake-video-capture=${blinkVideo}`,
        ],
      });
    },
    { scope: 'worker' },
  ],
});

test.describe.configure({ timeout: 240_000 });

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** From / through registration, the SMS code and the PIN to the selfie. */
async function toSelfie(page: Page, pin: string) {
  const celular = uniqueCelular();
  await page.goto('/');
  await page.getByRole('link', { name: landing.register }).click();
  await page.getByLabel(copy.registration.phoneLabel, { exact: true }).fill(celular.slice(1));
  await button(page, copy.registration.submit).click();
  await expect(heading(page, copy.verification.title)).toBeVisible();
  const [sms] = await readSmsOutbox(page.request, celular);
  const code = /\b(\d{6})\b/.exec(sms?.body ?? '')![1]!;
  await page.getByLabel(copy.verification.codeLabel, { exact: true }).fill(code);
  await page.getByLabel(copy.pinCreation.pinLabel, { exact: true }).fill(pin);
  await page.getByRole('checkbox', { name: /Acepto los términos y condiciones/ }).check();
  await button(page, copy.pinCreation.submit).click();
  await button(page, copy.welcome.next).click();
  await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
}

async function passSelfie(page: Page) {
  const start = button(page, kyc.selfie.start);
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await start.click();
  await expect(button(page, kyc.selfie.stop)).toBeVisible();
  await expect(page.getByText(kyc.selfie.passed)).toBeVisible({ timeout: 90_000 });
  await expect(heading(page, kyc.document.frontTitle)).toBeFocused({ timeout: 5_000 });
}

async function uploadDocuments(page: Page, card: string) {
  await page.getByTestId('upload-front').setInputFiles(path.join(cedulas, `${card}-front.jpg`));
  await expect(page.getByRole('img', { name: kyc.document.frontPreviewAlt })).toBeVisible();
  await button(page, kyc.document.accept).click();
  await expect(heading(page, kyc.document.backTitle)).toBeFocused();
  await page.getByTestId('upload-back').setInputFiles(path.join(cedulas, `${card}-back.jpg`));
  await expect(page.getByRole('img', { name: kyc.document.backPreviewAlt })).toBeVisible();
  await button(page, kyc.document.accept).click();
}

test('a new patient passes the selfie, the cédula and the review, finishes onboarding and logs in with the cédula number and the PIN', async ({
  page,
}) => {
  const pin = '735194';
  await toSelfie(page, pin);
  await expectNoAxeViolations(page);
  await passSelfie(page);
  // The document step: the rear camera plays, 'Capturar' is there for it, 'Subir imagen' too.
  await expect(button(page, kyc.document.capture)).toBeEnabled({ timeout: 20_000 });
  await expectNoAxeViolations(page);
  await uploadDocuments(page, 'card-1');
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 90_000 });
  const value = (label: string) =>
    page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(value(kyc.review.labels.apellido)).toHaveText('FRANCO LOPEZ');
  await expect(value(kyc.review.labels.nombre)).toHaveText('LIZ ANA');
  await expect(value(kyc.review.labels.numeroDocumento)).toHaveText('6824773');
  await expect(value(kyc.review.labels.fechaNacimiento)).toHaveText('08/10/1955');
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
  await button(page, kyc.supplementary.submit).click();

  await expect(heading(page, copy.complete.title)).toBeVisible({ timeout: 30_000 });
  await page.goto('/login');
  await page.getByLabel(loginCopy.documentoLabel, { exact: true }).fill('6824773');
  await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill(pin);
  await button(page, loginCopy.submit).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
});
