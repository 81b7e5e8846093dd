import { describe, expect, it } from 'vitest';
import { cardDateIso, cardDateParts } from '../../contract/card-date';
import { pinsFromBirthDate } from '../../contract/pin';
import { formatCardDate } from '../../machines/shared/format';

// One card-date parser under the PIN rule, the stored birth date and the review's display (issue 27).

describe('the card date', () => {
  it('5/3/1990 gives the PIN rule, the display and the stored 1990-03-05', () => {
    expect(cardDateParts('5/3/1990')).toEqual({ d: '05', m: '03', y: '1990' });
    expect(cardDateIso('5/3/1990')).toBe('1990-03-05');
    expect(formatCardDate('5/3/1990')).toBe('05/03/1990');
    expect(pinsFromBirthDate('5/3/1990')).toEqual(pinsFromBirthDate('1990-03-05'));
    expect(pinsFromBirthDate('5/3/1990').has('050390')).toBe(true);
  });

  it.each([
    ['05/03/1990', '1990-03-05'],
    ['05-03-1990', '1990-03-05'],
    ['05.03.1990', '1990-03-05'],
    [' 1990-03-05 ', '1990-03-05'],
    ['29/02/2000', '2000-02-29'],
  ])('%s is %s', (written, iso) => {
    expect(cardDateIso(written)).toBe(iso);
    expect(formatCardDate(written)).toBe(
      `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`,
    );
  });

  it.each(['no es fecha', '31/02/1990', '29/02/1990', '1990-13-05', '0/3/1990', '5/3/90', ''])(
    'refuses %j everywhere: no parts, nothing stored, no PIN, shown as it came',
    (written) => {
      expect(cardDateParts(written)).toBeNull();
      expect(cardDateIso(written)).toBeNull();
      expect(pinsFromBirthDate(written).size).toBe(0);
      expect(formatCardDate(written)).toBe(written.trim());
    },
  );
});
