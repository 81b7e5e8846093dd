import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  test,
  type Browser,
  type BrowserContext,
  type LaunchOptions,
  type Page,
} from '@playwright/test';
import { isAlive } from './pid';

/**
 * One live face at a time across the one-at-a-time project's workers (e2e/one-at-a-time.ts): a
 * selfie challenge or a kiosk keeps more than one of the machine's 2 cores busy (the synthetic
 * camera, the page sending frames, the server's face models) and refuses a patient whose frames
 * come late, so two never run at once; the rest of those journeys (the phone's SMS, the PIN, the
 * cédula's upload, the back office, waits) runs beside the other worker's live face.
 *
 * The lock is a folder made with mkdir (atomic) in the run's data folder, holding its owner's pid:
 * a holder that died (a killed worker) is noticed and its lock taken. Re-entrant: a worker's tasks
 * share its hold (a refused selfie tried again, a kiosk opened while a desk's camera is on). Not
 * covered: two waiters both taking a dead holder's lock at the same moment (each removes, one may
 * remove the other's new one): two live faces at once after a worker's death, which the selfie's
 * retry and the test's retries absorb.
 */
const lockDir = () => path.join(process.env.E2E_DATA_DIR ?? 'test-results', 'live-face.lock');
const POLL_MS = 100;

let held = 0;

/** The lock's owner, or null while it is being made (mkdir done, pid not yet written). */
function owner(dir: string): number | null {
  try {
    return Number(readFileSync(path.join(dir, 'pid'), 'utf8')) || null;
  } catch {
    return null;
  }
}

/**
 * Waits for the lock (re-entrant in this worker). With `abandoned`, stops waiting once it says so
 * (the page or context that asked is gone) and returns false, holding nothing.
 */
export async function acquireLiveFace(abandoned: () => boolean = () => false): Promise<boolean> {
  const dir = lockDir();
  let ownerless = 0;
  for (;;) {
    // This worker holds it (another of its tasks took it meanwhile): join.
    if (held > 0) {
      held += 1;
      return true;
    }
    if (abandoned()) return false;
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      held = 1;
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = owner(dir);
    // A holder that died, or one that died between making the folder and writing its pid (a
    // second without one).
    ownerless = pid === null ? ownerless + 1 : 0;
    if ((pid !== null && !isAlive(pid)) || ownerless * POLL_MS > 1_000)
      rmSync(dir, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export function releaseLiveFace(): void {
  if (held === 0 || --held > 0) return;
  rmSync(lockDir(), { recursive: true, force: true });
}

/** `work` with the live-face lock held. */
export async function withLiveFace<T>(work: () => Promise<T>): Promise<T> {
  await acquireLiveFace();
  try {
    return await work();
  } finally {
    releaseLiveFace();
  }
}

/**
 * A Chromium whose fake camera plays a file (a kiosk, a health centre's desk), launched with the
 * lock held; the lock goes when the browser closes (the test's, or its fixture's at the end).
 */
export async function launchLive(options: LaunchOptions): Promise<Browser> {
  await acquireLiveFace();
  try {
    const browser = await chromium.launch(options);
    browser.once('disconnected', releaseLiveFace);
    return browser;
  } catch (err) {
    releaseLiveFace();
    throw err;
  }
}

/** Every test of the calling spec holds the lock from its start to its end (the duplicate spec). */
export function liveFaceThroughEachTest(): void {
  test.beforeEach(async () => {
    await acquireLiveFace();
  });
  test.afterEach(releaseLiveFace);
}

/**
 * The synthetic front camera of `context` opens only with the lock held, and lets it go when its
 * stream ends (e2e/support/synthetic-camera.browser.ts calls `__e2eLiveFace`); what a page still
 * holds when it closes (closed with its camera on) is let go then.
 */
export async function bindLiveFace(context: BrowserContext): Promise<void> {
  const holds = new Map<Page, number>();
  const letGo = (page: Page) => {
    for (let n = holds.get(page) ?? 0; n > 0; n--) releaseLiveFace();
    holds.delete(page);
  };
  await context.exposeBinding(
    '__e2eLiveFace',
    async ({ page }: { page: Page }, op: 'acquire' | 'release') => {
      if (op === 'release') {
        const n = holds.get(page) ?? 0;
        if (n > 0) {
          holds.set(page, n - 1);
          releaseLiveFace();
        }
        return;
      }
      if (!(await acquireLiveFace(() => page.isClosed()))) return;
      if (page.isClosed()) return releaseLiveFace();
      if (!holds.has(page)) page.once('close', () => letGo(page));
      holds.set(page, (holds.get(page) ?? 0) + 1);
    },
  );
}

/** Whether the running test is in the one-at-a-time project (playwright.config.ts). */
export function inOneAtATime(): boolean {
  return test.info().project.name === 'one-at-a-time';
}
