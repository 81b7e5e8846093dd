import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guard, playwrightTimings, tooSlow } from '../../scripts/slow-test-guard';

const timing = (durationMs: number, timeoutMs: number) => ({
  file: 'tests/x.test.ts',
  name: 'x',
  durationMs,
  timeoutMs,
});

/** Playwright's JSON report, as much of it as the guard reads. */
const pwReport = {
  suites: [
    {
      title: 'login.spec.ts',
      suites: [
        {
          title: 'login',
          specs: [
            {
              title: 'logs in',
              file: 'login.spec.ts',
              tests: [{ timeout: 60_000, results: [{ duration: 25_000 }] }],
            },
          ],
        },
      ],
      specs: [
        {
          title: 'loads',
          file: 'login.spec.ts',
          tests: [{ timeout: 60_000, results: [{ duration: 3_000 }] }],
        },
      ],
    },
  ],
};

describe('the slow-test guard', () => {
  it('flags a test over a third of its own timeout, and only that', () => {
    expect(tooSlow(timing(6_666, 20_000))).toBe(false);
    expect(tooSlow(timing(6_667, 20_000))).toBe(true);
    expect(tooSlow(timing(40_000, 180_000))).toBe(false);
  });

  it("reads Playwright's report with each test's own timeout and its suite titles", () => {
    const timings = playwrightTimings(pwReport);
    expect(timings).toEqual([
      { file: 'e2e/login.spec.ts', name: 'loads', durationMs: 3_000, timeoutMs: 60_000 },
      { file: 'e2e/login.spec.ts', name: 'login > logs in', durationMs: 25_000, timeoutMs: 60_000 },
    ]);
    expect(timings.filter(tooSlow).map((t) => t.name)).toEqual(['login > logs in']);
  });

  it('fails the run naming the slow test, and passes a run without one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'guard-'));
    const slow = path.join(dir, 'slow.json');
    const fine = path.join(dir, 'fine.json');
    writeFileSync(slow, JSON.stringify([timing(9_000, 20_000)]));
    writeFileSync(fine, JSON.stringify([timing(1_000, 20_000)]));
    expect(guard([fine])).toMatchObject({ code: 0, err: [] });
    const failed = guard([slow]);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('  9.0 s (timeout 20.0 s)  tests/x.test.ts > x');
    expect(guard([path.join(dir, 'none.json')]).code).toBe(1);
  });
});
