import { operatorPaths } from '../contract/operators';
import { myData as copy } from '../src/copy/es.myData';
import { myDataCorrect as correct } from '../src/copy/es.myData.correct';
import { caseCopy, operadorTerms } from '../src/copy/es.operators';
import { expect, expectNoAxeViolations, loginViaApi, test } from './fixtures';
import {
  addOperator,
  enrolAndLogIn,
  operatorDesk,
  takeNext,
  uniqueUsuario,
} from './support/operators';

// 'Corregir' in Mis datos (issue 45 item 5) through the real build, API and back office: a patient
// asks that their marital status be corrected, a reviser approves it, and the patient sees the new
// value 'Corregido por una persona del servicio'.

test('a correction request: asked, approved by a reviser, corrected in Mis datos', async ({
  page,
  browser,
  seeded,
}) => {
  const patient = seeded('myDataCorrect');
  await loginViaApi(page, patient);
  await page.goto('/mis-datos');
  await page.getByRole('button', { name: copy.sections.corrections }).click();
  await expect(page.getByText(correct.none)).toBeVisible();
  await page.getByRole('button', { name: correct.start }).click();
  await page.getByRole('button', { name: new RegExp(`^${copy.fields.MaritalStatus}`) }).click();
  await page.getByLabel(correct.value).selectOption('CASADA');
  await page.getByLabel(correct.reason).fill('Me casé en marzo de 2025');
  await page.getByRole('button', { name: correct.send }).click();
  await expect(page.getByRole('heading', { name: correct.sentTitle })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: correct.backToList }).click();
  const requests = page.getByRole('list', { name: correct.listLabel });
  await expect(requests.getByRole('listitem')).toHaveText([
    new RegExp(correct.stateOf(copy.fields.MaritalStatus, correct.states.pending)),
  ]);

  // A reviser of the back office takes it from the queue and approves it (one approval: not the
  // name or the number).
  const desk = await operatorDesk(browser);
  await enrolAndLogIn(
    desk.page,
    addOperator(uniqueUsuario('revisor'), 'Clara Revisora', 'revisor').link,
    'Clara Revisora',
  );
  // The e2e server is shared: another spec's review case may wait in the queue for its own
  // operator a moment. Take the next only once this request is the oldest waiting, so this reviser
  // never holds another spec's case.
  await expect
    .poll(
      async () =>
        (await (await desk.page.request.get(operatorPaths.queue)).json()).cases?.[0]?.kind,
      { timeout: 60_000 },
    )
    .toBe('correction');
  await takeNext(desk.page);
  await expect(
    desk.page.getByRole('heading', { name: caseCopy.title(operadorTerms.kinds.correction) }),
  ).toBeVisible();
  await desk.page.getByRole('button', { name: caseCopy.approve, exact: true }).click();
  await desk.page
    .getByRole('button', { name: caseCopy.approveConfirm.confirm, exact: true })
    .click();
  await expect(desk.page.getByText(caseCopy.correctionOutcomes.approved)).toBeVisible({
    timeout: 30_000,
  });
  await desk.context.close();

  // The patient sees the corrected value, and who wrote it.
  await page.reload();
  const field = page.locator(`dt:text-is("${copy.fields.MaritalStatus}") + dd`);
  await expect(field).toContainText('CASADA');
  await expect(field).toContainText(copy.sources.person);
  await page.getByRole('button', { name: copy.sections.corrections }).click();
  await expect(requests.getByRole('listitem')).toHaveText([
    new RegExp(correct.stateOf(copy.fields.MaritalStatus, correct.states.approved)),
  ]);

  // The reviser's look at the case is in 'Quién vio mis datos' (issue 45 item 3), with the role only.
  await page.getByRole('button', { name: copy.sections.accesses }).click();
  const looks = page
    .getByRole('list', { name: copy.accessesLabel })
    .getByRole('listitem')
    .filter({ hasText: copy.kinds.case_view });
  await expect(looks.first()).toContainText(copy.role(copy.roles.revisor));
  await expect(looks.first()).not.toContainText('Clara Revisora');
});
