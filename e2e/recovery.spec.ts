import type { Page } from '@playwright/test';
import { loginPaths } from '../contract/login';
import { login as loginCopy } from '../src/copy/es';
import { recovery as copy, recoveryErrors, recoveryOtpErrors } from '../src/copy/es.recovery';
import {
  expect,
  expectNoAxeViolations,
  loginViaApi,
  readSmsOutbox,
  test,
  uniqueCelular,
  uniqueDocumento,
} from './fixtures';
import { pauseCountdown } from './support/countdown';

// PIN recovery (/recuperar-pin) through the real build and the real API with its development SMS
// outbox (GET /api/dev/sms-outbox), see playwright.config.ts.

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Step 0 filled and sent: lands on step 1. */
async function requestCode(page: Page, documento: string, celular: string) {
  await expect(heading(page, copy.request.title)).toBeFocused();
  await page.getByLabel(copy.request.documentoLabel, { exact: true }).fill(documento);
  await page.getByLabel(copy.request.celularLabel, { exact: true }).fill(celular);
  await button(page, copy.request.submit).click();
  await expect(heading(page, copy.verification.title)).toBeVisible();
  // The code field has the focus (issue 43 item 9): digits typed at once go there.
  await expect(page.getByLabel(copy.verification.codeLabel, { exact: true })).toBeFocused();
}

/** The newest recovery code the outbox holds for a phone (the SMS leaves after the answer). */
async function codeFromOutbox(page: Page, celular: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const [newest] = await readSmsOutbox(page.request, celular);
      code = /para recuperar tu PIN es (\d{6})/.exec(newest?.body ?? '')?.[1];
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

const codeField = (page: Page) => page.getByLabel(copy.verification.codeLabel, { exact: true });

/** Steps 1 and 2 with the right code and a new PIN: lands on step 3. */
async function verifyAndSetPin(page: Page, celular: string, pin: string) {
  // The 6th digit validates, as in registration (issue 29 item 15).
  await codeField(page).fill(await codeFromOutbox(page, celular));
  await expect(heading(page, copy.newPin.title)).toBeFocused();
  await page.getByLabel(copy.newPin.pinLabel, { exact: true }).fill(pin);
  await button(page, copy.newPin.submit).click();
  await expect(heading(page, copy.done.title)).toBeFocused();
}

async function loginInBrowser(page: Page, documento: string, pin: string) {
  await page.goto('/login');
  await page.getByLabel(loginCopy.documentoLabel, { exact: true }).fill(documento);
  await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill(pin);
  await button(page, loginCopy.submit).click();
}

test("the whole recovery: from '¿Olvidaste tu PIN?' to logging in with the new PIN; the old one is refused", async ({
  page,
  seeded,
}) => {
  const patient = seeded('recovery');
  const newPin = '591736';
  await page.goto('/login');
  await page.getByRole('link', { name: loginCopy.forgotPin }).click();
  await expect(page).toHaveURL(/\/recuperar-pin$/);
  await expectNoAxeViolations(page);

  await requestCode(page, patient.documento, patient.celular);
  await expectNoAxeViolations(page);
  const validar = button(page, copy.verification.submit);
  await expect(validar).toBeDisabled();
  await codeField(page).fill('48291');
  await expect(validar).toBeDisabled();

  // After 'Enviar código': what to do when no SMS arrives (issue 29 item 15).
  await expect(page.getByRole('region', { name: copy.verification.noSms.title })).toContainText(
    copy.verification.noSms.registered,
  );
  const code = await codeFromOutbox(page, patient.celular);
  // The 6th digit validates, as in registration: no 'Validar código' press.
  await codeField(page).fill(code);
  await expect(heading(page, copy.newPin.title)).toBeFocused();
  await expectNoAxeViolations(page);

  // A banned PIN: the PIN-creation message under the field, which keeps the PIN and the focus.
  const pinField = page.getByLabel(copy.newPin.pinLabel, { exact: true });
  await expect(pinField).toHaveAttribute('type', 'password');
  await pinField.fill('123456');
  await button(page, copy.newPin.submit).click();
  await expect(pinField).toHaveAccessibleDescription(
    'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.',
  );
  await expect(pinField).toBeFocused();
  await expect(pinField).toHaveValue('123456');
  // The show/hide button shows what was typed.
  await button(page, 'Mostrar PIN').click();
  await expect(pinField).toHaveAttribute('type', 'text');
  await expectNoAxeViolations(page);
  await pinField.fill(newPin);
  await button(page, copy.newPin.submit).click();
  await expect(heading(page, copy.done.title)).toBeFocused();
  await expectNoAxeViolations(page);

  // The SMS notice, without the PIN.
  const [notice] = await readSmsOutbox(page.request, patient.celular);
  expect(notice?.body).toMatch(/el PIN de tu cuenta se cambió/);
  expect(notice?.body).not.toContain(newPin);

  await page.getByRole('link', { name: copy.done.toLogin }).click();
  await expect(page).toHaveURL(/\/login$/);
  await loginInBrowser(page, patient.documento, patient.pin);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await loginInBrowser(page, patient.documento, newPin);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a new PIN made from the patient's birth date or document number is refused, by the browser and by the server", async ({
  page,
  seeded,
}) => {
  const patient = seeded('recoveryOwnData');
  await page.goto('/recuperar-pin');
  await requestCode(page, patient.documento, patient.celular);
  await codeField(page).fill(await codeFromOutbox(page, patient.celular));
  await expect(heading(page, copy.newPin.title)).toBeFocused();
  const pinField = page.getByLabel(copy.newPin.pinLabel, { exact: true });
  const save = button(page, copy.newPin.submit);

  // 6 digits in a row of the document number (90000034): refused before any call.
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/set-new-pin')) calls += 1;
  });
  await pinField.fill(patient.documento.slice(2, 8));
  await save.click();
  await expect(pinField).toHaveAccessibleDescription(recoveryErrors.pinFromOwnData);
  await expect(pinField).toBeFocused();
  expect(calls).toBe(0);

  // The birth date (14/03/1987) only the server knows: DDMMYY, YYMMDD, DDMMYYYY cut to 6.
  for (const pin of ['140387', '870314', '140319']) {
    await pinField.fill(pin);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/set-new-pin'));
    await save.click();
    expect((await answer).status()).toBe(400);
    await expect(pinField).toHaveAccessibleDescription(recoveryErrors.pinFromOwnData);
    await expect(pinField).toBeFocused();
  }
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The grant is kept: a PIN of its own is saved.
  await pinField.fill('583016');
  await save.click();
  await expect(heading(page, copy.done.title)).toBeFocused();
  await loginInBrowser(page, patient.documento, '583016');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('step 0 marks each wrong field under it, no banner, and the focus goes to the first to fix', async ({
  page,
}) => {
  await page.goto('/recuperar-pin');
  await expect(heading(page, copy.request.title)).toBeFocused();
  const documento = page.getByLabel(copy.request.documentoLabel, { exact: true });
  const celular = page.getByLabel(copy.request.celularLabel, { exact: true });
  const submit = button(page, copy.request.submit);
  await expect(submit).toBeDisabled();
  await expect(page.getByText(copy.missing.documentoAndCelular)).toBeVisible();
  await documento.fill('123');
  await celular.fill('0211234');
  await submit.click();
  await expect(documento).toBeFocused();
  await expect(documento).toHaveAttribute('aria-invalid', 'true');
  await expect(celular).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(recoveryErrors.documentoInvalid)).toBeVisible();
  await expect(page.getByText(recoveryErrors.celularInvalid)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await documento.fill(uniqueDocumento());
  await expect(page.getByText(recoveryErrors.documentoInvalid)).toHaveCount(0);
  await submit.click();
  await expect(celular).toBeFocused();
});

test('a locked account is opened by recovery', async ({ page, seeded }) => {
  const patient = seeded('recoveryLocked');
  // Nine wrong PINs answer 401; the 10th locks the account and answers as locked (issue 29 item 9).
  for (let i = 0; i < 10; i++) {
    const res = await page.request.post(loginPaths.login, {
      data: { numero_documento: patient.documento, pin: '000111' },
    });
    expect(res.status()).toBe(i < 9 ? 401 : 429);
  }
  const locked = await page.request.post(loginPaths.login, {
    data: { numero_documento: patient.documento, pin: patient.pin },
  });
  expect(locked.status()).toBe(429);

  await page.goto('/recuperar-pin');
  await requestCode(page, patient.documento, patient.celular);
  await verifyAndSetPin(page, patient.celular, '630482');
  await loginInBrowser(page, patient.documento, '630482');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an old session ends when the PIN is recovered elsewhere', async ({
  page,
  browser,
  seeded,
}) => {
  const patient = seeded('recoverySession');
  await loginViaApi(page, patient);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);

  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const phone = await other.newPage();
  await phone.goto('/recuperar-pin');
  await requestCode(phone, patient.documento, patient.celular);
  await verifyAndSetPin(phone, patient.celular, '274915');
  await other.close();

  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
});

test('back arrows: steps 0 and 2 go to /login, step 1 back to step 0 with what was typed', async ({
  page,
}) => {
  const documento = uniqueDocumento();
  const celular = uniqueCelular();
  await page.goto('/recuperar-pin');
  await page.getByRole('link', { name: copy.backToLogin }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/recuperar-pin');
  await requestCode(page, documento, celular);
  await button(page, copy.backToRequest).click();
  await expect(heading(page, copy.request.title)).toBeFocused();
  await expect(page).toHaveURL(/\/recuperar-pin$/);
  await expect(page.getByLabel(copy.request.documentoLabel, { exact: true })).toHaveValue(
    documento,
  );
  await expect(page.getByLabel(copy.request.celularLabel, { exact: true })).toHaveValue(celular);
});

test("step 2's back arrow goes to /login", async ({ page, seeded }) => {
  const patient = seeded('recoveryBack');
  await page.goto('/recuperar-pin');
  await requestCode(page, patient.documento, patient.celular);
  await codeField(page).fill(await codeFromOutbox(page, patient.celular));
  await expect(heading(page, copy.newPin.title)).toBeFocused();
  await page.getByRole('link', { name: copy.backToLogin }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown document reaches step 1 like a real one; any code is refused there', async ({
  page,
}) => {
  await page.goto('/recuperar-pin');
  await requestCode(page, uniqueDocumento(), uniqueCelular());
  await codeField(page).fill('482915');
  await expect(page.getByRole('alert')).toHaveText(recoveryOtpErrors.wrongCode);
  await expect(codeField(page)).toHaveValue('');
  // The message is the field's own; the focus is back in it, not on <body>.
  await expect(codeField(page)).toBeFocused();
  await expect(codeField(page)).toHaveAccessibleDescription(recoveryOtpErrors.wrongCode);
  await expectNoAxeViolations(page);
});

test('resend only at 0 of the countdown; the server keeps its own 30 s', async ({ page }) => {
  await page.clock.install();
  await page.goto('/recuperar-pin');
  await requestCode(page, uniqueDocumento(), uniqueCelular());
  const resend = button(page, copy.verification.resend);
  const left = await pauseCountdown(page);
  expect(left).toBeGreaterThan(2);
  const shown = (n: number) => page.getByText(copy.verification.countdown(n), { exact: true });
  await expect(resend).toHaveCount(0);
  await page.clock.runFor((left - 2) * 1000);
  await expect(shown(2).or(shown(1))).toBeVisible();
  await expect(resend).toHaveCount(0);
  await page.clock.runFor(2_000);
  await expect(resend).toBeEnabled();

  // Only the browser's clock ran: the server, which enforces the same 30 s in real time, refuses.
  await codeField(page).fill('123');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/send-pin-otp'));
  await resend.click();
  expect((await answer).status()).toBe(429);
  // A wait, not a fault (issue 43 item 8).
  await expect(page.getByRole('alert')).toContainText(
    'ya te enviamos un código. Podés pedir otro en',
  );
  await expect(codeField(page)).toHaveValue('123');
  await expect(resend).toBeEnabled();
});
