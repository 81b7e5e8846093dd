/**
 * The cédula's dates, one parser for every rule that reads them (issue 27, item 4): the PIN rule
 * (contract/pin.ts), the birth date the server stores (server/onboarding/service.ts) and the
 * review's display (machines/shared/format.ts). Zod-free: the browser's first load may import it.
 */

/** A calendar date's day, month (both two digits) and four-digit year. */
type CardDateParts = { d: string; m: string; y: string };

/**
 * A date as the card prints it (DD/MM/AAAA, also with '-' or '.', with or without the leading
 * zeros: 5/3/1990) or in ISO form (AAAA-MM-DD), to its parts; null when it is not a real date.
 */
export function cardDateParts(value: string): CardDateParts | null {
  const s = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const real =
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d);
  return real ? { d: d.padStart(2, '0'), m: m.padStart(2, '0'), y } : null;
}

/** The card's date as ISO (AAAA-MM-DD, as stored); null when it is not a real date. */
export function cardDateIso(value: string): string | null {
  const p = cardDateParts(value);
  return p ? `${p.y}-${p.m}-${p.d}` : null;
}
