import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import type { OperatorRole } from '../../contract/operators';
import { caseCopy, operador, queueCopy } from '../../src/copy/es.operators';
import { e2eEnv, expect } from '../fixtures';

/**
 * The back office in e2e (issue 30): operators created with the operator command while the e2e
 * server runs (`npm run operadores -- add`, through the server's socket), each in a browser context
 * of its own with a virtual WebAuthn authenticator (Chrome DevTools Protocol), as a desk computer
 * with its platform passkey.
 */

/** The back office's address: localhost, as passkeys require a host name. */
export const OPERATOR_BASE_URL = `http://localhost:${e2eEnv.port}`;

let operatorCounter = 0;

/** A user name no other test (or run) uses. */
export function uniqueUsuario(prefix: string): string {
  operatorCounter += 1;
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0);
  return `${prefix}.${worker}${operatorCounter}${Date.now().toString(36).slice(-4)}`;
}

/** `npm run operadores -- add`: the command's JSON line, with the one-time enrolment link. */
export function addOperator(
  usuario: string,
  nombre: string,
  rol: OperatorRole,
  /** another server's (e2e/duplicate-registration.spec.ts runs its own): its data and address */
  server: { dataDir: string; baseURL: string } = {
    dataDir: e2eEnv.dataDir,
    baseURL: OPERATOR_BASE_URL,
  },
): { link: string } {
  const out = execFileSync(
    'npm',
    [
      'run',
      '-s',
      'operadores',
      '--',
      'add',
      '--usuario',
      usuario,
      '--nombre',
      nombre,
      '--rol',
      rol,
    ],
    {
      // The link opens on localhost: browsers refuse passkeys on an IP address (127.0.0.1).
      env: {
        ...process.env,
        DATA_DIR: server.dataDir,
        LOG_LEVEL: 'warn',
        OPERATOR_ORIGIN: server.baseURL,
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const line = out.trim().split('\n').pop() ?? '';
  const parsed = JSON.parse(line) as { link?: string };
  if (!parsed.link) throw new Error(`operadores add: no link in ${line}`);
  return { link: parsed.link };
}

/** A desk: its own context (cookies) and page, with a platform authenticator that holds passkeys. */
export async function operatorDesk(
  browser: Browser,
  baseURL = OPERATOR_BASE_URL,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({
    baseURL,
    permissions: ['camera'],
    locale: 'es-PY',
    timezoneId: 'America/Asuncion',
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp };
}

/**
 * The operator's first visit: the enrolment link, 'Crear llave de acceso' (the virtual
 * authenticator makes the passkey), logged in at the queue; then out and in again with the passkey.
 */
export async function enrolAndLogIn(page: Page, link: string, nombre: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByText(operador.enrolment.greeting(nombre))).toBeVisible();
  await page.getByRole('button', { name: operador.enrolment.submit, exact: true }).click();
  await expect(page.getByRole('heading', { name: queueCopy.title })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: operador.header.logout, exact: true }).click();
  await page
    .getByRole('button', { name: operador.login.submit, exact: true })
    .click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: queueCopy.title })).toBeVisible({
    timeout: 30_000,
  });
}

/** 'Tomar el siguiente': the oldest case this operator may decide opens. */
export async function takeNext(page: Page): Promise<void> {
  await page.getByRole('button', { name: queueCopy.claim, exact: true }).click();
  await expect(page.getByRole('button', { name: caseCopy.approve, exact: true })).toBeVisible({
    timeout: 30_000,
  });
}
