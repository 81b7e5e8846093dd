import type { BrowserContext, Page } from '@playwright/test';
import { cameraErrors } from '../src/copy/es.camera';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations, uniqueCelular } from './fixtures';
import { button, heading, kyc, PIN, test, useSelfieCamera } from './support/kyc';
import {
  choosePin,
  expireLinks,
  finishIdentity,
  linkFromOutbox,
  phone,
  proveMobile,
} from './support/registration';

// Issue 18 (c) and (d): continuing on the phone. The first browser context has no usable camera
// (the permission withheld); 'Seguir en mi celular' sends an SMS with a one-time link; a second
// context (a phone, the fake camera allowed) opens the link from the development outbox, does the
// selfie and the cédula and finishes; the first context shows the completion by itself. Then the
// link's refusals: used twice, expired, not a link the server made. Blink seed 5 (the phone's
// selfie); card 5 (no other spec registers it).

test.describe.configure({ timeout: 300_000 });
test.use({ cameraPrompt: 'browser', blinkSeed: 5 });

/**
 * A new patient's steps 0 to 4 with the camera permission withheld: the selfie says so and offers
 * the phone, which is chosen. Returns the mobile.
 */
async function toHandoff(page: Page, context: BrowserContext): Promise<string> {
  await context.clearPermissions();
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await choosePin(page, PIN);
  await button(page, copy.welcome.next).click();
  await expect(page.getByText(cameraErrors.permissionDenied, { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await button(page, kyc.handoff.action).click();
  await expect(heading(page, copy.handoff.title)).toBeFocused();
  await expect(page.getByTestId('handoff-stage')).toHaveText(copy.handoff.stages.waiting);
  return celular;
}

test("(c) no camera here: 'Seguir en mi celular', the phone finishes, this page shows the completion", async ({
  page,
  context,
  browser,
  selfieCamera,
  blinkSeed,
}) => {
  const celular = await toHandoff(page, context);
  await expectNoAxeViolations(page);

  const link = await linkFromOutbox(page, celular);
  const handset = await phone(browser);
  await useSelfieCamera(handset, selfieCamera, blinkSeed);
  try {
    const mobile = await handset.newPage();
    await mobile.goto(link);
    // The token leaves the address bar once read.
    await expect(mobile).toHaveURL(/\/onboarding\/celular$/);
    await expect(heading(mobile, copy.welcome.title)).toBeFocused({ timeout: 30_000 });
    await expect(page.getByTestId('handoff-stage')).toHaveText(
      new RegExp(`${copy.handoff.stages.opened}|${copy.handoff.stages.selfie}`),
      { timeout: 15_000 },
    );
    await button(mobile, copy.welcome.next).click();
    await expect(heading(mobile, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
    // The phone is where the registration continues: no second handoff is offered there.
    await expect(button(mobile, kyc.handoff.action)).toHaveCount(0);
    await finishIdentity(mobile, 'card-5');
    // The used link opened again after the registration finished (issue 29 item 16).
    const again = await handset.newPage();
    await again.goto(link);
    await expect(again.getByText('Tu registro ya está completo. Ingresá.')).toBeVisible({
      timeout: 30_000,
    });
    await expect(again.getByRole('link', { name: copy.goToLogin })).toBeVisible();
    await expect(again.getByText(/Pedí uno nuevo/)).toHaveCount(0);
  } finally {
    await handset.close();
  }
  // The first page follows the registration and shows its end by itself.
  await expect(heading(page, copy.complete.title)).toBeVisible({ timeout: 15_000 });
});

test('(d) the link used twice, after expiry, or not made by the server: refused in Spanish', async ({
  page,
  context,
  browser,
}) => {
  const celular = await toHandoff(page, context);
  const first = await linkFromOutbox(page, celular);

  const handset = await phone(browser);
  try {
    const opened = await handset.newPage();
    await opened.goto(first);
    await expect(heading(opened, copy.welcome.title)).toBeFocused({ timeout: 30_000 });

    // Used twice.
    const twice = await handset.newPage();
    await twice.goto(first);
    await expect(twice.getByText(/Este enlace ya se usó/)).toBeVisible({ timeout: 30_000 });
    await expect(button(twice, copy.link.restart)).toBeVisible();
    await expectNoAxeViolations(twice);

    // A new link (after the SMS resend wait), expired before it is opened.
    await expect(async () => {
      await button(page, copy.handoff.resend).click({ timeout: 3000 });
      await expect(page.getByTestId('handoff-stage')).toBeVisible({ timeout: 3000 });
      expect(await linkFromOutbox(page, celular)).not.toBe(first);
    }).toPass({ intervals: [5000], timeout: 60_000 });
    const second = await linkFromOutbox(page, celular);
    await expireLinks(page, celular);
    const late = await handset.newPage();
    await late.goto(second);
    await expect(late.getByText(/Este enlace venció/)).toBeVisible({ timeout: 30_000 });

    // A token the server never made (or one cut short).
    const forged = await handset.newPage();
    await forged.goto(second.replace(/#.*$/, `#${'A'.repeat(43)}`));
    await expect(forged.getByText(/Este enlace no es válido/)).toBeVisible({ timeout: 30_000 });
    // The way on: the mobile, verified by SMS.
    await button(forged, copy.link.restart).click();
    await expect(heading(forged, copy.registration.title)).toBeFocused();
  } finally {
    await handset.close();
  }
});
