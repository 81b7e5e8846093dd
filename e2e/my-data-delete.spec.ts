import { messages } from '../server/http/messages';
import { dashboard } from '../src/copy/es';
import { myData } from '../src/copy/es.myData';
import { myDataDeletion as copy } from '../src/copy/es.myDataDeletion';
import { expect, expectNoAxeViolations, loginViaApi, readSmsOutbox, test } from './fixtures';

// 'Eliminar mi cuenta' (issue 45 item 6) through the real build, API and job. The e2e server waits
// 18 s (MY_DATA_DELETION_WAIT_HOURS=0.005) and looks every second (playwright.config.ts).

test.describe('Eliminar mi cuenta', () => {
  test('ask, see it pending, cancel, ask again; the job deletes it, login refused, receipt by SMS', async ({
    page,
    seeded,
  }) => {
    test.setTimeout(150_000);
    const patient = seeded('myDataDelete');
    await loginViaApi(page, patient);
    const latestCode = async () => {
      // Newest first; the notice of a deletion asked comes after its code.
      const outbox = await readSmsOutbox(page.request, patient.celular);
      const code = outbox
        .map((sms) => /para eliminar tu cuenta es (\d{6})/.exec(sms.body)?.[1])
        .find(Boolean);
      if (!code) throw new Error('no deletion code in the outbox yet');
      return code;
    };

    await page.goto('/dashboard');
    await page.getByRole('button', { name: dashboard.menuLabel }).click();
    await page.getByRole('menuitem', { name: dashboard.myData }).click();
    await page.getByRole('button', { name: myData.sections.deletion }).click();
    // The page says what goes, what stays by law, and that the clinical record is the ministry's.
    await expect(page.getByRole('heading', { name: copy.keptTitle })).toBeVisible();
    await expect(page.getByText(copy.kept)).toBeVisible();
    await expect(page.getByText(copy.clinical)).toBeVisible();
    await expect(page.getByText(copy.wait(0.005))).toBeVisible();
    await expectNoAxeViolations(page);

    // Ask: PIN, then the SMS code.
    await page.getByRole('button', { name: copy.start }).click();
    await page.getByLabel(copy.pinLabel).fill(patient.pin);
    await page.getByRole('button', { name: copy.sendCode }).click();
    await expect(page.getByRole('heading', { name: copy.codeTitle })).toBeVisible();
    await page.getByLabel(copy.codeLabel).fill(await latestCode());
    await page.getByRole('button', { name: copy.confirm }).click();
    await expect(page.getByRole('heading', { name: copy.pendingTitle })).toBeVisible();
    await expect(page.getByText(/Tu cuenta se eliminará el/)).toBeVisible();
    await expectNoAxeViolations(page);

    // Cancel, then ask again (the codes' 30 s resend wait: the page says when, we try until then).
    await page.getByRole('button', { name: copy.cancel }).click();
    await expect(page.getByRole('heading', { name: copy.cancelledTitle })).toBeVisible();
    const first = await latestCode();
    await page.getByRole('button', { name: copy.askAgain }).click();
    await page.getByLabel(copy.pinLabel).fill(patient.pin);
    await expect(async () => {
      await page.getByRole('button', { name: copy.sendCode }).click();
      await expect(page.getByLabel(copy.codeLabel)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    const second = await latestCode();
    expect(second).not.toBe(first);
    await page.getByLabel(copy.codeLabel).fill(second);
    await page.getByRole('button', { name: copy.confirm }).click();
    await expect(page.getByRole('heading', { name: copy.pendingTitle })).toBeVisible();

    // During the wait the patient can still log in; after it, the job deletes the account and the
    // login is refused exactly as for an unknown document.
    const login = () =>
      page.request.post('/api/auth/login', {
        data: { numero_documento: patient.documento, pin: patient.pin },
      });
    await expect
      .poll(async () => (await login()).status(), { timeout: 60_000, intervals: [1_000] })
      .toBe(401);
    expect(await (await login()).json()).toEqual({
      success: false,
      message: messages.loginBadCredentials,
    });
    const outbox = await readSmsOutbox(page.request, patient.celular);
    expect(outbox.map((sms) => sms.body)).toEqual([
      'Tu cuenta del Portal del Paciente fue eliminada. Gracias por usar el servicio.',
    ]);
    await page.goto('/mis-datos');
    await expect(page).toHaveURL(/\/login$/);
  });
});
