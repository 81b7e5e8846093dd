/**
 * A Vitest tier whose test worker died in V8 (scripts/test-all.sh `vitest_tier`): which test files
 * it did not finish, and the report once they ran again.
 *
 *   tsx scripts/vitest-unfinished.ts list <report.json>
 *     prints the files with a test that never ran (status 'pending': its worker died first; a
 *     skipped test is 'skipped'), one per line. Exit 1 when there is none, or when any test or file
 *     failed: a failure is never run again.
 *   tsx scripts/vitest-unfinished.ts merge <report.json> <again.json>
 *     puts each file of the second run in the place of the same file in the first report, so the
 *     tier's report (what scripts/test-summary.ts counts) holds every test once.
 *   tsx scripts/vitest-unfinished.ts timings <timings.json> <again.json>
 *     adds the second run's test times (scripts/timing-reporter.ts) to the first's, for the guard.
 */
import { readFileSync, writeFileSync } from 'node:fs';

type FileResult = { name: string; status: string; assertionResults: { status: string }[] };
type Report = { numFailedTests: number; numFailedTestSuites: number; testResults: FileResult[] };

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;

/** The files a dead worker left unfinished; null when the report has a failure. */
export function unfinished(report: Report): string[] | null {
  const failed =
    report.numFailedTests > 0 ||
    report.numFailedTestSuites > 0 ||
    report.testResults.some(
      (f) => f.status === 'failed' || f.assertionResults.some((t) => t.status === 'failed'),
    );
  if (failed) return null;
  return report.testResults
    .filter((f) => f.assertionResults.some((t) => t.status === 'pending'))
    .map((f) => f.name);
}

/** The first report with each file of the second in its place (and the second's new files). */
export function merged(first: Report, again: Report): Report {
  const byName = new Map(again.testResults.map((f) => [f.name, f]));
  const testResults = first.testResults.map((f) => byName.get(f.name) ?? f);
  for (const f of again.testResults)
    if (!first.testResults.some((g) => g.name === f.name)) testResults.push(f);
  return { ...first, testResults };
}

const [command, file, second] = process.argv.slice(2);
if (command === 'list' && file) {
  const files = unfinished(read(file));
  if (!files?.length) process.exit(1);
  console.log(files.join('\n'));
} else if (command === 'merge' && file && second) {
  writeFileSync(file, JSON.stringify(merged(read(file), read(second))));
} else if (command === 'timings' && file && second) {
  const times = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as unknown[];
  writeFileSync(file, JSON.stringify([...times(file), ...times(second)], null, 1));
} else if (command !== undefined) {
  console.error(
    'usage: tsx scripts/vitest-unfinished.ts list <report.json> | merge|timings <first.json> <again.json>',
  );
  process.exit(2);
}
