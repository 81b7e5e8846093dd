import { cardDateParts } from '../../contract/card-date';
import { paraguayDateTime } from '../../contract/paraguay-time';

/**
 * Pure formatters for what patients read as printed on their cédula (no locale data needed, so
 * the browser, the prerender and the tests agree).
 */

/** A document number with the card's dots: 2719564 as 2.719.564 (non-digits dropped). */
export function formatDocumentNumber(value: string): string {
  const digits = value.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * A date as the card prints it, DD/MM/AAAA, from ISO (AAAA-MM-DD) or the card's own writing
 * (5/3/1990 as 05/03/1990); anything that is no real date is left as it came.
 */
export function formatCardDate(value: string): string {
  const p = cardDateParts(value);
  return p ? `${p.d}/${p.m}/${p.y}` : value.trim();
}

/** The last `keep` digits of a document number, the rest left out (a kiosk's screen). */
export const documentTail = (value: string, keep = 3): string =>
  value.replace(/\D/g, '').slice(-keep);

/** A name as a greeting says it: 'MARÍA JOSÉ' as 'María José'. */
export const greetingName = (value: string): string =>
  value
    .trim()
    .toLocaleLowerCase('es')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toLocaleUpperCase('es') + w.slice(1))
    .join(' ');

/** A moment as a person in Paraguay reads it (contract/paraguay-time.ts): '28/11/26, 5:30 p. m.'. */
export const formatDateTime = (iso: string): string => paraguayDateTime(new Date(iso));
