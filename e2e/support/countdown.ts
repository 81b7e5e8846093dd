import type { Page } from '@playwright/test';
import { onboarding } from '../../src/copy/es.onboarding';
import { expect } from '../fixtures';

/**
 * The code step's 'Podés pedir un nuevo código en N s.' with the page's clock stopped (installed
 * with `page.clock.install()` before the page): stops it, and returns the N shown. Only
 * `page.clock.runFor` moves the countdown from there. A loaded machine showed 20 s where a test
 * expected the first 30 (CI, 2026-12-01) and reached 0 between two checks of the last second
 * (load 5-8): the seconds left are read, not assumed. Where the wait starts at 30 is the screens'
 * unit tests' (tests/screens/recovery.test.tsx).
 */
export async function pauseCountdown(page: Page): Promise<number> {
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 250));
  const [before, after] = onboarding.verification.countdown(0).split('0');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const counting = page.getByText(new RegExp(`^${escape(before!)}\\d+${escape(after!)}$`));
  await expect(counting).toBeVisible();
  const left = Number(/\d+/.exec((await counting.textContent()) ?? '')?.[0]);
  expect(left).toBeLessThanOrEqual(30);
  return left;
}
