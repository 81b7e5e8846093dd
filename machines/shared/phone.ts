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
