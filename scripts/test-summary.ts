/**
 * Counts per test tier from the JSON reports of the last `npm test` (Vitest and Playwright), and a
 * closing 'N passed, N failed' line. Exit code 1 when a report is missing or anything failed.
 */
import { existsSync, readFileSync } from 'node:fs';

type Counts = { passed: number; failed: number; skipped: number };

const TIERS: [RegExp, string][] = [
  [/tests\/machines\//, 'machine'],
  [/tests\/stories\/coverage/, 'story coverage'],
  [/tests\/stories\//, 'stories rendered (axe)'],
  [/tests\/screens\//, 'screens'],
  [/tests\/contract\//, 'contract'],
  [/tests\/server\//, 'server'],
  [/tests\/identity\//, 'engine native, machine Node'],
];

const tiers = new Map<string, Counts>();
const add = (tier: string, status: string) => {
  const c = tiers.get(tier) ?? { passed: 0, failed: 0, skipped: 0 };
  // 'flaky': a Playwright test that failed, then passed when run again (named below the table).
  if (status === 'passed' || status === 'expected' || status === 'flaky') c.passed++;
  // 'pending' is a test whose worker died before it ran (scripts/vitest-unfinished.ts): not a pass.
  else if (status === 'skipped' || status === 'todo') c.skipped++;
  else c.failed++;
  tiers.set(tier, c);
};

type VitestReport = { testResults: { name: string; assertionResults: { status: string }[] }[] };
const readVitest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as VitestReport;

let missing = false;
const vitestFile = 'reports/vitest.json';
if (existsSync(vitestFile)) {
  for (const file of readVitest(vitestFile).testResults) {
    const tier = TIERS.find(([re]) => re.test(file.name))?.[1] ?? 'other';
    for (const t of file.assertionResults) add(tier, t.status);
  }
} else missing = true;

// The server tier again, on the throwaway PostgreSQL cluster (scripts/pg-test-cluster.sh), on Node.js 24.
const postgresFile = 'reports/vitest-postgres.json';
if (existsSync(postgresFile)) {
  for (const file of readVitest(postgresFile).testResults)
    for (const t of file.assertionResults) add('server on PostgreSQL, Node 24', t.status);
} else missing = true;

// The engine tier again, on Node.js 24.
const node24File = 'reports/vitest-node24.json';
if (existsSync(node24File)) {
  for (const file of readVitest(node24File).testResults)
    for (const t of file.assertionResults) add('engine on Node.js 24', t.status);
} else missing = true;

const pwFile = 'reports/playwright.json';
type PwSuite = {
  suites?: PwSuite[];
  specs?: { title: string; file: string; tests: { status: string }[] }[];
};
const flaky: string[] = [];
if (existsSync(pwFile)) {
  const walk = (s: PwSuite): void => {
    s.specs?.forEach((spec) =>
      spec.tests.forEach((t) => {
        add('e2e (Chromium)', t.status);
        if (t.status === 'flaky') flaky.push(`${spec.file} › ${spec.title}`);
      }),
    );
    s.suites?.forEach(walk);
  };
  walk(JSON.parse(readFileSync(pwFile, 'utf8')) as PwSuite);
} else missing = true;

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
console.log(`${'tier'.padEnd(31)} passed  failed  skipped`);
for (const [tier, c] of tiers) {
  console.log(
    `${tier.padEnd(31)} ${String(c.passed).padStart(6)}  ${String(c.failed).padStart(6)}  ${String(c.skipped).padStart(7)}`,
  );
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
}
if (missing)
  console.log(
    'a test report is missing (reports/vitest.json, vitest-postgres.json, vitest-node24.json or playwright.json)',
  );
for (const name of flaky) console.log(`flaky (failed, then passed when run again): ${name}`);
console.log(
  `${total.passed} passed (${flaky.length} of them flaky), ${total.failed} failed, ${total.skipped} skipped`,
);
process.exit(missing || total.failed ? 1 : 0);
