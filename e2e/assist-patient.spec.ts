import { assistPaths } from '../machines/kyc/kyc.assist.api';
import { assist } from '../src/copy/es.assist';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, heading, kyc, PIN, test, toSelfie } from './support/kyc';

// Issue 30, the patient's side in Chromium: 'No puedo completar este paso' on the selfie, the
// offer, 'Verificar en un centro de salud', the code and the health centres. The case routes are
// the cases branch's: until it merges they are answered here (page.route), by contract/cases.ts;
// the request the browser sends is checked against the contract's fields.

test.describe.configure({ timeout: 240_000 });

test("a patient who cannot take the selfie: the offer, then a centre code and the department's centres", async ({
  page,
}) => {
  const opened: unknown[] = [];
  await page.route(assistPaths.openCase, async (route) => {
    opened.push(route.request().postDataJSON());
    await route.fulfill({
      json: {
        success: true,
        case: {
          kind: 'centro',
          status: 'open',
          trigger: 'patient_choice',
          openedAt: '2026-11-26T13:00:00.000Z',
          expectedBy: '2026-12-26T13:00:00.000Z',
          code: 'HK7MW3QA',
        },
      },
    });
  });
  await page.route(assistPaths.centres, (route) =>
    route.fulfill({
      json: [
        {
          departamento: 'Central',
          centros: [
            {
              nombre: 'Hospital Regional de Luque',
              direccion: 'Capitán Cristaldo y Sportivo Luqueño',
              ciudad: 'Luque',
              horario: 'Lunes a viernes, 7:00 a 15:00',
            },
          ],
        },
      ],
    }),
  );
  await toSelfie(page, PIN);
  await button(page, assist.action).click();
  await expect(heading(page, assist.offer.title)).toBeFocused();
  await expectNoAxeViolations(page);
  await button(page, assist.back).click();
  await expect(heading(page, kyc.selfie.title)).toBeFocused();
  await button(page, assist.action).click();
  await button(page, assist.centre).click();
  await expect(heading(page, assist.centreCase.title)).toBeFocused();
  expect(opened).toHaveLength(1);
  expect(opened[0]).toMatchObject({ kind: 'centro', trigger: 'patient_choice', step: 'selfie' });
  expect((opened[0] as { registrationToken: string }).registrationToken).toMatch(/^[\w-]{43}$/);
  await expect(page.getByLabel(assist.centreCase.codeLabel)).toHaveText('HK7M-W3QA');
  await expect(
    page.getByText(assist.centreCase.deadline('sábado, 26 de diciembre de 2026')),
  ).toBeVisible();
  await page.getByLabel(assist.centreCase.departmentLabel).selectOption('Central');
  const list = page.getByRole('list', { name: assist.centreCase.listLabel('Central') });
  await expect(list).toContainText('Hospital Regional de Luque');
  await expectNoAxeViolations(page);
});
