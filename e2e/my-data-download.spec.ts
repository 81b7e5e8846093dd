import { readFile } from 'node:fs/promises';
import AdmZip from 'adm-zip';
import { myData as copy } from '../src/copy/es.myData';
import { myDataDownload, secondaryUse } from '../src/copy/es.myDataDownload';
import { expect, expectNoAxeViolations, loginViaApi, test } from './fixtures';

// 'Descargar mis datos' and 'Otros usos de mis datos' (issue 45 items 2 and 7) through the real
// build and API: the file downloaded in Chromium holds this patient and no one else; the opt-out
// is kept after a reload.

test.describe('Mis datos: download and secondary uses', () => {
  test('downloads one file with their name and cédula and no one else’s; the opt-out is kept', async ({
    page,
    seeded,
  }) => {
    const patient = seeded('myDataDownload');
    const other = seeded('myData');
    await loginViaApi(page, patient);
    await page.goto('/mis-datos');
    await page.getByRole('button', { name: copy.sections.download }).click();
    await page.getByRole('button', { name: myDataDownload.request }).click();
    const link = page.getByRole('link', { name: /^Descargar mis-datos-/ });
    await expect(link).toBeVisible();
    await expectNoAxeViolations(page);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^mis-datos-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = new AdmZip(await readFile((await download.path())!));
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['datos.json', 'resumen.html']);
    const data = zip.readAsText('datos.json');
    const summary = zip.readAsText('resumen.html');
    for (const text of [data, summary]) {
      expect(text).toContain(`${patient.nombre} ${patient.apellido}`);
      expect(text).toContain(patient.documento);
      expect(text).not.toContain(other.documento);
      expect(text).not.toContain(other.apellido);
    }

    await page.getByRole('button', { name: copy.sections.secondaryUse }).click();
    await expect(page.getByText(secondaryUse.statistics)).toBeVisible();
    const choice = page.getByRole('checkbox', { name: secondaryUse.choice });
    await expect(choice).not.toBeChecked();
    await choice.check();
    await expect(page.getByText(secondaryUse.saved)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.reload();
    await page.getByRole('button', { name: copy.sections.secondaryUse }).click();
    await expect(page.getByRole('checkbox', { name: secondaryUse.choice })).toBeChecked();
    await expect(
      page.getByText(/^Elegiste que tus datos se usen solo para tu atención/),
    ).toBeVisible();

    // 'Quién vio mis datos' lists the download and the choice.
    await page.getByRole('button', { name: copy.sections.accesses }).click();
    const list = page.getByRole('list', { name: copy.accessesLabel });
    await expect(list.getByText(copy.kinds.download)).toHaveCount(1);
    await expect(list.getByText(copy.kinds.secondary_use)).toHaveCount(1);
  });
});
