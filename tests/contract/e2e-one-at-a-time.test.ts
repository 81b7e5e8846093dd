import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONE_AT_A_TIME_SPECS } from '../../e2e/one-at-a-time';

// The browser suite's live-face journeys run one at a time, alone (playwright.config.ts): a new spec
// that passes a live selfie or the kiosk and is not listed would run beside the other tests, where
// the selfie refused the synthetic patient for frames that came late (2026-12-01).
const dir = path.resolve('e2e');
const specs = readdirSync(dir).filter((f) => f.endsWith('.spec.ts'));
const LIVE_FACE = /\b(passSelfie|finishIdentity|kioskDecision)\(/;

describe('the e2e specs run one at a time', () => {
  it('lists every spec that passes a live selfie or the kiosk', () => {
    const live = specs
      .filter((f) => LIVE_FACE.test(readFileSync(path.join(dir, f), 'utf8')))
      .map((f) => f.replace(/\.spec\.ts$/, ''));
    expect(live.length).toBeGreaterThan(10);
    const listed = new Set<string>(ONE_AT_A_TIME_SPECS);
    expect(live.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('names only specs that exist', () => {
    const names = new Set(specs.map((f) => f.replace(/\.spec\.ts$/, '')));
    expect(ONE_AT_A_TIME_SPECS.filter((name) => !names.has(name))).toEqual([]);
  });
});
