import { onboardingPaths } from '../contract/onboarding';
import {
  DEMO,
  expect,
  loginViaApi,
  readSmsOutbox,
  test,
  uniqueCelular,
  uniqueDocumento,
} from './fixtures';
import { SEED_PATIENTS, type PatientSeed } from './patients';

// The helpers other suites build on: if one of these fails, fix the rail before the journeys.

test.describe('e2e rails', () => {
  test('uniqueDocumento and uniqueCelular give valid, distinct values', () => {
    const documentos = new Set(Array.from({ length: 50 }, () => uniqueDocumento()));
    expect(documentos.size).toBe(50);
    for (const d of documentos) expect(d).toMatch(/^\d{5,12}$/);
    const celulares = new Set(Array.from({ length: 50 }, () => uniqueCelular()));
    expect(celulares.size).toBe(50);
    for (const c of celulares) expect(c).toMatch(/^09\d{8}$/);
  });

  test('every seeded patient and the demo patient can log in', async ({ page }) => {
    // Not the lockout patient (its failures are counted) nor myDataWalk, whose every login
    // e2e/my-data-walk.spec.ts finds listed in 'Quién vio mis datos' and whose account it deletes.
    const own = new Set<PatientSeed>([SEED_PATIENTS.lockout, SEED_PATIENTS.myDataWalk]);
    for (const patient of [DEMO, ...Object.values(SEED_PATIENTS).filter((p) => !own.has(p))]) {
      await loginViaApi(page, patient);
    }
  });

  test('each test has its own client address (X-Forwarded-For)', async ({ page, clientIp }) => {
    expect(clientIp).toMatch(/^10\.\d+\.\d+\.\d+$/);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/session'));
    await page.goto('/login');
    expect((await sent).headers()['x-forwarded-for']).toBe(clientIp);
  });

  test('readSmsOutbox reads the development outbox', async ({ request }) => {
    const celular = uniqueCelular();
    expect(await readSmsOutbox(request, celular)).toEqual([]);
    const start = await request.post(onboardingPaths.start, {
      data: { phone: celular, email: '' },
    });
    expect(start.status(), await start.text()).toBe(200);
    const outbox = await readSmsOutbox(request, celular);
    expect(outbox.length).toBeGreaterThan(0);
    expect(outbox[0]?.celular).toBe(celular);
    expect(outbox[0]?.body).toMatch(/\b\d{6}\b/);
  });
});
