import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { identityPaths } from '../contract/identity';
import { login as loginCopy } from '../src/copy/es';
import { assist } from '../src/copy/es.assist';
import { kycErrors } from '../src/copy/es.kyc';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { caseCopy, operadorTerms } from '../src/copy/es.operators';
import { e2eEnv, expect, expectNoAxeViolations, uniqueCelular } from './fixtures';
import {
  button,
  cedulas,
  faces,
  heading,
  isPost,
  kyc,
  passSelfie,
  PIN,
  test,
  uploadDocuments,
} from './support/kyc';
import {
  addOperator,
  enrolAndLogIn,
  operatorDesk,
  takeNext,
  uniqueUsuario,
} from './support/operators';
import {
  choosePin,
  completeSupplementary,
  linkFromOutbox,
  proveMobile,
} from './support/registration';

// Issue 30, assisted verification, through the real build, API, identity engine and back office:
// (a) a card refused for faces that differ -> 'Que lo revise una persona' -> a reviser enrolled by
// the command's link (passkey on a virtual authenticator) approves, a supervisor approves second
// -> the patient follows the SMS link, finishes and logs in with the PIN chosen before; (c) a
// reviser asks for the front again -> the patient repeats only the front. Serial: the queue is
// shared, and 'Tomar el siguiente' takes its oldest case. Synthetic patients 7 and 8
// (e2e/support/kyc.ts), and the later tests' own below.

test.describe.configure({ mode: 'serial', timeout: 360_000 });
test.use({ selfieSeed: 7 });

/** Steps 0-3 for a new mobile, then the selfie passed; the mobile. */
async function toDocument(page: Page): Promise<string> {
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await choosePin(page, PIN);
  await button(page, copy.welcome.next).click();
  await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
  await passSelfie(page);
  return celular;
}

/** From the offer: 'Que lo revise una persona', and the waiting screen. */
async function askForAPerson(page: Page): Promise<void> {
  await button(page, assist.action).click();
  await expect(heading(page, assist.offer.title)).toBeFocused();
  await button(page, assist.review).click();
  await expect(heading(page, assist.waiting.title)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(assist.waiting.sms)).toBeVisible();
}

async function logIn(page: Page, documento: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(loginCopy.documentoLabel, { exact: true }).fill(documento);
  await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill(PIN);
  await button(page, loginCopy.submit).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}

/** 'Aprobar' and its confirmation; the outcome shown. */
async function approve(page: Page, outcome: string): Promise<void> {
  await page.getByRole('button', { name: caseCopy.approve, exact: true }).click();
  await page.getByRole('button', { name: caseCopy.approveConfirm.confirm, exact: true }).click();
  await expect(page.getByText(outcome)).toBeVisible({ timeout: 30_000 });
}

/**
 * An operator (a reviser unless said) created by the operator command and enrolled by its link,
 * holding the next case; with the username, which the report names.
 */
async function operatorWithNextCase(
  browser: Browser,
  nombre: string,
  rol: 'revisor' | 'supervisor' = 'revisor',
) {
  const usuario = uniqueUsuario(rol);
  const desk = await operatorDesk(browser);
  await enrolAndLogIn(desk.page, addOperator(usuario, nombre, rol).link, nombre);
  await takeNext(desk.page);
  return { ...desk, usuario };
}

/** Steps 0-4 with card-3, which carries another person's photo: refused, then a person asked. */
async function faceMismatchToAPerson(page: Page): Promise<string> {
  const celular = await toDocument(page);
  // card-3 (tests/fixtures/cedulas/manifest.json): 6.631.356, CASADO, another person's photo.
  await uploadDocuments(page, 'card-3');
  await expect(heading(page, kyc.rejected.title)).toBeFocused({ timeout: 120_000 });
  await expect(page.getByText(kycErrors.faceMismatch, { exact: true })).toBeVisible();
  await askForAPerson(page);
  return celular;
}

/** 'Pedir que repita' one step, confirmed; the outcome shown. */
async function askToRepeat(page: Page, step: keyof typeof operadorTerms.steps): Promise<void> {
  await page.getByRole('button', { name: caseCopy.repeat, exact: true }).click();
  await page.getByRole('radio', { name: operadorTerms.steps[step], exact: true }).check();
  await page.getByRole('button', { name: caseCopy.repeatForm.confirm, exact: true }).click();
  await expect(page.getByText(caseCopy.outcomes.repeat)).toBeVisible({ timeout: 30_000 });
}

/**
 * The decision's SMS link, then the one side a person asked for (its notice shown), sent alone:
 * the side the server kept goes with it, and the card is read (the review).
 */
async function retakeFromLink(
  page: Page,
  celular: string,
  side: 'front' | 'back',
  file: string,
): Promise<void> {
  const link = await linkFromOutbox(page, celular);
  await page.goto(link);
  const title = side === 'front' ? kyc.document.frontTitle : kyc.document.backTitle;
  await expect(heading(page, title)).toBeFocused({ timeout: 30_000 });
  await expect(page.getByText(assist.notices[side])).toBeVisible();
  await page.getByTestId(`upload-${side}`).setInputFiles(path.join(cedulas, 'templates', file));
  await button(page, kyc.document.accept).click();
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 120_000 });
}

/** The report's assisted path for today (npm run report -- --json, through the server's socket). */
function assistedReport(): {
  looks: Array<{ operator: string; views: number; images: number }>;
} {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Asuncion' }).format(
    new Date(),
  );
  const out = execFileSync(
    'npm',
    ['run', '-s', 'report', '--', '--desde', today, '--hasta', today, '--json'],
    {
      env: { ...process.env, DATA_DIR: e2eEnv.dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return (JSON.parse(out) as { assisted: ReturnType<typeof assistedReport> }).assisted;
}

test('(a) faces that differ: a person reviews, a supervisor approves second, the patient finishes from the SMS link and logs in with the PIN chosen before', async ({
  page,
  browser,
}) => {
  const celular = await faceMismatchToAPerson(page);
  await expectNoAxeViolations(page);

  // A reviser: created by the operator command, enrolled with a passkey, in again with it.
  const first = await operatorWithNextCase(browser, 'Rosa Revisora');
  await expect(first.page.getByText(operadorTerms.triggers.face_mismatch).first()).toBeVisible();
  await expect(
    first.page.getByRole('img', { name: operadorTerms.images.selfie, exact: true }),
  ).toBeVisible();
  await expect(
    first.page.getByRole('img', { name: operadorTerms.images.portrait, exact: true }),
  ).toBeVisible();
  await expectNoAxeViolations(first.page);
  await approve(first.page, caseCopy.outcomes.awaiting_supervisor);

  // Faces that differ need a second approval, by a supervisor.
  const second = await operatorWithNextCase(browser, 'Sara Supervisora', 'supervisor');
  await approve(second.page, caseCopy.outcomes.approved);

  // The SMS (no personal data) brings the patient back: the complementary data, then done.
  const link = await linkFromOutbox(page, celular);
  await page.goto(link);
  await expect(page.getByText(assist.notices.verified)).toBeVisible({ timeout: 30_000 });
  await completeSupplementary(page);
  await logIn(page, '6631356');

  // Every look and decision is on record: the report counts each operator's looks.
  const looks = assistedReport().looks;
  for (const usuario of [first.usuario, second.usuario]) {
    const mine = looks.find((l) => l.operator === usuario);
    expect(mine, usuario).toBeDefined();
    expect(mine!.views).toBeGreaterThanOrEqual(1);
    expect(mine!.images).toBeGreaterThanOrEqual(2);
  }
  await first.context.close();
  await second.context.close();
});

test.describe(() => {
  // The synthetic camera's own patient for (c): the server refuses frames (a)'s session sent.
  test.use({ selfieSeed: 8 });

  test('(c) a reviser asks for the front again: the patient repeats only the front, and registers', async ({
    page,
    browser,
  }) => {
    const celular = await toDocument(page);
    // A face photo as the front, with the right back of the 'clasica' card (4.265.872).
    await page.getByTestId('upload-front').setInputFiles(path.join(faces, 'person-12.jpg'));
    await button(page, kyc.document.accept).click();
    await expect(heading(page, kyc.document.backTitle)).toBeFocused();
    await page
      .getByTestId('upload-back')
      .setInputFiles(path.join(cedulas, 'templates', 'clasica-back.jpg'));
    const scan = page.waitForResponse(isPost(identityPaths.scanId), { timeout: 120_000 });
    await button(page, kyc.document.accept).click();
    // Refused (a face, no card): the patient asks for a person instead of trying again.
    expect((await (await scan).json()).success).toBe(false);
    await askForAPerson(page);

    const desk = await operatorWithNextCase(browser, 'Raúl Revisor');
    await askToRepeat(desk.page, 'front');

    // The SMS link: only the front, with the reason; the back the server kept goes with it.
    await retakeFromLink(page, celular, 'front', 'clasica-front.jpg');
    await button(page, kyc.review.confirm).click();
    await completeSupplementary(page);
    await logIn(page, '4265872');
    await desk.context.close();
  });
});

test.describe(() => {
  // Synthetic patients of their own (seeds 20 and 25: free in e2e/support/kyc.ts's list).
  test.use({ selfieSeed: 20 });

  test("(d) issue 43 item 1: the front uploaded, 'No puedo completar este paso' on the back, a person: the case has the front; asked for the back, the patient sends the back alone and the card is read", async ({
    page,
    browser,
  }) => {
    const celular = await toDocument(page);
    // 'numeroBajoFoto' (1.154.975): the synthetic patient's face on it.
    await page
      .getByTestId('upload-front')
      .setInputFiles(path.join(cedulas, 'templates', 'numeroBajoFoto-front.jpg'));
    await button(page, kyc.document.accept).click();
    await expect(heading(page, kyc.document.backTitle)).toBeFocused();
    // The front taken goes to the server before the case opens (nothing was sent until now).
    const kept = page.waitForResponse(isPost(identityPaths.scanId), { timeout: 120_000 });
    await askForAPerson(page);
    expect((await (await kept).json()).reason).toBe('back_missing');

    const desk = await operatorWithNextCase(browser, 'Diana Revisora');
    // The front the patient sent is on the case (it said 'Imagen no disponible' before).
    await expect(
      desk.page.getByRole('img', { name: operadorTerms.images.front, exact: true }),
    ).toBeVisible();
    await expect(
      desk.page.getByRole('img', { name: operadorTerms.images.portrait, exact: true }),
    ).toBeVisible();
    await askToRepeat(desk.page, 'back');

    // Back to the patient: only the back, the front the server kept goes with it: read, not
    // 'Falta la imagen'.
    await retakeFromLink(page, celular, 'back', 'numeroBajoFoto-back.jpg');
    await expect(page.getByText(/1\.?154\.?975/).first()).toBeVisible();
    await desk.context.close();
  });
});

test.describe(() => {
  test.use({ selfieSeed: 25 });

  test("(e) issue 43 item 2: faces that differ, 'Reintentar', leaving and resuming, then a person: the case has the earlier attempt's selfie, card and attempts", async ({
    page,
    browser,
  }) => {
    const celular = await toDocument(page);
    // card-3 carries another person's photo: refused for faces that differ.
    await uploadDocuments(page, 'card-3');
    await expect(heading(page, kyc.rejected.title)).toBeFocused({ timeout: 120_000 });
    await expect(page.getByText(kycErrors.faceMismatch, { exact: true })).toBeVisible();
    await button(page, kyc.rejected.retry).click();
    await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });

    // Leaving, and coming back by proving the mobile again: the selfie, then a person.
    await proveMobile(page, celular);
    await expect(heading(page, copy.welcome.title)).toBeVisible({ timeout: 30_000 });
    await button(page, copy.welcome.next).click();
    await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
    await askForAPerson(page);

    const desk = await operatorWithNextCase(browser, 'Elena Revisora');
    // The earlier attempt's evidence: its refusal, selfie, card, fields and attempts.
    await expect(desk.page.getByText(operadorTerms.triggers.face_mismatch).first()).toBeVisible();
    for (const image of ['selfie', 'portrait', 'front', 'back'] as const)
      await expect(
        desk.page.getByRole('img', { name: operadorTerms.images[image], exact: true }),
      ).toBeVisible();
    await expect(desk.page.getByText('Intentos: 0 de prueba de vida, 0')).toHaveCount(0);
    await expect(desk.page.getByText(/6631356|6\.631\.356/).first()).toBeVisible();
    // A remote review is never asked for a desk photo.
    await expect(desk.page.getByText(caseCopy.needsDeskPhoto)).toHaveCount(0);

    // Back to the patient: a person asks for the selfie again.
    await askToRepeat(desk.page, 'selfie');
    const link = await linkFromOutbox(page, celular);
    await page.goto(link);
    const welcome = heading(page, copy.welcome.title);
    const notice = page.getByText(assist.notices.selfie);
    await expect(welcome.or(notice)).toBeVisible({ timeout: 30_000 });
    if (await welcome.isVisible()) await button(page, copy.welcome.next).click();
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await desk.context.close();
  });
});

test.describe(() => {
  // The synthetic camera's own patient for (f).
  test.use({ selfieSeed: 26 });

  test('(f) issue 42: a correction after the first approval voids it: the supervisor who corrected gives a first approval again, and another supervisor the second', async ({
    page,
    browser,
  }) => {
    await faceMismatchToAPerson(page);

    const first = await operatorWithNextCase(browser, 'Inés Revisora');
    await expect(first.page.getByText(operadorTerms.triggers.face_mismatch).first()).toBeVisible();
    await approve(first.page, caseCopy.outcomes.awaiting_supervisor);
    await first.context.close();

    // A supervisor corrects the marital status (card-3 reads CASADO) after that approval...
    const second = await operatorWithNextCase(browser, 'Olga Supervisora', 'supervisor');
    await second.page
      .getByRole('button', {
        name: caseCopy.correctField(operadorTerms.fields.MaritalStatus),
        exact: true,
      })
      .click({ timeout: 30_000 });
    await second.page.getByLabel(caseCopy.correction.value, { exact: true }).selectOption('VIUDO');
    await second.page
      .getByLabel(caseCopy.correction.reason, { exact: true })
      .fill('La cédula física dice VIUDO');
    await second.page.getByRole('button', { name: caseCopy.correction.save, exact: true }).click();
    await expect(second.page.getByText('VIUDO', { exact: true }).first()).toBeVisible({
      timeout: 30_000,
    });
    // ...so the reviser's approval no longer stands: this one is a first approval, not the second.
    await approve(second.page, caseCopy.outcomes.awaiting_supervisor);
    await second.context.close();

    // Another supervisor approves the same version: the case is approved.
    const third = await operatorWithNextCase(browser, 'Paula Supervisora', 'supervisor');
    await expect(third.page.getByText('VIUDO', { exact: true }).first()).toBeVisible();
    await approve(third.page, caseCopy.outcomes.approved);
    await third.context.close();
  });
});
