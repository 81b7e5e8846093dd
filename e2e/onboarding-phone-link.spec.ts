import { onboarding as copy } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations } from './fixtures';
import { button, heading, test } from './support/kyc';
import { expireLinks, linkFromOutbox, phone, toHandoff } from './support/registration';

// Issue 18 (d): the phone link's refusals, used twice, expired, not a link the server made, each in
// Spanish with the way on. No selfie passes here (the link is refused before it), so this runs
// beside the other tests, not in the one-at-a-time project (e2e/one-at-a-time.ts): its minute is
// mostly the SMS resend wait. The first context's camera permission is withheld, as in
// e2e/onboarding-phone.spec.ts (c).

test.describe.configure({ timeout: 300_000 });
test.use({ cameraPrompt: 'browser' });

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
