import { describe, expect, it } from 'vitest';
import { paraguayDateInWords, paraguayDateTime, paraguayDay } from '../../contract/paraguay-time';

describe("Paraguay's time (one helper for every date a person reads)", () => {
  it('puts a moment in UTC-3 all year, winter included (no daylight saving since October 2024)', () => {
    // 02:00 UTC is still the day before in Asunción; July was UTC-4 under the former rule.
    expect(paraguayDay(new Date('2026-01-15T02:00:00Z'))).toBe('14/01/2026');
    expect(paraguayDateTime(new Date('2026-07-15T12:00:00Z'))).toMatch(/^15\/7\/26,? 9:00/);
    expect(paraguayDateInWords(new Date('2026-11-28T12:00:00Z'))).toBe(
      'sábado, 28 de noviembre de 2026',
    );
  });

  it('answers an empty text for a date that is none', () => {
    expect(paraguayDay(new Date('nada'))).toBe('');
    expect(paraguayDateTime(new Date('nada'))).toBe('');
    expect(paraguayDateInWords(new Date('nada'))).toBe('');
  });
});
