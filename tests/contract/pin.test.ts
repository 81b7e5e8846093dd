import { describe, expect, it } from 'vitest';
import {
  BANNED_PINS,
  isAcceptablePin,
  isPinFromOwnData,
  pinProblem,
  pinsFromBirthDate,
} from '../../contract/pin';

// The PIN rules shared by the browser and the server (issue 20, item 5).

describe('pinProblem', () => {
  it('format, banned, own data, or none', () => {
    expect(pinProblem('12345')).toBe('format');
    expect(pinProblem('12a456')).toBe('format');
    for (const pin of BANNED_PINS) expect(pinProblem(pin)).toBe('banned');
    expect(pinProblem('140387', { birthDate: '1987-03-14' })).toBe('ownData');
    expect(pinProblem('482915', { birthDate: '1987-03-14', documento: '4567890' })).toBeNull();
    expect(isAcceptablePin('482915')).toBe(true);
  });
});

describe('a birth date (14/03/1987) gives', () => {
  const date = '1987-03-14';
  it.each([
    ['DDMMYY', '140387'],
    ['YYMMDD', '870314'],
    ['MMDDYY', '031487'],
    ['DDYYMM', '148703'],
    ['YYDDMM', '871403'],
    ['MMYYDD', '038714'],
    ['DDMMYYYY cut to 6', '140319'],
    ['DDMMYYYY, its last 6', '031987'],
    ['YYYYMMDD cut to 6', '198703'],
    ['MMDDYYYY cut to 6', '031419'],
  ])('%s: %s', (_form, pin) => {
    expect(pinsFromBirthDate(date).has(pin)).toBe(true);
    expect(isPinFromOwnData(pin, { birthDate: date })).toBe(true);
  });

  it('the same set from the card (14/03/1987) and from ISO; nothing from an unreadable date', () => {
    expect(pinsFromBirthDate('14/03/1987')).toEqual(pinsFromBirthDate(date));
    expect(pinsFromBirthDate('14-03-1987')).toEqual(pinsFromBirthDate(date));
    expect(pinsFromBirthDate('1987-13-14').size).toBe(0);
    expect(pinsFromBirthDate('no es fecha').size).toBe(0);
  });

  it('unpadded day and month: 4/3/1987 gives 431987 and 198743', () => {
    const set = pinsFromBirthDate('04/03/1987');
    expect(set.has('431987')).toBe(true);
    expect(set.has('198743')).toBe(true);
  });

  it('leaves other PINs alone', () => {
    for (const pin of ['482915', '735194', '270583'])
      expect(isPinFromOwnData(pin, { birthDate: date })).toBe(false);
  });
});

describe('the document number', () => {
  it('any 6 digits in a row, separators ignored', () => {
    for (const pin of ['271956', '719564'])
      expect(isPinFromOwnData(pin, { documento: '2.719.564' })).toBe(true);
    expect(isPinFromOwnData('275641', { documento: '2.719.564' })).toBe(false);
    // a 5-digit document has no 6 digits in a row
    expect(isPinFromOwnData('123450', { documento: '12345' })).toBe(false);
  });
});
