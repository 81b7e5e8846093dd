import { login as loginCopy } from '../src/copy/es';
import { onboarding as copy } from '../src/copy/es.onboarding';
import { expect, expectNoAxeViolations, uniqueCelular } from './fixtures';
import { button, heading, kyc, PIN, test } from './support/kyc';
import { choosePin, finishIdentity, proveMobile } from './support/registration';

// Issue 18 (a): a registration survives a closed page. The mobile is verified and the PIN chosen;
// the page is closed; the patient comes back, verifies the mobile again with a new SMS code and
// continues at the welcome: no new PIN. The identity step and the registration finish, and the
// patient logs in with the PIN of the first visit (the server kept its hash, never the PIN).
// Synthetic patient 11 (e2e/support/kyc.ts); card 4 (no other spec registers it).

test.describe.configure({ timeout: 300_000 });
test.use({ selfieSeed: 11 });

test('(a) verify, choose a PIN, close the page; back, verify again: the welcome, then finish and log in', async ({
  page,
  context,
}) => {
  const celular = uniqueCelular();
  await proveMobile(page, celular);
  await expect(heading(page, copy.pinCreation.title)).toBeFocused();
  await choosePin(page, PIN);
  await page.close();

  const again = await context.newPage();
  await proveMobile(again, celular);
  await expect(heading(again, copy.welcome.title)).toBeFocused({ timeout: 30_000 });
  await expect(again.getByTestId('onboarding-resumed')).toHaveText(copy.resumed);
  await expect(heading(again, copy.pinCreation.title)).toHaveCount(0);
  await expectNoAxeViolations(again);

  const registers: unknown[] = [];
  again.on('request', (r) => {
    if (r.url().endsWith('/api/onboarding/register')) registers.push(r.postDataJSON());
  });
  await button(again, copy.welcome.next).click();
  await expect(heading(again, kyc.selfie.title)).toBeFocused({ timeout: 30_000 });
  await finishIdentity(again, 'card-4');
  // This page never had the PIN: register went without it.
  expect(registers).toHaveLength(1);
  expect(registers[0]).not.toHaveProperty('pin');

  await again.goto('/login');
  await again.getByLabel(loginCopy.documentoLabel, { exact: true }).fill('4518203');
  await again.getByLabel(loginCopy.pinLabel, { exact: true }).fill(PIN);
  await button(again, loginCopy.submit).click();
  await expect(again).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
});
