import type { Locator, Page, Route } from '@playwright/test';
import { loginPaths } from '../contract/login';
import { sessionPaths } from '../contract/session';
import { messages } from '../server/http/messages';
import { appName, dashboard, landing, login as copy, loginErrors, notFound } from '../src/copy/es';
import { recovery } from '../src/copy/es.recovery';
import { tyc } from '../src/copy/es.tyc';
import {
  DEMO,
  expect,
  expectNoAxeViolations,
  loginViaApi,
  test,
  uniqueDocumento,
} from './fixtures';

// Journeys through the real build (dist/) and the real API (server/main.ts), see playwright.config.ts.

const fields = (page: Page) => ({
  documento: page.getByLabel(copy.documentoLabel, { exact: true }),
  pin: page.getByLabel(copy.pinLabel, { exact: true }),
  submit: page.getByRole('button', { name: copy.submit, exact: true }),
  submitting: page.getByRole('button', { name: copy.submitting, exact: true }),
  forgot: page.getByRole('link', { name: copy.forgotPin }),
  back: page.getByRole('link', { name: copy.backToHome }),
  alert: page.getByRole('alert'),
});

async function openLogin(page: Page) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
  return fields(page);
}

/** Opens /login, fills both fields and presses 'Validar' (does not wait for the answer). */
async function tryLogin(page: Page, documento: string = DEMO.documento, pin: string = DEMO.pin) {
  const f = await openLogin(page);
  await f.documento.fill(documento);
  await f.pin.fill(pin);
  await f.submit.click();
  return f;
}

/** tryLogin and the server's answer to it. */
async function submitLogin(page: Page, documento: string, pin: string) {
  const answer = page.waitForResponse((r) => r.url().endsWith(loginPaths.login));
  const f = await tryLogin(page, documento, pin);
  return { f, response: await answer };
}

/** The demo patient's login with the request held at the network until `release()`. */
async function heldLogin(page: Page) {
  const hold = holdRoute();
  await page.route(loginPaths.login, hold.handler);
  const f = await tryLogin(page);
  await hold.arrived;
  return { f, release: hold.release };
}

/** Types like a patient who clicked into the field: the caret at the end of what is there. */
async function typeAtEnd(field: Locator, text: string) {
  await field.click();
  await field.press('End');
  await field.pressSequentially(text);
}

/** Holds a request until the test releases it: assert on the loading state, no sleeps. */
function holdRoute() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen!: () => void;
  const arrived = new Promise<void>((resolve) => (seen = resolve));
  const handler = async (route: Route) => {
    seen();
    await released;
    await route.continue();
  };
  return { handler, release, arrived };
}

const dashboardHeading = (page: Page, nombre: string) =>
  page.getByRole('heading', { level: 1, name: dashboard.greeting(nombre) });

test.describe('login journeys', () => {
  test('the demo patient logs in and reaches the dashboard', async ({ page }) => {
    const { response } = await submitLogin(page, DEMO.documento, DEMO.pin);
    expect(response.status()).toBe(200);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
    for (const name of Object.values(dashboard.features)) {
      await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
    }
    // The session is an HttpOnly cookie: nothing readable by scripts, nothing in web storage.
    const storage = await page.evaluate(() => ({
      cookie: document.cookie,
      local: Object.keys(localStorage).length,
      session: Object.keys(sessionStorage).length,
    }));
    expect(storage).toEqual({ cookie: '', local: 0, session: 0 });
  });

  test('a patient created with the operator command logs in', async ({ page, seeded }) => {
    const patient = seeded('operator');
    await submitLogin(page, patient.documento, patient.pin);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardHeading(page, patient.nombre)).toBeVisible();
  });

  test('keyboard only: Tab, typing and Enter log in without a click', async ({ page }) => {
    const f = await openLogin(page);
    await page.keyboard.press('Tab');
    await expect(f.back).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(f.documento).toBeFocused();
    await page.keyboard.type(DEMO.documento);
    await page.keyboard.press('Tab');
    await expect(f.pin).toBeFocused();
    await page.keyboard.type(DEMO.pin);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
  });
});

test.describe('login errors', () => {
  test('a wrong PIN shows the server message and stays on /login', async ({ page }) => {
    const { f, response } = await submitLogin(page, DEMO.documento, '000001');
    expect(response.status()).toBe(401);
    await expect(f.alert).toHaveText(messages.loginBadCredentials);
    expect(messages.loginBadCredentials).toBe('Número de documento o PIN incorrectos.');
    await expect(page).toHaveURL(/\/login$/);
    // The fields keep their values and the patient can try again at once.
    await expect(f.documento).toHaveValue(DEMO.documento);
    await expect(f.submit).toBeEnabled();
  });

  test('an unknown document number gets the same message as a wrong PIN', async ({ page }) => {
    const { f, response } = await submitLogin(page, uniqueDocumento(), '482915');
    expect(response.status()).toBe(401);
    await expect(f.alert).toHaveText(messages.loginBadCredentials);
  });

  test('server unreachable: the connection message', async ({ page }) => {
    await page.route(loginPaths.login, (route) => route.abort('connectionrefused'));
    const f = await tryLogin(page);
    await expect(f.alert).toHaveText(loginErrors.network);
    expect(loginErrors.network).toBe(
      'Error conectando al servidor. Verifique sus datos o intente más tarde.',
    );
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a 500 that is not JSON: "Error de login"', async ({ page }) => {
    await page.route(loginPaths.login, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'text/html',
        body: '<h1>Internal Server Error</h1>',
      }),
    );
    const f = await tryLogin(page);
    await expect(f.alert).toHaveText(loginErrors.loginFailed);
    expect(loginErrors.loginFailed).toBe('Error de login');
  });

  test('a 200 with success false and no message: "Error de autenticación."', async ({ page }) => {
    await page.route(loginPaths.login, (route) =>
      route.fulfill({ status: 200, json: { success: false } }),
    );
    const f = await tryLogin(page);
    await expect(f.alert).toHaveText(loginErrors.rejected);
    expect(loginErrors.rejected).toBe('Error de autenticación.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the per-address cap answers 429 and the page shows its Spanish message', async ({
    page,
  }) => {
    // 30 failures (LOGIN_IP_MAX_FAILURES) from this test's own address, each on a different unknown
    // document so no per-account delay applies; the next attempt is refused by the cap.
    for (let i = 0; i < 30; i += 1) {
      const res = await page.request.post(loginPaths.login, {
        data: { numero_documento: uniqueDocumento(), pin: '000000' },
      });
      expect(res.status()).toBe(401);
    }
    const { f, response } = await submitLogin(page, DEMO.documento, DEMO.pin);
    expect(response.status()).toBe(429);
    const retryAfter = Number(response.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    await expect(f.alert).toHaveText(messages.tooManyAttempts(Math.ceil(retryAfter / 60)));
    await expect(f.alert).toHaveText(
      /^Demasiados intentos\. Esperá \d+ minutos? e intentá de nuevo\.$/,
    );
    await expect(page).toHaveURL(/\/login$/);
  });

  test('lockout: the 10th wrong PIN locks; the page says when to try again and offers recovery', async ({
    page,
    seeded,
  }) => {
    const patient = seeded('lockout');
    const f = await openLogin(page);
    await f.documento.fill(patient.documento);
    for (let attempt = 1; attempt <= 9; attempt += 1) {
      await f.pin.fill(`00000${attempt % 10}`);
      const answer = page.waitForResponse((r) => r.url().endsWith(loginPaths.login));
      await f.submit.click();
      expect((await answer).status(), `attempt ${attempt}`).toBe(401);
      await expect(f.alert).toHaveText(messages.loginBadCredentials);
      await expect(f.submit).toBeEnabled();
    }
    const locked = messages.loginLocked(15 * 60);
    for (const pin of ['000010', patient.pin]) {
      await f.pin.fill(pin);
      const answer = page.waitForResponse((r) => r.url().endsWith(loginPaths.login));
      await f.submit.click();
      const response = await answer;
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(14 * 60);
      await expect(f.alert).toHaveText(locked);
    }
    await expect(page).toHaveURL(/\/login$/);
    const session = await page.request.get(sessionPaths.session);
    expect(await session.json()).toEqual({ authenticated: false });
    await page.getByRole('link', { name: copy.forgotPin }).click();
    await expect(page).toHaveURL(/\/recuperar-pin$/);
  });
});

test.describe('login form rules', () => {
  test('non-digits are stripped as typed; submit needs 5+ document digits and a 6-digit PIN', async ({
    page,
  }) => {
    const logins: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(loginPaths.login)) logins.push(r.url());
    });
    const f = await openLogin(page);
    await expect(f.documento).toHaveAttribute('placeholder', /^\d{7}$/);
    await expect(f.pin).toHaveAttribute('type', 'password');
    await expect(f.submit).toBeDisabled();

    await f.documento.pressSequentially('12a.3-4');
    await expect(f.documento).toHaveValue('1234');
    await f.pin.pressSequentially('48x29 15');
    await expect(f.pin).toHaveValue('482915');
    await expect(f.submit).toBeDisabled(); // 4 document digits
    await f.pin.press('Enter'); // submitting invalid does nothing
    await typeAtEnd(f.documento, '5');
    await expect(f.documento).toHaveValue('12345');
    await expect(f.submit).toBeEnabled();

    await f.pin.click();
    await f.pin.press('End');
    await f.pin.press('Backspace');
    await expect(f.pin).toHaveValue('48291');
    await expect(f.submit).toBeDisabled(); // PIN of 5 digits
    await f.pin.press('Enter');
    await typeAtEnd(f.pin, '5999');
    await expect(f.pin).toHaveValue('482915'); // max 6
    await expect(f.submit).toBeEnabled();

    await f.documento.fill('');
    await f.documento.pressSequentially('1234567890123456');
    await expect(f.documento).toHaveValue('123456789012'); // max 12
    await f.documento.fill('');
    await expect(f.submit).toBeDisabled();
    await f.documento.press('Enter');
    expect(logins).toEqual([]);
  });

  test('while loading: "Validando...", inputs, back arrow and "¿Olvidaste tu PIN?" disabled', async ({
    page,
  }) => {
    const { f, release } = await heldLogin(page);
    await expect(f.submitting).toBeVisible();
    await expect(f.submitting).toBeDisabled();
    // The check can take seconds: the page says so beside the button (issue 29 item 9).
    await expect(page.getByText(copy.checking)).toBeVisible();
    await expect(f.documento).toBeDisabled();
    await expect(f.pin).toBeDisabled();
    await expect(f.forgot).toHaveAttribute('aria-disabled', 'true');
    await expect(f.back).toHaveAttribute('aria-disabled', 'true');
    await f.forgot.click({ force: true }); // a disabled link goes nowhere
    await expect(page).toHaveURL(/\/login$/);
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
  });

  test('"¿Olvidaste tu PIN?" goes to /recuperar-pin and the back arrow to /', async ({ page }) => {
    const f = await openLogin(page);
    await f.forgot.click();
    await expect(page).toHaveURL(/\/recuperar-pin$/);
    await expect(
      page.getByRole('heading', { level: 1, name: recovery.request.title }),
    ).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    await fields(page).back.click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('session guards and logout', () => {
  test('/dashboard without a session redirects to /login', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
  });

  test('/login with a session redirects to /dashboard', async ({ page }) => {
    await loginViaApi(page);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
  });

  test('logout from the three-dot menu ends the session, clears local storage and goes to /login', async ({
    page,
  }) => {
    await loginViaApi(page);
    await page.goto('/dashboard');
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
    await page.evaluate(() => localStorage.setItem('e2e-marker', 'x'));
    expect(await page.evaluate(() => localStorage.length)).toBe(1);

    const menuButton = page.getByRole('button', { name: dashboard.menuLabel });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    const logout = page.getByRole('menuitem', { name: dashboard.logout });
    await expect(logout).toBeFocused();
    const ended = page.waitForResponse((r) => r.url().endsWith(sessionPaths.logout));
    await logout.click();
    expect((await ended).status()).toBe(200);

    await expect(page).toHaveURL(/\/login$/);
    // The focus lands on the login page's title, not on <body> (issue 29 item 18).
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeFocused();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    const session = await page.request.get(sessionPaths.session);
    expect(await session.json()).toEqual({ authenticated: false });

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the menu closes with Escape and gives focus back to its button', async ({ page }) => {
    await loginViaApi(page);
    await page.goto('/dashboard');
    const menuButton = page.getByRole('button', { name: dashboard.menuLabel });
    await menuButton.click();
    await expect(page.getByRole('menuitem', { name: dashboard.logout })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(menuButton).toBeFocused();
  });

  test('AUTOCONSULTA and HISTORIAL each show "Próximamente" feedback; SOS the emergency numbers, links that dial', async ({
    page,
  }) => {
    await loginViaApi(page);
    await page.goto('/dashboard');
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
    for (const name of [dashboard.features.autoconsulta, dashboard.features.historial]) {
      await page.getByRole('button', { name, exact: true }).click();
      await expect(
        page.getByRole('status').filter({ hasText: dashboard.comingSoon(name) }),
      ).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    await expect(page.getByRole('status').filter({ hasText: 'Próximamente' })).toHaveCount(1);
    // SOS (issue 43 item 5): the emergency lines in one tap, each a tel: link.
    await page.getByRole('button', { name: dashboard.features.sos, exact: true }).click();
    await expect(page.getByRole('heading', { name: dashboard.sos.title })).toBeVisible();
    await expect(
      page.getByRole('link', { name: new RegExp(dashboard.sos.lines.seme.name) }),
    ).toHaveAttribute('href', 'tel:141');
    await expect(
      page.getByRole('link', { name: new RegExp(dashboard.sos.lines.police.name) }),
    ).toHaveAttribute('href', 'tel:911');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('app shell', () => {
  test('landing: "Registrarme" goes to /onboarding and "Ingresar" to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: landing.title })).toBeVisible();
    await page.getByRole('link', { name: landing.register }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.goto('/');
    await page.getByRole('link', { name: landing.login }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
    await expect(page.getByRole('img', { name: appName })).toBeVisible(); // the logo in the login header
  });

  test('an unknown route shows "Página no encontrada" with a link home', async ({ page }) => {
    const res = await page.goto('/esto-no-existe');
    expect(res?.status()).toBe(200); // the SPA answers every non-API route
    await expect(page.getByRole('heading', { level: 1, name: notFound.title })).toBeVisible();
    expect(notFound.title).toBe('Página no encontrada');
    await page.getByRole('link', { name: notFound.home }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: landing.title })).toBeVisible();
  });

  test('/tyc renders the terms and privacy text', async ({ page }) => {
    await page.goto('/tyc');
    await expect(page.getByRole('heading', { level: 1, name: tyc.title })).toBeVisible();
    await expect(page.getByText(/Plantilla/i)).toHaveCount(0);
    await expect(page.getByRole('img', { name: appName })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 })).toHaveCount(tyc.sections.length);
    for (const section of tyc.sections) {
      await expect(page.getByRole('heading', { level: 2, name: section.title })).toBeVisible();
    }
  });

  test('security headers on / and no-store on /api', async ({ page }) => {
    const csp: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
    });
    const res = await page.goto('/');
    expect(res).not.toBeNull();
    const headers = res!.headers();
    const directives = Object.fromEntries(
      (headers['content-security-policy'] ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['script-src'], 'script-src present').toBeDefined();
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(headers['permissions-policy']).toMatch(/(^|,\s*)camera=\(self\)/);
    expect(headers['x-content-type-options']).toBe('nosniff');

    const api = await page.request.get(sessionPaths.session);
    expect(api.headers()['cache-control']).toContain('no-store');
    expect(api.headers()['content-security-policy']).toBeTruthy();

    // The built app runs under that policy with no violation (no inline script).
    await expect(page.getByRole('heading', { level: 1, name: landing.title })).toBeVisible();
    await page.getByRole('link', { name: landing.login }).click();
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
    expect(csp).toEqual([]);
  });
});

test.describe('accessibility (axe, WCAG 2.1 A/AA)', () => {
  test('/ has no violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: landing.title })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/login has no violations', async ({ page }) => {
    await openLogin(page);
    await expectNoAxeViolations(page);
  });

  test('/login with an error shown has no violations', async ({ page }) => {
    const { f } = await submitLogin(page, uniqueDocumento(), '000000');
    await expect(f.alert).toHaveText(messages.loginBadCredentials);
    await expectNoAxeViolations(page);
  });

  test('/login while loading has no violations', async ({ page }) => {
    const { f, release } = await heldLogin(page);
    await expect(f.submitting).toBeDisabled();
    await expectNoAxeViolations(page);
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('/dashboard with the menu open and a notice shown has no violations', async ({ page }) => {
    await loginViaApi(page);
    await page.goto('/dashboard');
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
    await page.getByRole('button', { name: dashboard.features.autoconsulta, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Próximamente' })).toBeVisible();
    await page.getByRole('button', { name: dashboard.menuLabel }).click();
    await expect(page.getByRole('menuitem', { name: dashboard.logout })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/dashboard with the SOS panel open has no violations', async ({ page }) => {
    await loginViaApi(page);
    await page.goto('/dashboard');
    await expect(dashboardHeading(page, DEMO.nombre)).toBeVisible();
    await page.getByRole('button', { name: dashboard.features.sos, exact: true }).click();
    await expect(page.getByRole('heading', { name: dashboard.sos.title })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/tyc has no violations', async ({ page }) => {
    await page.goto('/tyc');
    await expect(page.getByRole('heading', { level: 1, name: tyc.title })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('the 404 page has no violations', async ({ page }) => {
    await page.goto('/no-existe/de-verdad');
    await expect(page.getByRole('heading', { level: 1, name: notFound.title })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/recuperar-pin has no violations', async ({ page }) => {
    await page.goto('/recuperar-pin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('/face-login has no violations', async ({ page }) => {
    await page.goto('/face-login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
