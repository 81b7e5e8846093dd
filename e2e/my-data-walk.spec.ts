import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import AdmZip from 'adm-zip';
import { operatorPaths } from '../contract/operators';
import { messages } from '../server/http/messages';
import type { DownloadContent } from '../server/my-data/download-content';
import { dashboard, login as loginCopy } from '../src/copy/es';
import { faceLogin as faceCopy } from '../src/copy/es.faceLogin';
import { myData as copy } from '../src/copy/es.myData';
import { myDataCorrect as correct } from '../src/copy/es.myData.correct';
import { myDataDeletion as deletion } from '../src/copy/es.myDataDeletion';
import { myDataDownload, secondaryUse } from '../src/copy/es.myDataDownload';
import { myFace as faceSection } from '../src/copy/es.myFace';
import { caseCopy, operadorTerms } from '../src/copy/es.operators';
import {
  e2eEnv,
  expect,
  expectNoAxeViolations,
  readSmsOutbox,
  SEED_PATIENTS,
  test as base,
} from './fixtures';
import { createPatientInBackground, type PatientSeed } from './patients';
import { cameraPageOf, kioskDecision, type CameraPage } from './support/camera-page';
import {
  addOperator,
  enrolAndLogIn,
  operatorDesk,
  takeNext,
  uniqueUsuario,
} from './support/operators';
import { withLiveFace } from './support/live-face';

// Issue 45's 'done when': ONE registered patient walks through every action of Mis datos, through
// the real build, API, back office, identity engine and deletion job: what is held; the download,
// opened and checked against the page; the secondary-use opt-out; a correction request, approved
// by a reviser whose look 'Quién vio mis datos' shows with the role only; the face locked and the
// kiosk refusing it (listed); the face withdrawn and the kiosk not finding it; the deletion asked,
// cancelled, asked again, done by the job, and login refused.
//
// The face is 'blink-h' (tests/fixtures/faces), which no other spec plays or enrols. Each kiosk
// visit plays a short video of its own seed (the server refuses frames replayed from another
// session), made while the walk does other things, and is closed at its first decision: two
// camera attempts in all.
//
// The deletion is asked and cancelled early (once Mis datos is seen), and asked again at the end:
// the second SMS code must wait the codes' resend wait (30 s per mobile), which the steps between
// use up (asked and cancelled at the end, the walk waited those 30 s).

const FACE = 'blink-h';
const photo = path.resolve('tests', 'fixtures', 'faces', `${FACE}-open.jpg`);
/** A kiosk visit decides within seconds of the camera opening; a shorter video is made faster. */
const KIOSK_VIDEO_SECONDS = 20;

/**
 * blink-h sits low in its photo: at the photo's own framing its chin is past the oval's region on
 * most frames ('too_close'), and a kiosk visit met a blink on a frame that passes the gates by
 * chance (CI failed on it). Raised 30 px, the first 10 s of the video pass the gates on every frame
 * but one (the zoom then makes the face too large: measured on the engine, seed 1).
 */
const test = base.extend<{ cameraPage: CameraPage }>({
  cameraPage: cameraPageOf(FACE, { raise: 30 }),
});

/**
 * A retry walks a patient of its own (documento and celular 10000 further on per retry, a range no
 * one else uses): the first try's deletion request, correction, locked face, SMS codes and looks
 * stay in the database, and the walk counts from none. In CI (2026-12-01) the first try failed at
 * the kiosk and both retries, on the same patient, failed at once ('No guardamos imágenes...' no
 * longer true). Left: a first try that failed before locking its face leaves blink-h active on its
 * patient, whom the retry's kiosk would then greet.
 */
function patientOfTry(seed: PatientSeed, retry: number): PatientSeed {
  const further = (digits: string, keep: number) =>
    digits.slice(0, keep) + String(Number(digits.slice(keep)) + retry * 10_000);
  return retry === 0
    ? seed
    : { ...seed, documento: further(seed.documento, 0), celular: further(seed.celular, 4) };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const value = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);
const accessList = (page: Page) => page.getByRole('list', { name: copy.accessesLabel });

test('one patient through every action of Mis datos, from login to the deleted account', async ({
  page,
  cameraPage,
  seeded,
}) => {
  // Five specs' journeys in one, two of them with a live camera and the deletion's 18 s wait
  // (playwright.config.ts): about 1.5 min on a loaded machine, against the 60 s default; and each
  // live camera waits for the other worker's live face (e2e/support/live-face.ts: a health
  // centre's desk holds it for a minute and more): 139 s in CI on 2026-12-01.
  test.setTimeout(400_000);
  const patient = patientOfTry(seeded('myDataWalk'), test.info().retry);
  const fullName = `${patient.nombre} ${patient.apellido}`;
  const other = SEED_PATIENTS.operator;
  const login = () =>
    page.request.post('/api/auth/login', {
      data: { numero_documento: patient.documento, pin: patient.pin },
    });

  await test.step('log in, a wrong PIN first', async () => {
    // The face is enrolled by the operator command (it loads the identity engine) meanwhile.
    // (The command loads the face models: not beside the other worker's live face.)
    const enrolled = withLiveFace(() =>
      createPatientInBackground(patient, e2eEnv.dataDir, { foto: photo }),
    );
    enrolled.catch(() => {}); // awaited below; a failure before then must not end the worker
    // A retry's patient is created by this command: it must exist before its first login.
    if (test.info().retry > 0) await enrolled;
    await page.goto('/login');
    await page.getByLabel(loginCopy.documentoLabel, { exact: true }).fill(patient.documento);
    await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill('000001');
    await button(page, loginCopy.submit).click();
    await expect(page.getByRole('alert')).toHaveText(messages.loginBadCredentials);
    await page.getByLabel(loginCopy.pinLabel, { exact: true }).fill(patient.pin);
    await button(page, loginCopy.submit).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect((await enrolled).face).toBe('enrolled');
  });

  // The kiosk's two videos are made meanwhile (seconds of CPU each), not when the kiosk opens.
  for (const seed of [1, 2]) void cameraPage.prepare(seed, KIOSK_VIDEO_SECONDS).catch(() => {});

  await test.step('Mis datos shows what is held, and who looked', async () => {
    await page.getByRole('button', { name: dashboard.menuLabel }).click();
    await page.getByRole('menuitem', { name: dashboard.myData }).click();
    await expect(page).toHaveURL(/\/mis-datos$/);
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
    await expect(value(page, copy.fields.FullName)).toContainText(fullName);
    await expect(value(page, copy.fields.DocumentNumber)).toContainText(patient.documento);
    await expect(value(page, copy.celular)).toHaveText(patient.celular);
    await expect(page.getByText(/^Tu rostro está registrado desde el /)).toBeVisible();
    await expect(page.getByText(copy.evidenceNone)).toBeVisible();
    await expectNoAxeViolations(page);

    await button(page, copy.sections.accesses).click();
    await expect(accessList(page).getByRole('listitem')).toHaveCount(3);
    const items = accessList(page).getByRole('listitem');
    await expect(items.nth(0)).toContainText(copy.kinds.my_data);
    await expect(items.nth(1)).toContainText(copy.kinds.login);
    await expect(items.nth(1)).not.toContainText(copy.failedAttempt);
    await expect(items.nth(2)).toContainText(copy.kinds.login);
    await expect(items.nth(2)).toContainText(copy.failedAttempt);
    await expectNoAxeViolations(page);
  });

  const deletionCodes = async () =>
    (await readSmsOutbox(page.request, patient.celular))
      .map((sms) => /para eliminar tu cuenta es (\d{6})/.exec(sms.body)?.[1])
      .filter(Boolean);

  await test.step('asks to delete the account (PIN, SMS code): pending; cancels', async () => {
    await button(page, copy.sections.deletion).click();
    // The page says what goes, what stays by law, and that the clinical record is the ministry's.
    await expect(page.getByRole('heading', { name: deletion.keptTitle })).toBeVisible();
    await expect(page.getByText(deletion.kept)).toBeVisible();
    await expect(page.getByText(deletion.clinical)).toBeVisible();
    await expect(page.getByText(deletion.wait(0.005))).toBeVisible();
    await expectNoAxeViolations(page);
    await button(page, deletion.start).click();
    await page.getByLabel(deletion.pinLabel).fill(patient.pin);
    await button(page, deletion.sendCode).click();
    await expect(page.getByRole('heading', { name: deletion.codeTitle })).toBeVisible();
    const [code] = await deletionCodes();
    expect(code, 'the deletion code in the outbox').toBeTruthy();
    await page.getByLabel(deletion.codeLabel).fill(code!);
    await button(page, deletion.confirm).click();
    await expect(page.getByRole('heading', { name: deletion.pendingTitle })).toBeVisible();
    await expect(page.getByText(/Tu cuenta se eliminará el/)).toBeVisible();
    await expectNoAxeViolations(page);
    await button(page, deletion.cancel).click();
    await expect(page.getByRole('heading', { name: deletion.cancelledTitle })).toBeVisible();
  });

  await test.step('the download: one file, its data as the page shows it', async () => {
    // 'Quién vio' as the page shows it now (loaded with the page).
    await page.reload();
    await button(page, copy.sections.accesses).click();
    await expect(accessList(page).getByText(copy.kinds.deletion_request)).toHaveCount(1);
    await expect(accessList(page).getByText(copy.kinds.deletion_cancel)).toHaveCount(1);
    const shownAccesses = await accessList(page).getByRole('listitem').allTextContents();
    await button(page, copy.sections.download).click();
    await button(page, myDataDownload.request).click();
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
    const text = zip.readAsText('datos.json');
    const summary = zip.readAsText('resumen.html');
    const file = JSON.parse(text) as DownloadContent;

    // Every identity field as the page shows it (the value and who wrote it), in the file and in
    // its summary; the mobile and the face too.
    await button(page, copy.sections.data).click();
    expect(file.data.identity).toHaveLength(Object.keys(copy.fields).length);
    for (const { field, value: held, source } of file.data.identity) {
      await expect(value(page, copy.fields[field])).toHaveText(
        `${held ?? copy.empty}${copy.sources[source]}`,
      );
      if (held) expect(summary).toContain(held);
    }
    expect(file.data.celular).toBe(patient.celular);
    expect(file.data.face.enrolled).toBe(true);
    // 'Quién vio' in the file is the list the page showed (and the download itself, built now).
    const listed = file.accesses.filter((a) => a.kind !== 'download');
    expect(listed).toHaveLength(shownAccesses.length);
    listed.forEach((access, i) => {
      expect(shownAccesses[i]).toContain(copy.kinds[access.kind]);
      expect(shownAccesses[i]!.includes(copy.failedAttempt)).toBe(access.result === 'failed');
      expect(summary).toContain(copy.kinds[access.kind]);
    });
    for (const content of [text, summary]) {
      expect(content).toContain(fullName);
      expect(content).toContain(patient.documento);
      expect(content).toContain(patient.celular);
      expect(content).not.toContain(other.documento);
      expect(content).not.toContain(other.apellido);
    }
  });

  await test.step('opts out of other uses of their data; kept after a reload', async () => {
    await button(page, copy.sections.secondaryUse).click();
    await expect(page.getByText(secondaryUse.statistics)).toBeVisible();
    const choice = page.getByRole('checkbox', { name: secondaryUse.choice });
    await expect(choice).not.toBeChecked();
    await choice.check();
    await expect(page.getByText(secondaryUse.saved)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.reload();
    await button(page, copy.sections.secondaryUse).click();
    await expect(page.getByRole('checkbox', { name: secondaryUse.choice })).toBeChecked();
    await expect(
      page.getByText(/^Elegiste que tus datos se usen solo para tu atención/),
    ).toBeVisible();
  });

  await test.step('asks that the marital status be corrected; sees it pending', async () => {
    await button(page, copy.sections.corrections).click();
    await expect(page.getByText(correct.none)).toBeVisible();
    await button(page, correct.start).click();
    await page.getByRole('button', { name: new RegExp(`^${copy.fields.MaritalStatus}`) }).click();
    await page.getByLabel(correct.value).selectOption('CASADA');
    await page.getByLabel(correct.reason).fill('Me casé en marzo de 2025');
    await button(page, correct.send).click();
    await expect(page.getByRole('heading', { name: correct.sentTitle })).toBeVisible();
    await expectNoAxeViolations(page);
    await button(page, correct.backToList).click();
    await expect(
      page.getByRole('list', { name: correct.listLabel }).getByRole('listitem'),
    ).toHaveText([new RegExp(correct.stateOf(copy.fields.MaritalStatus, correct.states.pending))]);
  });

  await test.step("a reviser opens and approves it; 'Quién vio' shows the look, role only", async () => {
    const desk = await operatorDesk(page.context().browser()!);
    await enrolAndLogIn(
      desk.page,
      addOperator(uniqueUsuario('revisor'), 'Clara Revisora', 'revisor').link,
      'Clara Revisora',
    );
    // The e2e server is shared: another spec's review case may wait in the queue for its own
    // operator a moment. Take the next only once this request is the oldest waiting, so this
    // reviser never holds another spec's case.
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
    await button(desk.page, caseCopy.approve).click();
    await button(desk.page, caseCopy.approveConfirm.confirm).click();
    await expect(desk.page.getByText(caseCopy.correctionOutcomes.approved)).toBeVisible({
      timeout: 30_000,
    });
    await desk.context.close();

    await page.reload();
    const field = value(page, copy.fields.MaritalStatus);
    await expect(field).toContainText('CASADA');
    await expect(field).toContainText(copy.sources.person);
    await button(page, copy.sections.corrections).click();
    await expect(
      page.getByRole('list', { name: correct.listLabel }).getByRole('listitem'),
    ).toHaveText([new RegExp(correct.stateOf(copy.fields.MaritalStatus, correct.states.approved))]);
    await button(page, copy.sections.accesses).click();
    const looks = accessList(page).getByRole('listitem').filter({ hasText: copy.kinds.case_view });
    await expect(looks.first()).toContainText(copy.role(copy.roles.revisor));
    await expect(looks.first()).not.toContainText('Clara Revisora');
    await expect(accessList(page).getByText(copy.kinds.correction)).toHaveCount(1);
    await expect(accessList(page).getByText(copy.kinds.download)).toHaveCount(1);
    await expect(accessList(page).getByText(copy.kinds.secondary_use)).toHaveCount(1);
  });

  await test.step("Mi rostro locked: the kiosk refuses the face, and 'Quién vio' lists it", async () => {
    await button(page, copy.sections.face).click();
    await expect(page.getByText(faceSection.active)).toBeVisible();
    await expectNoAxeViolations(page);
    await button(page, faceSection.lock).click();
    await expect(page.getByText(/está bloqueado/)).toBeVisible();

    // Answered as for nobody: 'No reconocido', no greeting, no name.
    const said = await kioskDecision(cameraPage, 1, KIOSK_VIDEO_SECONDS);
    expect(said).toContain(faceCopy.notRecognised);
    expect(said).toContain(faceCopy.kiosk.moments.notRecognised);
    expect(said).not.toContain('¡Hola');

    await page.reload();
    await button(page, copy.sections.accesses).click();
    const refused = accessList(page).getByRole('listitem').filter({ hasText: copy.lockedAttempt });
    await expect(refused).toHaveCount(1);
    // No kiosk device is activated on the e2e server: the try is a face login's.
    await expect(refused).toContainText(copy.kinds.face_login);
    await expect(accessList(page).getByText(copy.kinds.face_lock)).toHaveCount(1);
  });

  await test.step('withdraws the face with the PIN: the kiosk does not find it', async () => {
    await button(page, copy.sections.face).click();
    await button(page, faceSection.withdraw).click();
    await page.getByLabel(faceSection.pinLabel).fill(patient.pin);
    await button(page, faceSection.withdrawSubmit).click();
    await expect(page.getByRole('heading', { name: faceSection.withdrawnTitle })).toBeVisible();
    await expect(page.getByText(faceSection.none, { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    const said = await kioskDecision(cameraPage, 2, KIOSK_VIDEO_SECONDS);
    expect(said).toContain(faceCopy.notRecognised);
    await page.reload(); // what is held says so too
    await expect(page.getByText(copy.faceNone)).toBeVisible();
  });

  await test.step('asks the deletion again; the job deletes the account; login refused', async () => {
    await button(page, copy.sections.deletion).click();
    await button(page, deletion.start).click();
    await page.getByLabel(deletion.pinLabel).fill(patient.pin);
    // The codes' resend wait (30 s per mobile, from the first code) is spent by now; on a slower
    // walk the page says when, and we try until then.
    const [first] = await deletionCodes();
    await expect(async () => {
      await button(page, deletion.sendCode).click();
      await expect(page.getByLabel(deletion.codeLabel)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    const [second] = await deletionCodes();
    expect(second).not.toBe(first);
    await page.getByLabel(deletion.codeLabel).fill(second!);
    await button(page, deletion.confirm).click();
    await expect(page.getByRole('heading', { name: deletion.pendingTitle })).toBeVisible();

    // During the wait the PIN still logs in (the face is gone, not the account); after it, the job
    // deletes the account and the login is refused exactly as for an unknown document.
    expect((await login()).status()).toBe(200);
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
    expect((await page.request.get('/api/mis-datos')).status()).toBe(401);
    await page.goto('/mis-datos');
    await expect(page).toHaveURL(/\/login$/);
  });
});
