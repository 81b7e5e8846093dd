import type { Browser, BrowserContext, Page } from '@playwright/test';
import { onboardingPaths, REGISTRATION_COOKIE } from '../../contract/onboarding';
import { landing } from '../../src/copy/es';
import { onboarding as copy } from '../../src/copy/es.onboarding';
import { cameraErrors } from '../../src/copy/es.camera';
import { expect, readSmsOutbox, uniqueCelular } from '../fixtures';
import { button, heading, kyc, passSelfie, PIN, uploadDocuments } from './kyc';

/**
 * Shared by the registration-that-survives specs (issue 18): proving a mobile at step 0-1 (again,
 * after a lost page), the SMS link, and the identity step from the selfie to the completion.
 */

/**
 * Step 0 and 1 for this mobile: the number, then the newest code the outbox holds. On a browser
 * holding no registration: a registration's cookie would continue it with no code at all
 * (issue 43 item 8, e2e/onboarding-reload.spec.ts), so it is forgotten first.
 */
export async function proveMobile(page: Page, celular: string): Promise<void> {
  await page.context().clearCookies({ name: REGISTRATION_COOKIE });
  await page.goto('/');
  await page.getByRole('link', { name: landing.register }).click();
  await page.getByLabel(copy.registration.phoneLabel, { exact: true }).fill(celular.slice(1));
  // A code went to this mobile moments ago: the server's resend wait (30 s) answers 429 until it
  // is over, so 'Continuar' is tried again until the code step shows (as a patient would).
  await expect(async () => {
    const codeStep = heading(page, copy.verification.title);
    if (!(await codeStep.isVisible()))
      await button(page, copy.registration.submit).click({ timeout: 3000 });
    await expect(codeStep).toBeVisible({ timeout: 3000 });
  }).toPass({ intervals: [5000], timeout: 60_000 });
  const [sms] = await readSmsOutbox(page.request, celular);
  const code = /\b(\d{6})\b/.exec(sms?.body ?? '')![1]!;
  await page.getByLabel(copy.verification.codeLabel, { exact: true }).fill(code);
}

/** Step 2: the PIN and the terms, kept with the registration; the welcome shows. */
export async function choosePin(page: Page, pin: string): Promise<void> {
  await page.getByLabel(copy.pinCreation.pinLabel, { exact: true }).fill(pin);
  await page.getByRole('checkbox', { name: /Acepto los términos y condiciones/ }).check();
  await button(page, copy.pinCreation.submit).click();
  await expect(heading(page, copy.welcome.title)).toBeFocused({ timeout: 30_000 });
}

/** The newest SMS link to this mobile, as the phone receives it. */
export async function linkFromOutbox(page: Page, celular: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const [newest] = await readSmsOutbox(page.request, celular);
      link = /(https?:\/\/\S+\/onboarding\/celular#[A-Za-z0-9_-]{43})/.exec(
        newest?.body ?? '',
      )?.[1];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** Development route: this mobile's links expire now. */
export async function expireLinks(page: Page, celular: string): Promise<void> {
  const res = await page.request.post(onboardingPaths.devExpireLinks, { data: { celular } });
  expect(res.status()).toBe(200);
}

/** A phone: its own context, the fake camera allowed, a phone's screen. */
export async function phone(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    permissions: ['camera'],
    viewport: { width: 412, height: 915 },
    isMobile: true,
    hasTouch: true,
    locale: 'es-PY',
  });
}

/**
 * From the selfie to the completion: the blink challenge, the card, the review (showing the given
 * names `nombre` when given), the form.
 */
export async function finishIdentity(
  page: Page,
  card: string,
  nombre?: string | RegExp,
): Promise<void> {
  await passSelfie(page);
  await expect(button(page, kyc.document.capture)).toBeEnabled({ timeout: 20_000 });
  await uploadDocuments(page, card);
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 90_000 });
  if (nombre)
    await expect(
      page
        .locator('dt', { hasText: kyc.review.labels.nombre })
        .locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(nombre);
  await confirmAndComplete(page);
}

/** From the review's confirmation: the complementary data (first department and city), then done. */
export async function confirmAndComplete(page: Page): Promise<void> {
  await button(page, kyc.review.confirm).click();
  await completeSupplementary(page);
}

/** The complementary data (first department and city), then 'Onboarding Completo'. */
export async function completeSupplementary(page: Page): Promise<void> {
  await submitSupplementary(page);
  await expect(heading(page, copy.complete.title)).toBeVisible({ timeout: 30_000 });
}

/** The complementary data (first department and city) sent: the register call. */
export async function submitSupplementary(page: Page): Promise<void> {
  await expect(heading(page, kyc.supplementary.title)).toBeFocused({ timeout: 30_000 });
  const department = page.getByLabel(kyc.supplementary.departmentLabel, { exact: true });
  const city = page.getByLabel(kyc.supplementary.cityLabel, { exact: true });
  await expect(department.locator('option')).not.toHaveCount(1);
  await department.selectOption({ index: 1 });
  await expect(city).toBeEnabled();
  await city.selectOption({ index: 1 });
  await button(page, kyc.supplementary.submit).click();
}

/**
 * A new patient's steps 0 to 4 with the camera permission withheld: the selfie says so and offers
 * the phone, which is chosen. Returns the mobile.
 */
export async function toHandoff(page: Page, context: BrowserContext): Promise<string> {
  await context.clearPermissions();
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await choosePin(page, PIN);
  await button(page, copy.welcome.next).click();
  await expect(page.getByText(cameraErrors.permissionDenied, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await button(page, kyc.handoff.action).click();
  await expect(heading(page, copy.handoff.title)).toBeFocused();
  await expect(page.getByTestId('handoff-stage')).toHaveText(copy.handoff.stages.waiting);
  return celular;
}
