/**
 * Pure formatters for what patients read as printed on their cédula (no locale data needed, so
 * the browser, the prerender and the tests agree).
 */

/** A document number with the card's dots: 2719564 as 2.719.564 (non-digits dropped). */
export function formatDocumentNumber(value: string): string {
  const digits = value.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** A date as the card prints it, DD/MM/AAAA, from ISO (YYYY-MM-DD) or the card's own writing. */
export function formatCardDate(value: string): string {
  const s = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (iso) return `${iso[3]}/${iso[2]}/${iso[1]}`;
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (dmy) return `${dmy[1]!.padStart(2, '0')}/${dmy[2]!.padStart(2, '0')}/${dmy[3]}`;
  return s;
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
