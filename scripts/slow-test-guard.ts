/**
 * Watches test times against their own timeouts (issue 32; issue 43 item 15). Reads the Vitest
 * timing files written by scripts/timing-reporter.ts and Playwright's JSON report; prints the ten
 * slowest tests and every test that took more than a third of its timeout (the signal: such a test
 * passes on an idle machine and may time out on a busy one), and fails `npm test` only for a test
 * past two thirds of it, near its timeout: a third failed a green suite at load 3-7 exactly where
 * the guard should help. Usage:
 *   tsx scripts/slow-test-guard.ts reports/vitest-timings.json [reports/playwright.json ...]
 * A slow test gets a fix, or an explicit timeout that matches its work, with a comment saying why.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { TestTiming } from './timing-reporter';

/** Over this share of its timeout a test is printed as slow. */
const SLOW_SHARE = 1 / 3;
/** Over this share it is near its timeout: the run fails. */
const FAIL_SHARE = 2 / 3;

type PwResult = { duration: number };
type PwTest = { timeout: number; results: PwResult[] };
type PwSpec = { title: string; file: string; tests: PwTest[] };
type PwSuite = { title?: string; suites?: PwSuite[]; specs?: PwSpec[] };

/** Playwright's JSON report: one timing per test run (each retry is a run of its own). */
export function playwrightTimings(report: PwSuite): TestTiming[] {
  const out: TestTiming[] = [];
  const walk = (suite: PwSuite, titles: string[]) => {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          out.push({
            file: `e2e/${spec.file}`,
            name: [...here.slice(1), spec.title].join(' > '),
            durationMs: result.duration,
            timeoutMs: test.timeout,
          });
    for (const child of suite.suites ?? []) walk(child, here);
  };
  walk(report, []);
  return out;
}

const over = (share: number) => (t: TestTiming) =>
  t.timeoutMs > 0 && t.durationMs > t.timeoutMs * share;

/** Took more than a third of its timeout: printed, the run goes on. */
export const slow = over(SLOW_SHARE);
/** Took more than two thirds of its timeout: the run fails. */
export const tooSlow = over(FAIL_SHARE);

function read(file: string): TestTiming[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as TestTiming[] | PwSuite;
  return Array.isArray(data) ? data : playwrightTimings(data);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What the guard prints (`out`) and complains of (`err`), and its exit code. */
export function guard(files: string[]): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) {
    err.push(`slow-test guard: no report at ${missing.join(', ')}`);
    return { code: 1, out, err };
  }
  const timings = files.flatMap(read);
  const slowest = [...timings].sort((a, b) => b.durationMs - a.durationMs).slice(0, 10);
  out.push(`slow-test guard: ${timings.length} tests; the ten slowest:`);
  for (const t of slowest)
    out.push(
      `  ${seconds(t.durationMs).padStart(8)} of ${seconds(t.timeoutMs)}  ${t.file} > ${t.name}`,
    );
  const line = (t: TestTiming) =>
    `  ${seconds(t.durationMs)} (timeout ${seconds(t.timeoutMs)})  ${t.file} > ${t.name}`;
  const watched = timings.filter((t) => slow(t) && !tooSlow(t));
  if (watched.length) {
    out.push(
      `slow-test guard: ${watched.length} test(s) took more than a third of their timeout ` +
        '(not failing the run; worth a look):',
    );
    watched.forEach((t) => out.push(line(t)));
  }
  const offenders = timings.filter(tooSlow);
  if (!offenders.length) return { code: 0, out, err };
  err.push(
    `slow-test guard: ${offenders.length} test(s) took more than two thirds of their timeout:`,
  );
  offenders.forEach((t) => err.push(line(t)));
  err.push('Fix the test, or give it an explicit timeout that matches its work, saying why.');
  return { code: 1, out, err };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const { code, out, err } = guard(process.argv.slice(2));
  out.forEach((line) => console.log(line));
  err.forEach((line) => console.error(line));
  process.exit(code);
}
