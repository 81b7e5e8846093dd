import { describe, expect, it } from 'vitest';
import {
  isParaguayMobile,
  normalizeParaguayPhone,
  normalizePhoneDigits,
} from '../../contract/phone';

describe('normalizePhoneDigits: the rules of spec section 3', () => {
  it('keeps digits only', () => {
    expect(normalizePhoneDigits('(0981) 123-456')).toBe('0981123456');
    expect(normalizePhoneDigits('abc')).toBe('');
  });

  it('595 + 12 digits with the doubled 5959 becomes 0 + the rest', () => {
    expect(normalizePhoneDigits('595981123456')).toBe('0981123456');
    expect(normalizePhoneDigits('+595 981 123 456')).toBe('0981123456');
  });

  it('a 12-digit 595 number without the doubled 5959 is not rewritten', () => {
    expect(normalizePhoneDigits('595211234567')).toBe('595211234567');
  });

  it('595 + 11 digits becomes 0 + the rest', () => {
    expect(normalizePhoneDigits('59521123456')).toBe('021123456');
    expect(normalizePhoneDigits('+595 21 123456')).toBe('021123456');
  });

  it('a 10-digit number starting 09 is kept', () => {
    expect(normalizePhoneDigits('0981123456')).toBe('0981123456');
    expect(normalizePhoneDigits('0991-654-321')).toBe('0991654321');
  });

  it('a 9-digit number starting 9 gets a leading 0', () => {
    expect(normalizePhoneDigits('981123456')).toBe('0981123456');
    expect(normalizePhoneDigits('971 000 111')).toBe('0971000111');
  });

  it('anything else is returned as its digits', () => {
    expect(normalizePhoneDigits('12345')).toBe('12345');
    expect(normalizePhoneDigits('5959811234567')).toBe('5959811234567');
    expect(normalizePhoneDigits('1981123456')).toBe('1981123456');
    expect(normalizePhoneDigits('881123456')).toBe('881123456');
  });
});

describe('normalizeParaguayPhone: rules plus a valid Paraguayan mobile (libphonenumber-js)', () => {
  it.each([
    ['+595 981 123456', '0981123456'],
    ['+595981123456', '0981123456'],
    ['595 971 000 111', '0971000111'],
    ['0961 555 444', '0961555444'],
    ['991654321', '0991654321'],
    ['(0982) 000-111', '0982000111'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeParaguayPhone(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['hola', 'no digits'],
    ['+595 21 123456', 'an Asunción fixed line (11-digit rule) cannot receive SMS'],
    ['021123456', 'a fixed line in local format'],
    ['0911123456', 'a 09 number outside the mobile ranges'],
    ['+54 9 11 1234 5678', 'another country'],
    ['+1 415 555 0100', 'another country'],
    ['09811234567', 'too long'],
    ['098112345', 'too short'],
    ['5950981123456', 'a 595 prefix with 13 digits is not a spec rule'],
    ['098a', 'garbage'],
  ])('%s is refused (%s)', (input) => {
    expect(normalizeParaguayPhone(input)).toBeNull();
  });

  it('isParaguayMobile takes only the local format', () => {
    expect(isParaguayMobile('0981123456')).toBe(true);
    expect(isParaguayMobile('981123456')).toBe(false);
    expect(isParaguayMobile('+595981123456')).toBe(false);
  });
});
