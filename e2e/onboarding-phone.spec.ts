import { onboarding as copy } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, heading, kyc, test, useSelfieCamera } from './support/kyc';
import { finishIdentity, linkFromOutbox, phone, toHandoff } from './support/registration';

// Issue 18 (c): continuing on the phone. The first browser context has no usable camera (the
// permission withheld); 'Seguir en mi celular' sends an SMS with a one-time link; a second context
// (a phone, the fake camera allowed) opens the link from the development outbox, does the selfie
// and the cédula and finishes; the first context shows the completion by itself. The link's
// refusals (d) pass no selfie: e2e/onboarding-phone-link.spec.ts, beside the other tests.
// Synthetic patient 5 (the phone's selfie); card 5 (no other spec registers it).

test.describe.configure({ timeout: 300_000 });
test.use({ cameraPrompt: 'browser', selfieSeed: 5 });

test("(c) no camera here: 'Seguir en mi celular', the phone finishes, this page shows the completion", async ({
  page,
  context,
  browser,
  selfieCamera,
  selfieSeed,
}) => {
  const celular = await toHandoff(page, context);
  await expectNoAxeViolations(page);

  const link = await linkFromOutbox(page, celular);
  const handset = await phone(browser);
  await useSelfieCamera(handset, selfieCamera, selfieSeed);
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
