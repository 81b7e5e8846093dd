import type { Page, Route } from '@playwright/test';
import { loginPaths } from '../contract/login';
import { sessionPaths } from '../contract/session';
import { onboardingPaths } from '../contract/onboarding';
import { recoveryPaths } from '../contract/recovery';
import { PRERENDERED } from '../scripts/prerender';
import { common, login as copy } from '../src/copy/es';
import { onboarding } from '../src/copy/es.onboarding';
import { recovery } from '../src/copy/es.recovery';
import { DEMO, expect, test, uniqueCelular, uniqueDocumento } from './fixtures';

// Prerendered pages (scripts/prerender.ts) as the real server sends them, before and after React
// takes over. A hydration mismatch in the production build is mostly silent (React keeps the
// server's attributes, or quietly re-renders a boundary), so these tests look for it directly.

/** Holds every /assets/ request until `release()`: the page as HTML only, then hydrated. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/**', async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Elements under #root that React has not (yet) hydrated: no props attached by react-dom. */
const unhydrated = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('#root *')].filter(
        (el) => !Object.keys(el).some((k) => k.startsWith('__reactProps$')),
      ).length,
  );

/**
 * Attributes whose server value differs from what the client rendered. React's production build
 * keeps the server's attribute on a mismatch and says nothing: compare with the props it holds.
 */
const attributeMismatches = (page: Page) =>
  page.evaluate(() => {
    const named: Record<string, string> = { className: 'class', htmlFor: 'for' };
    const out: string[] = [];
    for (const el of document.querySelectorAll('#root *')) {
      const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
      if (!key) continue;
      const props = (el as unknown as Record<string, Record<string, unknown>>)[key]!;
      for (const [prop, value] of Object.entries(props)) {
        const attr = named[prop] ?? prop;
        if (typeof value !== 'string') continue;
        if (!(attr in named || /^(?:class|for|id|href|role|aria-.+|data-.+)$/.test(attr))) continue;
        const actual = el.getAttribute(attr);
        if (actual !== value)
          out.push(`<${el.tagName.toLowerCase()}> ${attr}: server ${actual} / client ${value}`);
      }
    }
    return out;
  });

/** Console errors and warnings, and uncaught errors (a hydration failure is reported as one). */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    // A 401 from the anonymous session check is logged by the browser as a failed resource.
    if (/Failed to load resource/.test(m.text())) return;
    problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/**
 * Chunks fetched after hydration by design (vite.config.ts: the insight and schemas groups, and the
 * facades of their dynamically imported modules, machines/insight/browser.ts, contract/login.ts and contract/session.ts).
 */
const AFTER_HYDRATION = /^\/assets\/(?:insight|browser|schemas|auth)-[\w-]+\.js$/;

const h1Of = (html: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<!--[\s\S]*?-->/g, '');

test.describe('prerendered routes', () => {
  for (const { route } of PRERENDERED.filter((p) => !p.static)) {
    test(`${route}: its own HTML, chunks modulepreloaded, hydrated with no mismatch`, async ({
      page,
      request,
    }) => {
      const served = await request.get(route);
      expect(served.headers()['cache-control']).toBe('no-cache');
      const html = await served.text();
      const title = h1Of(html);
      expect(title, 'the screen is in the HTML').toBeTruthy();
      expect(html).not.toContain(common.loading);
      // Stable styled-components ids (vite.config.ts), not load-order counters: each style group
      // is named after its file and position, the same in the SSR and the client build.
      const groups = [...html.matchAll(/data-styled\.g\d+\[id="([^"]+)"\]/g)].map((m) => m[1]!);
      expect(groups.length).toBeGreaterThan(0);
      expect(groups.filter((id) => !/^sc-global-|__sc-[a-z0-9]+-\d+$/.test(id))).toEqual([]);

      const problems = collectProblems(page);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      const release = await holdScripts(page);
      await page.goto(route, { waitUntil: 'commit' });
      const h1 = page.getByRole('heading', { level: 1 });
      await expect(h1).toHaveText(title!);
      // Mark the server's nodes: a mismatch makes React throw them away and render new ones.
      const marked = await page.evaluate(() => {
        const nodes = [...document.querySelectorAll('#root *')];
        (window as unknown as { __prerendered: Element[] }).__prerendered = nodes;
        return nodes.length;
      });
      release();
      await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
      await page.waitForLoadState('networkidle');

      expect(
        await page.evaluate(
          () =>
            (window as unknown as { __prerendered: Element[] }).__prerendered.filter(
              (n) => !n.isConnected,
            ).length,
        ),
        `of ${marked} prerendered elements, replaced by the client`,
      ).toBe(0);
      expect(await attributeMismatches(page)).toEqual([]);
      expect(problems).toEqual([]);
      // No waterfall: every script the page loaded is named in its HTML (entry or modulepreload),
      // except what is deliberately left out of the first load and fetched after hydration:
      // journey insight (when the page is idle) and the contract's schemas with contract/login's and contract/session's
      // facade (beside the first request: /login's session check).
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts)
        if (!html.includes(`"${src}"`)) expect(src, `${src} is preloaded`).toMatch(AFTER_HYDRATION);
      // /login's first load carries no zod (issue 19): its schemas come with its first request.
      if (route === '/login') expect(html).not.toMatch(/\/assets\/schemas-/);
    });
  }

  test('/ ships with no JavaScript, its links are plain links to prerendered pages', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/')).text();
    expect(html).not.toMatch(/<script|modulepreload/);
    expect(h1Of(html)).toBeTruthy();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([]);
    const hrefs = await page
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const prerendered = PRERENDERED.map((p) => p.route);
    for (const href of hrefs) expect(prerendered).toContain(href);
  });

  test('other routes get the empty shell, rendered on the client', async ({ page, request }) => {
    const html = await (await request.get('/face-login')).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(/<script type="module"/);
    await page.goto('/face-login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

test.describe('/login before hydration', () => {
  test('what was typed before the JavaScript ran is kept and logs in; never sent as a GET', async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const documento = page.getByLabel(copy.documentoLabel, { exact: true });
    const pin = page.getByLabel(copy.pinLabel, { exact: true });
    const submit = page.getByRole('button', { name: copy.submit, exact: true });
    await documento.fill(DEMO.documento);
    await pin.fill(DEMO.pin);
    await expect(submit).toBeDisabled();
    await expect(page.locator('form')).toHaveAttribute('method', 'post');
    await pin.press('Enter'); // implicit submission: blocked while the button is disabled
    expect(new URL(page.url()).search).toBe('');

    release();
    await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
    await expect(documento).toHaveValue(DEMO.documento);
    await expect(pin).toHaveValue(DEMO.pin);
    const answer = page.waitForResponse((r) => r.url().endsWith(loginPaths.login));
    await submit.click();
    expect((await answer).request().method()).toBe('POST');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the form shows while the session check is in flight', async ({ page }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(sessionPaths.session, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/login');
    await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
    await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
    await expect(page.getByLabel(copy.documentoLabel, { exact: true })).toBeEditable();
    await expect(page.getByRole('status')).toHaveCount(0);
    release();
  });
});

test.describe('/onboarding and /recuperar-pin before hydration', () => {
  test('the mobile typed before the JavaScript ran is kept and the code is sent', async ({
    page,
  }) => {
    const copy = onboarding.registration;
    const celular = uniqueCelular().slice(1);
    const release = await holdScripts(page);
    await page.goto('/onboarding', { waitUntil: 'commit' });
    const phone = page.getByLabel(copy.phoneLabel, { exact: true });
    const submit = page.getByRole('button', { name: copy.submit, exact: true });
    await phone.fill(celular);
    await expect(submit).toBeDisabled();

    release();
    await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
    await expect(phone).toHaveValue(celular);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(
      page.getByRole('heading', { level: 1, name: onboarding.verification.title }),
    ).toBeVisible();
  });

  test('the document and mobile typed before the JavaScript ran are kept', async ({ page }) => {
    const copy = recovery.request;
    const release = await holdScripts(page);
    await page.goto('/recuperar-pin', { waitUntil: 'commit' });
    const documento = page.getByLabel(copy.documentoLabel, { exact: true });
    const celular = page.getByLabel(copy.celularLabel, { exact: true });
    const submit = page.getByRole('button', { name: copy.submit, exact: true });
    await documento.fill(DEMO.documento);
    await celular.fill('0981123456');
    await expect(submit).toBeDisabled();

    release();
    await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
    await expect(documento).toHaveValue(DEMO.documento);
    await expect(celular).toHaveValue('0981123456');
    await expect(submit).toBeEnabled();
  });
});

/**
 * A patient who starts typing as soon as a prerendered form shows keeps typing while React takes
 * over: the focus stays in their field and every keystroke lands there and reaches the server.
 * CI lost the mobile on /onboarding this way: the step's title took the focus when the page
 * hydrated, so the rest of the typing (or all of a `fill` whose text arrived just after) went to
 * the title, and the field was empty at submit. Deterministic: the first part is typed while the
 * scripts (or only the route's chunk) are held, the rest once React has finished mounting.
 */
type TypedForm = {
  route: string;
  /** The route's lazy chunk (dist/assets/<chunk>-<hash>.js). */
  chunk: string;
  /** The request the form's submit sends. */
  api: string;
  /** How the test knows React has mounted the form (and run its effects). */
  mounted: 'submit enabled' | 'props attached';
  /** Labels and values, in the order the patient fills them. */
  fields: () => [label: string, value: string][];
  submit: string;
};

test.describe('typing across hydration', () => {
  const forms: TypedForm[] = [
    {
      route: '/onboarding',
      chunk: 'OnboardingFlow',
      api: onboardingPaths.start,
      // The wizard's 'Continuar' is enabled as soon as React has hydrated and mounted the step.
      mounted: 'submit enabled',
      fields: () => [[onboarding.registration.phoneLabel, uniqueCelular().slice(1)]],
      submit: onboarding.registration.submit,
    },
    {
      route: '/recuperar-pin',
      chunk: 'RecoveryFlow',
      api: recoveryPaths.sendPinOtp,
      // Enabled once both fields are in the machine: the document only through adoption.
      mounted: 'submit enabled',
      fields: () => [
        [recovery.request.documentoLabel, uniqueDocumento()],
        [recovery.request.celularLabel, uniqueCelular()],
      ],
      submit: recovery.request.submit,
    },
    {
      route: '/login',
      chunk: 'LoginFlow',
      api: loginPaths.login,
      // 'Validar' waits for a valid PIN: React's props on every element is the sign here.
      mounted: 'props attached',
      fields: () => [
        [copy.documentoLabel, DEMO.documento],
        [copy.pinLabel, DEMO.pin],
      ],
      submit: copy.submit,
    },
  ];

  for (const form of forms) {
    for (const held of ['every script', 'the route chunk'] as const) {
      test(`${form.route}: typed while ${held} loads, then on after hydration: all kept and sent`, async ({
        page,
      }) => {
        const fields = form.fields();
        let release: () => void;
        if (held === 'every script') release = await holdScripts(page);
        else {
          const released = new Promise<void>((resolve) => (release = resolve));
          await page.route(`**/assets/${form.chunk}-*.js`, async (route) => {
            await released;
            await route.continue();
          });
        }
        await page.goto(form.route, { waitUntil: 'commit' });
        if (held === 'the route chunk')
          // React owns the root (its listeners are attached) while the form's chunk is held.
          await page.waitForFunction(() =>
            Object.keys(document.getElementById('root') ?? {}).some((k) =>
              k.startsWith('__reactContainer$'),
            ),
          );
        // Every field but the last typed whole, the last one half: the patient is in it.
        const [lastLabel, lastValue] = fields.at(-1)!;
        for (const [label, value] of fields.slice(0, -1))
          await page.getByLabel(label, { exact: true }).pressSequentially(value);
        const last = page.getByLabel(lastLabel, { exact: true });
        const half = Math.ceil(lastValue.length / 2);
        await last.pressSequentially(lastValue.slice(0, half));

        release!();
        const submit = page.getByRole('button', { name: form.submit, exact: true });
        await expect.poll(() => unhydrated(page), { timeout: 20_000 }).toBe(0);
        if (form.mounted === 'submit enabled') await expect(submit).toBeEnabled();
        // The patient goes on typing where they were, without tapping the field again.
        await page.keyboard.type(lastValue.slice(half));
        for (const [label, value] of fields)
          await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
        await expect(last).toBeFocused();

        const sent = page.waitForRequest((r) => r.url().endsWith(form.api));
        await submit.click();
        const body = JSON.stringify((await sent).postDataJSON());
        for (const [, value] of fields) expect(body).toContain(value);
      });
    }
  }
});
