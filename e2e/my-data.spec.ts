import { dashboard } from '../src/copy/es';
import { myData as copy } from '../src/copy/es.myData';
import { expect, expectNoAxeViolations, loginViaApi, test } from './fixtures';

// 'Mis datos' (issue 45 items 1 and 3) through the real build and API.

test.describe('Mis datos', () => {
  test('a patient opens Mis datos from the dashboard, sees their data, then who looked', async ({
    page,
    seeded,
  }) => {
    const patient = seeded('myData');
    // A wrong PIN first: 'Quién vio mis datos' lists it as a failed attempt.
    const wrong = await page.request.post('/api/auth/login', {
      data: { numero_documento: patient.documento, pin: '000001' },
    });
    expect(wrong.status()).toBe(401);
    await loginViaApi(page, patient);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: dashboard.menuLabel }).click();
    await page.getByRole('menuitem', { name: dashboard.myData }).click();
    await expect(page).toHaveURL(/\/mis-datos$/);
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();

    const value = (label: string) => page.locator(`dt:text-is("${label}") + dd`);
    await expect(value(copy.fields.FullName)).toContainText(
      `${patient.nombre} ${patient.apellido}`,
    );
    await expect(value(copy.fields.DocumentNumber)).toContainText(patient.documento);
    await expect(value(copy.celular)).toHaveText(patient.celular);
    await expect(page.getByText(copy.faceNone)).toBeVisible();
    await expect(page.getByText(copy.evidenceNone)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: copy.sections.accesses }).click();
    const list = page.getByRole('list', { name: copy.accessesLabel });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect(list.getByRole('listitem').nth(0)).toContainText(copy.kinds.my_data);
    await expect(list.getByRole('listitem').nth(1)).toContainText(copy.kinds.login);
    await expect(list.getByRole('listitem').nth(2)).toContainText(copy.failedAttempt);
    await expectNoAxeViolations(page);
  });

  test('without a session, /mis-datos goes to /login and the API answers 401', async ({ page }) => {
    const res = await page.request.get('/api/mis-datos');
    expect(res.status()).toBe(401);
    await page.goto('/mis-datos');
    await expect(page).toHaveURL(/\/login$/);
  });
});
