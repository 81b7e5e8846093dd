/**
 * A Vitest reporter that keeps each test's duration beside its own timeout (the configured one, or
 * the one the test sets), for scripts/slow-test-guard.ts: it prints a test that took more than a
 * third of its timeout and fails `npm test` only past two thirds, near the timeout itself.
 * Writes the file named by TIMING_REPORT (default reports/vitest-timings.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { experimental_getRunnerTask, type Reporter, type TestCase } from 'vitest/node';

export type TestTiming = { file: string; name: string; durationMs: number; timeoutMs: number };

export default class TimingReporter implements Reporter {
  private readonly timings: TestTiming[] = [];

  onTestCaseResult(test: TestCase): void {
    const duration = test.diagnostic()?.duration;
    if (duration === undefined || test.result().state === 'skipped') return;
    this.timings.push({
      file: path.relative(process.cwd(), test.module.moduleId),
      name: test.fullName,
      durationMs: Math.round(duration),
      timeoutMs: experimental_getRunnerTask(test).timeout,
    });
  }

  onTestRunEnd(): void {
    const out = process.env.TIMING_REPORT ?? 'reports/vitest-timings.json';
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(this.timings, null, 1));
  }
}
