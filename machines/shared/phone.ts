import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { PHONE_INPUT_MAX_LENGTH } from '../../contract/onboarding';

/**
 * The mobile-number field's rules, apart from machines/shared/input.ts: libphonenumber-js's
 * metadata and the onboarding contract (zod) load with the flows that ask for a mobile, never
 * with /login's first load (bench/bundle-size.ts).
 */

/** What a mobile-number field keeps at most (its view's maxLength). */
export { PHONE_INPUT_MAX_LENGTH };

/** What a mobile-number field keeps as the patient types or pastes: digits and the usual separators. */
export const cleanPhoneInput = (value: string): string =>
  value.replace(/[^\d\s()+-]/g, '').slice(0, PHONE_INPUT_MAX_LENGTH);

/**
 * The one mobile-number input rule (registration and PIN recovery): any way a patient writes or
 * pastes a Paraguayan mobile (`+595 981 123456`, `0981 123 456`, `981123456`) as the local
 * `09XXXXXXXX` the API takes; null when it is not a Paraguayan mobile (libphonenumber-js's mobile
 * metadata decides, as the contract's normaliser does on the server).
 */
export function phoneFromInput(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, 'PY');
  return parsed?.country === 'PY' && parsed.isValid() ? `0${parsed.nationalNumber}` : null;
}

/** The local form's length: 09XXXXXXXX (the spec's recovery field, placeholder 098XXXXXXX). */
const LOCAL_PHONE_DIGITS = 10;
/** +595 and the 9 national digits, while a patient types the country code on the keypad. */
const INTERNATIONAL_PHONE_DIGITS = 12;

/**
 * What PIN recovery's mobile field keeps (the spec: digits only, at most 10): a number the one
 * rule above reads as a Paraguayan mobile becomes its local `09XXXXXXXX` (a pasted
 * `+595 981 123456` or `0981 123 456` too); anything else is its digits, at most 10. A number
 * begun with `+` keeps its sign and room for the country code until it is whole.
 */
export function localPhoneInput(value: string): string {
  const local = phoneFromInput(value);
  if (local !== null) return local;
  const digits = value.replace(/\D/g, '');
  return value.trimStart().startsWith('+')
    ? `+${digits.slice(0, INTERNATIONAL_PHONE_DIGITS)}`
    : digits.slice(0, LOCAL_PHONE_DIGITS);
}
