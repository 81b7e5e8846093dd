import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import { insightBatch, insightPaths } from '../contract/insight';
import { landing } from '../src/copy/es';
import { kycErrors } from '../src/copy/es.kyc';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { recovery as recoveryCopy } from '../src/copy/es.recovery';
import { devKycExpirePath } from '../server/identity/dev-routes';
import type { Report } from '../server/insight/report';
import { e2eEnv, expect, expectNoAxeViolations, readSmsOutbox, uniqueCelular } from './fixtures';
import { button, heading, kyc, nextKycSession, test } from './support/kyc';
import { finishIdentity } from './support/registration';

// Journey insight (issue 17) through the real build, API and identity engine: a registration with a
// failed selfie attempt, then a PIN recovery, give the expected funnel in `npm run report`; the
// report's HTML opens in Chromium with its charts and passes axe; no stored event holds a phone,
// document number, name, PIN or code of these journeys. Other specs run at the same time, so the
// report is asked for this test's journeys (--recorrido), read from the batches the page sent.
// Synthetic patient 10 (e2e/support/kyc.ts); card-2 is no other spec's.

test.describe.configure({ timeout: 300_000 });
test.use({ selfieSeed: 10 });

// The names as the MRZ writes them and as the card prints them (kept when the OCR reads the accent).
const CARD = { documento: '3164017', names: ['ACOSTA', 'CARLOS OSCAR', 'CARLOS ÓSCAR'] };
const PIN = '735194';
const NEW_PIN = '951846';

/** Journey ids of every insight batch the page sends (fetch or sendBeacon), checked against the catalogue. */
function watchInsight(page: Page) {
  const journeys = new Set<string>();
  const bodies: string[] = [];
  page.on('request', (req: Request) => {
    if (!req.url().endsWith(insightPaths.events) || req.method() !== 'POST') return;
    const body = req.postData() ?? '';
    bodies.push(body);
    const batch = insightBatch.safeParse(JSON.parse(body));
    if (batch.success) for (const e of batch.data.events) journeys.add(e.journey);
  });
  return { journeys, bodies };
}

function cli(args: string[]): string {
  return execFileSync('npx', ['tsx', ...args], {
    env: { ...process.env, DATA_DIR: e2eEnv.dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** Today in Paraguay (UTC-3), the report's days. */
const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

test('a registration with a failed selfie and a PIN recovery: the funnel in npm run report, its HTML with charts and axe, no personal data stored', async ({
  page,
}, testInfo) => {
  const watched = watchInsight(page);
  const celular = uniqueCelular();
  const codes: string[] = [];

  // Registration: phone, SMS code, PIN, then the KYC step.
  await page.goto('/');
  await page.getByRole('link', { name: landing.register }).click();
  await page.getByLabel(copy.registration.phoneLabel, { exact: true }).fill(celular.slice(1));
  await button(page, copy.registration.submit).click();
  await expect(heading(page, copy.verification.title)).toBeVisible();
  const [sms] = await readSmsOutbox(page.request, celular);
  const code = /\b(\d{6})\b/.exec(sms?.body ?? '')![1]!;
  codes.push(code);
  await page.getByLabel(copy.verification.codeLabel, { exact: true }).fill(code);
  await page.getByLabel(copy.pinCreation.pinLabel, { exact: true }).fill(PIN);
  await page.getByRole('checkbox', { name: /Acepto los términos y condiciones/ }).check();
  await button(page, copy.pinCreation.submit).click();
  const firstSession = nextKycSession(page);
  await button(page, copy.welcome.next).click();
  const first = await firstSession;
  await expect(heading(page, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });

  // A failed selfie attempt (its session expired), then 'Intentar nuevamente' and a pass.
  expect((await page.request.post(devKycExpirePath(first))).status()).toBe(200);
  await button(page, kyc.selfie.start).click();
  await expect(page.getByText(kycErrors.sessionExpired, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  const second = nextKycSession(page);
  await button(page, kyc.selfie.retry).click();
  const sessions = [first, await second];
  // The selfie, the cédula, the review, the supplementary form: registered.
  // The review shows the names as the front reads them. The clean card-2 reads 'OSCAR' since
  // issue 28's name vote (the OCR of that picture misses the accent; tests/identity/document.test.ts
  // accepts both): the given names, with or without it.
  await finishIdentity(page, 'card-2', /^CARLOS [OÓ]SCAR$/);

  // PIN recovery for the new patient (leaving the page sends the registration's last events).
  await page.goto('/recuperar-pin');
  await expect(heading(page, recoveryCopy.request.title)).toBeFocused();
  await page.getByLabel(recoveryCopy.request.documentoLabel, { exact: true }).fill(CARD.documento);
  await page.getByLabel(recoveryCopy.request.celularLabel, { exact: true }).fill(celular);
  // The registration's code went to the same phone moments ago: the server's resend wait (30 s)
  // answers 429 until it is over, so 'Enviar código' is tried again until the code step shows.
  await expect(async () => {
    const codeStep = heading(page, recoveryCopy.verification.title);
    if (!(await codeStep.isVisible()))
      await button(page, recoveryCopy.request.submit).click({ timeout: 3000 });
    await expect(codeStep).toBeVisible({ timeout: 3000 });
  }).toPass({ intervals: [5000], timeout: 60_000 });
  await expect(page.getByLabel(recoveryCopy.verification.codeLabel, { exact: true })).toBeFocused();
  let recoveryCode: string | undefined;
  await expect
    .poll(async () => {
      const [newest] = await readSmsOutbox(page.request, celular);
      recoveryCode = /para recuperar tu PIN es (\d{6})/.exec(newest?.body ?? '')?.[1];
      return recoveryCode;
    })
    .toMatch(/^\d{6}$/);
  codes.push(recoveryCode!);
  // The 6th digit validates (issue 29 item 15): no 'Validar código' press.
  await page.getByLabel(recoveryCopy.verification.codeLabel, { exact: true }).fill(recoveryCode!);
  await expect(heading(page, recoveryCopy.newPin.title)).toBeFocused();
  await page.getByLabel(recoveryCopy.newPin.pinLabel, { exact: true }).fill(NEW_PIN);
  await button(page, recoveryCopy.newPin.submit).click();
  await expect(heading(page, recoveryCopy.done.title)).toBeFocused();
  // The recovery's journey id, from a batch its page sent (the 5 s timer): a beacon sent while the
  // page unloads is not always seen by page.on('request'), and a quick recovery sends no other.
  await expect
    .poll(() => watched.bodies.some((b) => b.includes('"flow":"recovery"')), { timeout: 15_000 })
    .toBe(true);
  await page.goto('/'); // page hide: the recovery's last batch goes by sendBeacon

  // The report, for this test's journeys, once every batch has arrived.
  const html = testInfo.outputPath('informe.html');
  let report: Report | undefined;
  await expect
    .poll(
      () => {
        const args = ['server/cli/report.ts', '--desde', today(), '--hasta', today(), '--json'];
        args.push('--html', html);
        for (const j of watched.journeys) args.push('--recorrido', j);
        report = JSON.parse(cli(args)) as Report;
        return report.recovery.funnel.map((s) => s.count);
      },
      { timeout: 60_000, intervals: [1000, 2000, 3000] },
    )
    .toEqual([1, 1, 1, 1]);
  expect(report!.onboarding.funnel.map((s) => [s.key, s.count])).toEqual([
    ['started', 1],
    ['phoneVerified', 1],
    ['pinCreated', 1],
    ['selfiePassed', 1],
    ['documentPassed', 1],
    // Cases carry no journey: with journeys named, none (issue 43 item 11).
    ['verifiedByPerson', 0],
    ['registered', 1],
  ]);
  // The expired session, once. A challenge refused on a busy machine before the selfie passed (a
  // blink on cue missed by a lagging camera: CI at load 9, 2026-11-30; finishIdentity tries again)
  // is a reason of its own, reported as such; nothing else.
  const { reasons } = report!.onboarding;
  expect(reasons).toContainEqual({
    step: 'selfie',
    error: 'sessionExpired',
    source: 'browser',
    count: 1,
  });
  expect(reasons.filter((r) => r.error !== 'sessionExpired')).toEqual(
    reasons.filter(
      (r) => r.step === 'selfie' && r.error === 'challengeFailed' && r.source === 'browser',
    ),
  );
  expect(report!.onboarding.times.find((t) => t.step === 'selfie')!.n).toBe(1);
  const text = cli([
    'server/cli/report.ts',
    '--desde',
    today(),
    '--hasta',
    today(),
    '--html',
    html,
  ]);
  expect(text).toContain('Registro iniciado');

  // The HTML: offline, charts drawn, axe-clean.
  await page.context().setOffline(true);
  await page.goto(`file://${path.resolve(html)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Informe de recorridos');
  // A section with no data shows its table without a chart: with this test's journeys alone (a
  // recovery with no failure) 8 charts are drawn; other specs' journeys of the day add more.
  const charts = page.locator('svg[role="img"]');
  expect(await charts.count()).toBeGreaterThanOrEqual(8);
  await expect(charts.first()).toBeVisible();
  expect((await charts.first().boundingBox())!.height).toBeGreaterThan(100);
  await expect(page.getByRole('img', { name: /Embudo del registro/ })).toBeVisible();
  await expectNoAxeViolations(page);
  // Readable on a phone (issue 29 item 19): nothing wider than 360 px but inside its own scroll box.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.context().setOffline(false);

  // No personal data in any stored event (the journey column is a random UUID by construction).
  const stored = JSON.parse(cli(['e2e/support/insight-dump.ts'])) as Array<Record<string, unknown>>;
  expect(stored.length).toBeGreaterThan(20);
  for (const row of stored)
    if (row.journey !== null) expect(String(row.journey)).toMatch(/^[0-9a-f-]{36}$/);
  const scanned = JSON.stringify(stored.map(({ journey: _j, at: _a, ...rest }) => rest));
  const secrets = [
    celular,
    celular.slice(1),
    CARD.documento,
    ...CARD.names,
    PIN,
    NEW_PIN,
    ...codes,
    ...sessions,
  ];
  for (const secret of secrets) expect(scanned, secret).not.toContain(secret);
  // Nor in what the page sent (but the random journey ids).
  const sent = watched.bodies.join('\n').replace(/"journey":"[0-9a-f-]{36}"/g, '');
  for (const secret of secrets) expect(sent, secret).not.toContain(secret);
});
