import { cardDateParts } from './card-date';
import { PIN_LENGTH } from './login';

/**
 * The PIN rules, in one place for the browser and the server (issue 20, item 5): 6 digits, not one
 * of the spec's 8 banned PINs, and, once the patient's data is known, not made from it: the birth
 * date in any of the ways people write it, or 6 digits in a row of the document number. Whoever
 * holds the patient's cédula (or a photo of it) must not be able to guess the PIN from it.
 */

/** The 8 PINs the spec bans (section 5). */
export const BANNED_PINS = [
  '123456',
  '000000',
  '111111',
  '222222',
  '654321',
  '987654',
  '024681',
  '013579',
] as const;

const PIN_PATTERN = new RegExp(`^\\d{${PIN_LENGTH}}$`);

/** What the product knows about the patient when the PIN is chosen (either may be unknown). */
type PinOwnData = {
  /** the document number (separators are ignored) */
  documento?: string | null | undefined;
  /** the birth date, YYYY-MM-DD or DD/MM/YYYY (also with '-' or '.') */
  birthDate?: string | null | undefined;
};

/** Why a PIN is refused: not 6 digits, a banned sequence, or made from the patient's own data. */
type PinProblem = 'format' | 'banned' | 'ownData';

/** Every 6-digit run of a string of digits. */
const runsOf = (digits: string): string[] =>
  Array.from({ length: Math.max(0, digits.length - PIN_LENGTH + 1) }, (_, i) =>
    digits.slice(i, i + PIN_LENGTH),
  );

/**
 * The PINs a birth date gives: day, month and two-digit year in any order (DDMMYY, YYMMDD,
 * MMDDYY, ...), and every 6 digits in a row of the full date written DDMMYYYY, MMDDYYYY, YYYYMMDD
 * or YYYYDDMM, with and without the leading zeros of day and month (so DDMMYYYY cut to 6, DDMM19,
 * MMYYYY and the like).
 */
export function pinsFromBirthDate(value: string): Set<string> {
  const parts = cardDateParts(value);
  const out = new Set<string>();
  if (!parts) return out;
  const { d, m, y } = parts;
  const yy = y.slice(2);
  for (const arrangement of [
    [d, m, yy],
    [d, yy, m],
    [m, d, yy],
    [m, yy, d],
    [yy, d, m],
    [yy, m, d],
  ])
    out.add(arrangement.join(''));
  const dd = String(Number(d));
  const mm = String(Number(m));
  const full = [
    d + m + y,
    m + d + y,
    y + m + d,
    y + d + m,
    dd + mm + y,
    mm + dd + y,
    y + mm + dd,
    y + dd + mm,
  ];
  for (const written of full) runsOf(written).forEach((p) => out.add(p));
  return out;
}

/**
 * Every PIN the patient's data gives (birth date arrangements and 6-digit runs of the document
 * number): what a typed PIN is checked against, and what the server checks a kept PIN hash
 * against when it no longer has the PIN itself.
 */
export function pinsFromOwnData(data: PinOwnData): Set<string> {
  const out = data.birthDate ? pinsFromBirthDate(data.birthDate) : new Set<string>();
  runsOf((data.documento ?? '').replace(/\D/g, '')).forEach((p) => out.add(p));
  return out;
}

/** True when the PIN is made from the patient's birth date or document number. */
export const isPinFromOwnData = (pin: string, data: PinOwnData): boolean =>
  PIN_PATTERN.test(pin) && pinsFromOwnData(data).has(pin);

/** What is wrong with a PIN, or null when the product accepts it. */
export function pinProblem(pin: string, data: PinOwnData = {}): PinProblem | null {
  if (!PIN_PATTERN.test(pin)) return 'format';
  if ((BANNED_PINS as readonly string[]).includes(pin)) return 'banned';
  if (isPinFromOwnData(pin, data)) return 'ownData';
  return null;
}

/** A PIN the product accepts: exactly 6 digits, not banned, not made from the data given. */
export const isAcceptablePin = (pin: string, data: PinOwnData = {}): boolean =>
  pinProblem(pin, data) === null;

/** The patient data a verified cédula gives (the KYC session's id_data). */
export const pinOwnDataOf = (id: { DocumentNumber: string; DateOfBirth: string }): PinOwnData => ({
  documento: id.DocumentNumber,
  birthDate: id.DateOfBirth,
});

/**
 * The `reason` of an error answer that refused a PIN made from the patient's own data (register,
 * set-new-pin): the browser asks for another PIN instead of offering a retry.
 */
export const PIN_FROM_OWN_DATA = 'pinFromOwnData';
