import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Paraguay phone to local format `09XXXXXXXX` (spec section 3): digits only; a 595 prefix becomes
 * a leading 0 plus the rest (12 digits, or 13 with the doubled 5959... written as 595 + 09...);
 * a 10-digit number starting 09 is kept; a 9-digit number starting 9 gets a leading 0.
 * Returns null when the result is not a valid Paraguayan mobile number.
 */
export function normalizeParaguayPhone(input: string): string | null {
  const d = input.replace(/\D/g, '');
  let local: string | null = null;
  if (d.startsWith('5950') && d.length === 13) local = d.slice(3);
  else if (d.startsWith('595') && (d.length === 12 || d.length === 11)) local = `0${d.slice(3)}`;
  else if (d.length === 10 && d.startsWith('09')) local = d;
  else if (d.length === 9 && d.startsWith('9')) local = `0${d}`;
  if (!local) return null;
  const parsed = parsePhoneNumberFromString(local, 'PY');
  if (!parsed?.isValid()) return null;
  const type = parsed.getType();
  if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  return local;
}
