import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/**
 * The spec's phone normalisation to local format (section 3), rule by rule:
 * 1. digits only;
 * 2. a 595 prefix becomes a leading 0 plus the rest, for 12 digits with the doubled 5959
 *    (595 + a 9XXXXXXXX mobile) or for 11 digits (595 + an 8-digit number);
 * 3. a 10-digit number starting 09 is kept;
 * 4. a 9-digit number starting 9 gets a leading 0.
 * Anything else is returned as its digits, unchanged (it is then not a valid mobile).
 */
export function normalizePhoneDigits(input: string): string {
  const d = input.replace(/\D/g, '');
  if (d.startsWith('595')) {
    if (d.length === 12 && d.startsWith('5959')) return `0${d.slice(3)}`;
    if (d.length === 11) return `0${d.slice(3)}`;
  }
  if (d.length === 10 && d.startsWith('09')) return d;
  if (d.length === 9 && d.startsWith('9')) return `0${d}`;
  return d;
}

/** True for a Paraguayan mobile number in local format `09XXXXXXXX` (libphonenumber-js mobile metadata). */
export function isParaguayMobile(local: string): boolean {
  if (!/^09\d{8}$/.test(local)) return false;
  const parsed = parsePhoneNumberFromString(local, 'PY');
  return parsed?.country === 'PY' && parsed.isValid();
}

/**
 * Normalises any way of writing a Paraguayan mobile (`+595 981 123 456`, `0981-123-456`,
 * `981123456`...) to the local format `09XXXXXXXX` used everywhere (onboarding, OTP, PIN
 * recovery). Returns null when the result is not a valid Paraguayan mobile number (an SMS must
 * reach it: fixed lines, other countries and malformed numbers are refused).
 */
export function normalizeParaguayPhone(input: string): string | null {
  const local = normalizePhoneDigits(input);
  return isParaguayMobile(local) ? local : null;
}
