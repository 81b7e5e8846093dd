import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { loginPaths } from '../contract/login';
import { onboardingPaths, smsOutboxResponse, type SmsOutboxResponse } from '../contract/onboarding';
import { DEMO, SEED_PATIENTS, type PatientSeed, type SeedName } from './patients';

/**
 * The suite's `test`: import { test, expect } from './fixtures'.
 *
 * - Patients: the e2e server (e2e/server.ts) writes every entry of SEED_PATIENTS (e2e/patients.ts)
 *   as the operator command `npm run patients -- add` does, before it starts; read one with
 *   `seeded('name')`. A test may also call `createPatient(p, e2eEnv.dataDir, { foto })` while the
 *   server runs (the command then writes through the server's socket; e2e/face-login.spec.ts).
 * - Unknown documents and phones: uniqueDocumento(), uniqueCelular() (celular is unique per patient).
 * - SMS codes: readSmsOutbox(request, celular) reads GET /api/dev/sms-outbox (development only).
 * - Accessibility: expectNoAxeViolations(page) (WCAG 2.0/2.1 A and AA).
 * - Sessions: loginViaApi(page, patient?) puts the HttpOnly session cookie in the page's context.
 * - Each test sends its own X-Forwarded-For (`clientIp`): the per-address login cap is per test.
 */
export { expect };
export { DEMO, SEED_PATIENTS, createPatient } from './patients';

/** Where the e2e server keeps its data and listens (set by playwright.config.ts, inherited by workers). */
export const e2eEnv = {
  port: Number(process.env.E2E_PORT),
  dataDir: process.env.E2E_DATA_DIR ?? '',
  baseURL: process.env.E2E_BASE_URL ?? '',
};

let documentoCounter = 0;

/**
 * A document number no other test (or run) uses: 8 to 12 digits, starting with 7, built from the
 * worker, the time and a counter. Unknown to the server unless a test seeds it.
 */
export function uniqueDocumento(): string {
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0) % 10;
  documentoCounter += 1;
  const tail =
    `${Date.now() % 1e6}`.padStart(6, '0') + `${documentoCounter % 100}`.padStart(2, '0');
  return `7${worker}${tail}`.slice(0, 11);
}

let celularCounter = 0;

/** A Paraguay mobile (local format 0981XXXXXX) no other test uses; patients' celular is unique. */
export function uniqueCelular(): string {
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0) % 10;
  celularCounter += 1;
  return `0981${worker}${`${(Date.now() + celularCounter * 7919) % 1e5}`.padStart(5, '0')}`;
}

/** The SMS the development outbox 'sent' to a phone, newest first (GET /api/dev/sms-outbox). */
export async function readSmsOutbox(
  request: APIRequestContext,
  celular: string,
): Promise<SmsOutboxResponse> {
  const res = await request.get(onboardingPaths.devSmsOutbox, { params: { celular } });
  expect(res.status(), `GET ${onboardingPaths.devSmsOutbox}?celular=${celular}`).toBe(200);
  const parsed = smsOutboxResponse.safeParse(await res.json());
  if (!parsed.success)
    throw new Error('sms outbox answer does not match contract/onboarding smsOutboxResponse');
  return parsed.data;
}

/** axe-core with WCAG 2.0/2.1 A and AA rules; fails listing every violation and its targets. */
export async function expectNoAxeViolations(
  page: Page,
  options: { exclude?: string[] } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** Logs in through the API with the page's own cookie jar (the HttpOnly session cookie lands in the context). */
export async function loginViaApi(
  page: Page,
  patient: { documento: string; pin: string } = DEMO,
): Promise<void> {
  const res = await page.request.post(loginPaths.login, {
    data: { numero_documento: patient.documento, pin: patient.pin },
  });
  expect(res.status(), `login of ${patient.documento}`).toBe(200);
}

type Fixtures = {
  /** This test's client address, sent as X-Forwarded-For (the e2e server trusts the proxy header). */
  clientIp: string;
  /** A patient created with the operator command before the server started (e2e/patients.ts). */
  seeded: (name: SeedName) => PatientSeed;
  /** Removes the camera videos a test made in its output folder (after its browsers closed). */
  removeTestVideos: void;
};

/**
 * Deletes every .y4m under `dir`. A fake-camera video is raw (640 x 480 yuv420p: 138 MB for 30 s,
 * 276 MB for 60 s) and made again from its seed in seconds; kept, a run's videos filled the disk
 * of a CI machine (ENOSPC in the last tests of the run).
 */
export function removeVideos(dir: string): void {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return;
  }
  for (const entry of entries)
    if (entry.endsWith('.y4m')) rmSync(path.join(dir, entry), { force: true });
}

let ipCounter = 0;

export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from its first parameter: it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  clientIp: async ({}, use, testInfo) => {
    ipCounter += 1;
    const w = testInfo.workerIndex % 250;
    await use(`10.${w}.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`);
  },
  // Per-test client address: the per-IP failure cap (LOGIN_IP_MAX_FAILURES) is never shared
  // between tests, and the 429 test can reach it without touching the others.
  extraHTTPHeaders: async ({ extraHTTPHeaders, clientIp }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': clientIp });
  },
  // eslint-disable-next-line no-empty-pattern
  seeded: async ({}, use) => {
    await use((name) => SEED_PATIENTS[name]);
  },
  // Set up first, so torn down last: after the test's own fixtures closed their browsers.
  removeTestVideos: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      await use();
      removeVideos(testInfo.outputDir);
    },
    { auto: true },
  ],
});
