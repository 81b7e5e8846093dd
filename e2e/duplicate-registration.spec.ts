import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { caseCopy, operadorTerms, queueCopy } from '../src/copy/es.operators';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { assist } from '../src/copy/es.assist';
import { expect, expectNoAxeViolations, uniqueCelular, uniqueDocumento } from './fixtures';
import { createPatient } from './patients';
import { button, faces, heading, kyc, passSelfie, PIN, test, uploadDocuments } from './support/kyc';
import { liveFaceThroughEachTest, withLiveFace } from './support/live-face';
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
  submitSupplementary,
} from './support/registration';

// Issue 44 item 3, duplicates at registration, to a person, through the real build, API, identity
// engine and back office: patient A is registered with a face (the operator command's --foto);
// patient B registers with A's face and another cédula (card-1): KYC passes, the complementary data
// is sent, and the registration waits with a plain Spanish message instead of finishing; a
// supervisor opens the 'Posible duplicado' case in /operador, sees A's record beside B's evidence,
// and approves it (distinct people); B finishes from the SMS link.
//
// A server of its own, with the product's duplicate threshold (0.70): the shared e2e server has
// the check off (playwright.config.ts), as the suite registers one synthetic face with five cédulas.

const root = path.resolve('.');
const port = execFileSync(
  process.execPath,
  [
    '-e',
    `const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{const p=s.address().port;s.close(()=>process.stdout.write(String(p)))})`,
  ],
  { encoding: 'utf8' },
).trim();
const BASE_URL = `http://127.0.0.1:${port}`;
/** The back office on the same server: localhost, as passkeys require a host name. */
const OPERATOR_URL = `http://localhost:${port}`;
/** Under .e2e-data as e2e/server.ts requires; `run-<pid>` so a later run removes it if left. */
const DATA_DIR = path.join(root, '.e2e-data', `run-${process.pid}`);

test.describe.configure({ mode: 'serial', timeout: 600_000 });
// This server's own database: no other spec's frames, so any seed; the synthetic patient is the
// cards' face (blink-open), as A's photo.
test.use({ baseURL: BASE_URL, selfieSeed: 26 });

let server: ChildProcess | undefined;

// Its server's start and the operator command's --foto (the engine's models loading) keep both
// cores busy for seconds: not beside the other worker's live face (e2e/support/live-face.ts).
test.beforeAll(async () => {
  test.setTimeout(300_000);
  await withLiveFace(startServer);
});
liveFaceThroughEachTest();

async function startServer(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DEMO_PATIENT: 'false',
    TRUST_PROXY: '1',
    STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist',
  };
  // The product's threshold (IDENTITY_DUPLICATE_FACE_THRESHOLD unset: 0.70).
  delete env.IDENTITY_DUPLICATE_FACE_THRESHOLD;
  server = spawn('npx', ['tsx', 'e2e/server.ts'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: number | null = null;
  server.once('exit', (code) => (exited = code ?? -1));
  // Ready once the identity engine is (it warms up after the server listens).
  const deadline = Date.now() + 280_000;
  for (;;) {
    if (exited !== null) throw new Error(`the duplicate spec's server exited (${exited})`);
    const status = await fetch(`${BASE_URL}/api/onboarding/identity-status`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline)
      throw new Error(`the duplicate spec's server is not ready (${status})`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
});

test("a face already registered with another cédula opens a 'Posible duplicado' case that a supervisor decides", async ({
  page,
  browser,
}) => {
  // Patient A: registered, with the face of the cards' portrait (only its description is kept).
  const a = {
    documento: uniqueDocumento(),
    pin: '583027',
    celular: uniqueCelular(),
    nombre: 'LIZ ANA',
    apellido: 'FRANCO LÓPEZ',
  };
  const seeded = createPatient(a, DATA_DIR, { foto: path.join(faces, 'blink-open.jpg') });
  expect(seeded).toMatchObject({ ok: true, created: true, face: 'enrolled' });

  // Patient B: A's face, card-1 (6.824.773), through KYC and the complementary data.
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await choosePin(page, PIN);
  await button(page, copy.welcome.next).click();
  await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
  await passSelfie(page);
  await expect(button(page, kyc.document.capture)).toBeEnabled({ timeout: 20_000 });
  await uploadDocuments(page, 'card-1');
  await expect(heading(page, kyc.review.title)).toBeFocused({ timeout: 90_000 });
  await button(page, kyc.review.confirm).click();
  const register = page.waitForResponse((r) => r.url().endsWith('/api/onboarding/register'));
  await submitSupplementary(page);
  // Not refused, not finished: a person reviews it, the answer comes by SMS by a date.
  const answer = await register;
  expect(answer.status()).toBe(409);
  expect(await answer.json()).toMatchObject({ success: false, reason: 'possible_duplicate' });
  const message = page.getByText(/una persona del servicio tiene que revisar tus datos/);
  await expect(message).toBeVisible({ timeout: 30_000 });
  await expect(message).toContainText(/te avisamos por SMS hasta el \d{2}\/\d{2}\/\d{4}/);
  // Nothing of the other patient reaches B.
  await expect(page.getByText(a.documento)).toHaveCount(0);
  await expect(page.getByText(/FRANCO/)).toHaveCount(0);
  await expect(heading(page, copy.complete.title)).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A supervisor (a reviser never sees it): the case's kind and A's record beside B's evidence.
  const nombre = 'Sara Supervisora';
  const desk = await operatorDesk(browser, OPERATOR_URL);
  const usuario = uniqueUsuario('supervisor');
  await enrolAndLogIn(
    desk.page,
    addOperator(usuario, nombre, 'supervisor', { dataDir: DATA_DIR, baseURL: OPERATOR_URL }).link,
    nombre,
  );
  await expect(
    desk.page.getByRole('cell', { name: operadorTerms.kinds.duplicate, exact: true }),
  ).toBeVisible();
  await takeNext(desk.page);
  await expect(
    desk.page.getByRole('heading', { name: caseCopy.title(operadorTerms.kinds.duplicate) }),
  ).toBeVisible();
  const record = desk.page.getByRole('region', { name: caseCopy.duplicate.title });
  await expect(record.getByText(a.documento, { exact: true })).toBeVisible();
  await expect(record.getByText('FRANCO LÓPEZ LIZ ANA', { exact: true })).toBeVisible();
  await expect(record).toContainText(/umbral 70 %/);
  await expect(
    desk.page.getByRole('img', { name: operadorTerms.images.selfie, exact: true }),
  ).toBeVisible();
  await expect(desk.page.getByRole('button', { name: caseCopy.repeat, exact: true })).toHaveCount(
    0,
  );
  await expectNoAxeViolations(desk.page);

  // Distinct people: approved by the supervisor alone.
  await desk.page.getByRole('button', { name: caseCopy.approve, exact: true }).click();
  await desk.page
    .getByRole('button', { name: caseCopy.approveConfirm.confirm, exact: true })
    .click();
  await expect(desk.page.getByText(caseCopy.outcomes.approved)).toBeVisible({ timeout: 30_000 });
  await desk.page.getByRole('button', { name: caseCopy.backToQueue, exact: true }).click();
  await expect(desk.page.getByRole('heading', { name: queueCopy.title })).toBeVisible();

  // The SMS brings B back: the registration goes on as a distinct person and finishes.
  const link = await linkFromOutbox(page, celular);
  await page.goto(link);
  await expect(page.getByText(assist.notices.verified)).toBeVisible({ timeout: 30_000 });
  await completeSupplementary(page);
  await desk.context.close();
});
