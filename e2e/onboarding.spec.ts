import type { Page } from '@playwright/test';
import { landing } from '../src/copy/es';
import { kyc } from '../src/copy/es.kyc';
import { onboarding as copy, onboardingErrors, otpErrors } from '../src/copy/es.onboarding';
import {
  DEMO,
  expect,
  expectNoAxeViolations,
  readSmsOutbox,
  test,
  uniqueCelular,
} from './fixtures';
import { pauseCountdown } from './support/countdown';

// The onboarding wizard through the real build (dist/) and the real API with its development SMS
// outbox (GET /api/dev/sms-outbox), see playwright.config.ts.

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });
const phoneField = (page: Page) => page.getByLabel(copy.registration.phoneLabel, { exact: true });
const codeField = (page: Page) => page.getByLabel(copy.verification.codeLabel, { exact: true });

/**
 * The prerendered step 0 is hydrated: 'Continuar' is enabled (the title no longer takes the focus
 * on load, so typing during hydration stays in the field: e2e/prerender.spec.ts).
 */
async function expectHydrated(page: Page) {
  await expect(heading(page, copy.registration.title)).toBeVisible();
  await expect(
    page.getByRole('button', { name: copy.registration.submit, exact: true }),
  ).toBeEnabled();
}

/** Step 0 with a phone typed after the fixed +595 (the local 09... without its 0), then 'Continuar'. */
async function register(page: Page, celular: string) {
  await page.goto('/onboarding');
  await expectHydrated(page);
  await phoneField(page).fill(celular.slice(1));
  await page.getByRole('button', { name: copy.registration.submit, exact: true }).click();
}

/** The newest code the outbox holds for a phone. */
async function codeFromOutbox(page: Page, celular: string): Promise<string> {
  const [newest] = await readSmsOutbox(page.request, celular);
  const code = /\b(\d{6})\b/.exec(newest?.body ?? '')?.[1];
  expect(code, `a 6-digit code in the SMS to ${celular}`).toBeTruthy();
  return code!;
}

test('a new patient registers a phone, verifies the SMS code, chooses a PIN and reaches the welcome step', async ({
  page,
}) => {
  const celular = uniqueCelular();
  await page.goto('/onboarding');
  await expectNoAxeViolations(page);

  // An invalid phone is refused before any call.
  await expect(page.getByText('Paso 1 de 8', { exact: true })).toBeVisible();
  await phoneField(page).fill('12345');
  await page.getByRole('button', { name: copy.registration.submit, exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(onboardingErrors.phoneInvalidSubmit);
  await expect(page.getByText(onboardingErrors.phoneInvalid, { exact: true })).toBeVisible();
  // The focus goes to the field to fix, never to <body>; fixing it takes the banner away.
  await expect(phoneField(page)).toBeFocused();
  await expect(phoneField(page)).toHaveAttribute('aria-invalid', 'true');
  await phoneField(page).fill(celular.slice(1));
  await expect(page.getByRole('alert')).toHaveCount(0);
  const email = page.getByLabel(copy.registration.emailLabel, { exact: true });
  await email.fill('maria@');
  await page.getByRole('button', { name: copy.registration.submit, exact: true }).click();
  await expect(email).toBeFocused();
  await expect(email).toHaveAccessibleDescription(onboardingErrors.emailInvalid);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await register(page, celular);
  await expect(heading(page, copy.verification.title)).toBeFocused();
  await expect(page.getByText('Paso 2 de 8', { exact: true })).toBeVisible();
  await expect(
    page.getByText(
      copy.verification.intro(`${celular.slice(0, 4)} ${celular.slice(4, 7)} ${celular.slice(7)}`),
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  const code = await codeFromOutbox(page, celular);

  // A wrong code: the spec's message (spelling fixed) under the field, the field cleared, focused.
  const wrong = code === '000000' ? '111111' : '000000';
  await codeField(page).fill(wrong);
  await expect(page.getByRole('alert')).toHaveText(otpErrors.wrongCode);
  expect(otpErrors.wrongCode).toBe(
    'El código ingresado es incorrecto o ya venció. Por favor, volvé a ingresar el código o solicitá el reenvío.',
  );
  await expect(codeField(page)).toHaveValue('');
  await expect(codeField(page)).toBeFocused();

  // The right code validates by itself at the 6th digit.
  await codeField(page).fill(code);
  await expect(heading(page, copy.pinCreation.title)).toBeFocused();
  await expectNoAxeViolations(page);

  expect(copy.pinCreation.title).toBe('Creá tu propio PIN');
  await expect(page.getByText('Paso 3 de 8', { exact: true })).toBeVisible();
  const pin = page.getByLabel(copy.pinCreation.pinLabel, { exact: true });
  const validar = page.getByRole('button', { name: copy.pinCreation.submit, exact: true });
  const terms = page.getByRole('checkbox', { name: /Acepto los términos y condiciones/ });
  // Disabled, and beside it (its description too) what is missing.
  await expect(validar).toBeDisabled();
  await expect(validar).toHaveAccessibleDescription(copy.pinCreation.missing.pinAndTerms);
  await pin.fill('123456');
  await expect(validar).toBeDisabled();
  await expect(page.getByText('Aceptá los términos para continuar.')).toBeVisible();
  await expect(validar).toHaveAccessibleDescription(copy.pinCreation.missing.terms);
  await terms.check();
  await expect(validar).not.toHaveAccessibleDescription(copy.pinCreation.missing.terms);
  await validar.click();
  await expect(pin).toHaveAccessibleDescription(onboardingErrors.pinInvalid);
  await expect(pin).toBeFocused();
  await page.getByRole('button', { name: 'Mostrar PIN' }).click();
  await expect(pin).toHaveAttribute('type', 'text');
  await expectNoAxeViolations(page);

  const tyc = page.getByRole('link', { name: /términos y condiciones/ });
  await expect(tyc).toHaveAttribute('target', '_blank');
  await expect(tyc).toHaveAttribute('href', '/tyc');

  await pin.fill('482915');
  await expect(page.getByText(onboardingErrors.pinInvalid)).toHaveCount(0);
  await validar.click();
  await expect(heading(page, copy.welcome.title)).toBeFocused();
  expect(copy.welcome.title).toBe('¡Un par de fotos y ya!');
  await expect(page.getByText('Paso 4 de 8', { exact: true })).toBeVisible();
  for (const tip of copy.welcome.tips)
    await expect(page.getByText(tip, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: copy.welcome.next, exact: true })).toBeEnabled();
  await expectNoAxeViolations(page);

  // 'Cancelar' goes home.
  await page.getByRole('button', { name: copy.cancel, exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: landing.register })).toBeVisible();
});

test("step 4's code is its own chunk, preloaded on the welcome; when it cannot be downloaded the step says so and 'Reintentar' loads it", async ({
  page,
}) => {
  // The KYC chunk (machine and screens) and its entry files (vite.config.ts groups them).
  const kycChunk = /\/assets\/(?:kyc|kyc\.machine|KycScreen)-[\w-]+\.js$/;
  const requested: string[] = [];
  page.on('request', (r) => {
    if (kycChunk.test(new URL(r.url()).pathname)) requested.push(r.url());
  });
  // Offline for that chunk only: the wizard's preload and step 4's load both fail.
  await page.route(kycChunk, (route) => route.abort('internetdisconnected'));

  const celular = uniqueCelular();
  await register(page, celular);
  await expect(heading(page, copy.verification.title)).toBeFocused();
  await codeField(page).fill(await codeFromOutbox(page, celular));
  await expect(heading(page, copy.pinCreation.title)).toBeFocused();
  expect(requested, 'steps 0-2 never ask for the KYC chunk').toEqual([]);
  await page.getByLabel(copy.pinCreation.pinLabel, { exact: true }).fill('482915');
  await page.getByRole('checkbox', { name: /Acepto los términos y condiciones/ }).check();
  await page.getByRole('button', { name: copy.pinCreation.submit, exact: true }).click();
  await expect(heading(page, copy.welcome.title)).toBeFocused();
  await expect.poll(() => requested.length, 'the welcome preloads step 4').toBeGreaterThan(0);
  // The failed preload is not shown on the welcome.
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByRole('button', { name: copy.welcome.next, exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(onboardingErrors.kycLoadFailed);
  await expect(heading(page, copy.identity.title)).toBeVisible();
  await expectNoAxeViolations(page);

  // Back online: 'Reintentar' downloads step 4 and the selfie shows (no reload, nothing lost).
  await page.unroute(kycChunk);
  await page.getByRole('button', { name: copy.retry, exact: true }).click();
  await expect(heading(page, kyc.selfie.title)).toBeVisible({ timeout: 30_000 });
});

test('the code can be sent again only when the 30 s countdown reaches 0', async ({ page }) => {
  await page.clock.install();
  const celular = uniqueCelular();
  await register(page, celular);
  await expect(heading(page, copy.verification.title)).toBeVisible();
  const resend = page.getByRole('button', { name: copy.verification.resend, exact: true });
  // The code step's own live region (the wizard's progress is another one).
  const live = page.locator('[aria-live="polite"]:not([data-testid])');

  const left = await pauseCountdown(page);
  expect(left).toBeGreaterThan(10);
  await expect(live).toHaveText(copy.verification.announceWait(30));
  await expect(resend).toHaveCount(0);

  await page.clock.runFor((left - 10) * 1000);
  await expect(page.getByText(copy.verification.countdown(10), { exact: true })).toBeVisible();
  await expect(live).toHaveText(copy.verification.announceWait(10));
  await page.clock.runFor(9_000);
  await expect(page.getByText(copy.verification.countdown(1), { exact: true })).toBeVisible();
  await expect(resend).toHaveCount(0);

  await page.clock.runFor(1_000);
  await expect(resend).toBeEnabled();
  await expect(live).toHaveText(copy.verification.announceAvailable);

  // Only the browser's clock ran: the server, which enforces the same 30 s in real time, still
  // refuses, and the patient sees why.
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/onboarding/resend-otp'));
  await resend.click();
  expect((await answer).status()).toBe(429);
  // A wait, not a fault (issue 43 item 8).
  await expect(page.getByRole('alert')).toContainText(
    'Ya te enviamos un código. Podés pedir otro en',
  );
  await expect(resend).toBeEnabled();
});

test("an already registered phone gets 'El paciente ya existe' with links to /login and to PIN recovery", async ({
  page,
}) => {
  await register(page, DEMO.celular);
  await expect(heading(page, copy.patientExists.title)).toBeFocused();
  await expectNoAxeViolations(page);
  await expect(page.getByRole('link', { name: copy.goToLogin })).toHaveAttribute('href', '/login');
  await page.getByRole('link', { name: copy.forgotPin }).click();
  await expect(page).toHaveURL(/\/recuperar-pin$/);
});

test('the back arrow of the registration step goes home', async ({ page }) => {
  await page.goto('/onboarding');
  await expectHydrated(page);
  await page.getByRole('button', { name: copy.backHome }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: landing.register })).toBeVisible();
});
