import { describe, expect, it } from 'vitest';
import { merged, unfinished } from '../../scripts/vitest-unfinished';

// The shape Vitest's JSON reporter gave for a file whose worker called process.abort() in its
// second test (measured 2026-11-30): the file 'passed', the test that died and the ones after it
// 'pending', a skipped test 'skipped'.
const file = (name: string, ...statuses: string[]) => ({
  name,
  status: statuses.includes('failed') ? 'failed' : 'passed',
  assertionResults: statuses.map((status) => ({ status })),
});
const report = (...testResults: ReturnType<typeof file>[]) => ({
  numFailedTests: testResults
    .flatMap((f) => f.assertionResults)
    .filter((t) => t.status === 'failed').length,
  numFailedTestSuites: testResults.filter((f) => f.status === 'failed').length,
  testResults,
});

describe('a tier whose worker died', () => {
  it('lists only the files with a test that never ran, not a skipped one', () => {
    const r = report(
      file('/a.test.ts', 'passed', 'skipped'),
      file('/dead.test.ts', 'passed', 'pending', 'pending'),
      file('/b.test.ts', 'passed'),
    );
    expect(unfinished(r)).toEqual(['/dead.test.ts']);
    expect(unfinished(report(file('/a.test.ts', 'passed', 'skipped')))).toEqual([]);
  });

  it('runs nothing again when a test or a file failed', () => {
    expect(
      unfinished(report(file('/a.test.ts', 'failed'), file('/dead.test.ts', 'pending'))),
    ).toBeNull();
    const suiteError = { ...report(file('/dead.test.ts', 'pending')), numFailedTestSuites: 1 };
    expect(unfinished(suiteError)).toBeNull();
  });

  it('puts the second run of a file in its place: every test counted once, a failure kept', () => {
    const first = report(file('/a.test.ts', 'passed'), file('/dead.test.ts', 'passed', 'pending'));
    const again = report(file('/dead.test.ts', 'passed', 'failed'));
    const m = merged(first, again);
    expect(m.testResults.map((f) => f.name)).toEqual(['/a.test.ts', '/dead.test.ts']);
    expect(m.testResults[1]!.assertionResults.map((t) => t.status)).toEqual(['passed', 'failed']);
  });
});
