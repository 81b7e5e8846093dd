import { parse } from 'mrz';

/** TD1 MRZ (3 lines of 30) from OCR text: clean-up, PRY confusion fixes, check-digit validation. */
export type MrzFields = {
  documentNumber: string;
  birthDate: string; // YYYY-MM-DD
  expirationDate: string; // YYYY-MM-DD
  sex: 'M' | 'F' | 'X';
  nationality: string;
  issuingState: string;
  surnames: string[];
  names: string[];
};
export type MrzRead = { lines: [string, string, string]; fields: MrzFields; autocorrected: number };

const MRZ_CHARS = /^[A-Z0-9<]+$/;

/**
 * OCR text lines -> MRZ-looking lines: spaces dropped, common misreads of '<' fixed. The LSTM engine
 * reads runs of '<' as K, L, C or E: a trailing run of fillers is all fillers, and in the two lines
 * with digits a letter or two between fillers is filler too. Inside the names line only the trailing
 * run is touched (a name may start with C or E right after '<<').
 */
function mrzCandidates(text: string): string[] {
  return text
    .split('\n')
    .map((raw) => {
      let l = raw
        .toUpperCase()
        .replace(/[\s'"`.,:;]/g, '')
        .replace(/[«‹([{]/g, '<');
      l = l.replace(/<[<KLCE]*$/, (m) => '<'.repeat(m.length));
      if (/\d/.test(l)) {
        for (let i = 0; i < 3; i++)
          l = l.replace(/(?<=<)[KLCE]{1,2}(?=<)/g, (m) => '<'.repeat(m.length));
      }
      return l;
    })
    .filter((l) => l.length >= 24 && l.length <= 36 && /<{2,}/.test(l))
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''));
}

const fit = (l: string) => (l.length >= 30 ? l.slice(0, 30) : l.padEnd(30, '<'));

/** Fixes the fixed parts of a Paraguayan TD1: document code 'ID' and the state/nationality 'PRY'. */
export function fixPry(lines: string[]): [string, string, string] {
  let [l1, l2, l3] = lines.map(fit) as [string, string, string];
  const near = (s: string) =>
    s === 'PRY' ||
    [...s].filter((c, i) => c === 'PRY'[i]).length >= 2 ||
    /^P[R8B]Y$|^PR[YV1]$/.test(s);
  if (/^[I1L][D0O]/.test(l1)) l1 = 'ID' + l1.slice(2);
  if (near(l1.slice(2, 5))) l1 = l1.slice(0, 2) + 'PRY' + l1.slice(5);
  if (near(l2.slice(15, 18))) l2 = l2.slice(0, 15) + 'PRY' + l2.slice(18);
  // Sex is M, F or '<'.
  const sex = l2[7];
  if (sex === 'H' || sex === 'N') l2 = l2.slice(0, 7) + 'M' + l2.slice(8);
  if (sex === 'E' || sex === 'P') l2 = l2.slice(0, 7) + 'F' + l2.slice(8);
  // Names carry no digits.
  l3 = l3
    .replace(/0/g, 'O')
    .replace(/1/g, 'I')
    .replace(/5/g, 'S')
    .replace(/8/g, 'B')
    .replace(/2/g, 'Z');
  return [l1, l2, l3];
}

function isoDate(yymmdd: string, pastOnly: boolean): string {
  const yy = Number(yymmdd.slice(0, 2));
  const nowYY = new Date().getUTCFullYear() % 100;
  const century = pastOnly ? (yy > nowYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  return `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

/** Tries every run of three candidate lines; returns the first whose check digits all validate. */
export function readTd1(text: string): MrzRead | null {
  const cands = mrzCandidates(text);
  for (let i = 0; i + 3 <= cands.length; i++) {
    const lines = fixPry(cands.slice(i, i + 3));
    if (!lines.every((l) => MRZ_CHARS.test(l))) continue;
    let r;
    try {
      r = parse(lines, { autocorrect: true });
    } catch {
      continue;
    }
    if (r.format !== 'TD1' || !r.valid) continue;
    const f = r.fields;
    if (!f.documentNumber || !f.birthDate || !f.expirationDate) continue;
    const split = (s: string | null | undefined) => (s ?? '').split(/\s+/).filter(Boolean);
    const autocorrected = r.details.reduce((n, d) => n + d.autocorrect.length, 0);
    // Apply the library's autocorrections to the lines we report.
    const fixed = lines.map((l) => [...l]);
    for (const d of r.details)
      for (const a of d.autocorrect) fixed[a.line]![a.column] = a.corrected;
    return {
      lines: fixed.map((l) => l.join('')) as [string, string, string],
      autocorrected,
      fields: {
        documentNumber: f.documentNumber,
        birthDate: isoDate(f.birthDate, true),
        expirationDate: isoDate(f.expirationDate, false),
        sex: f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : 'X',
        nationality: f.nationality ?? '',
        issuingState: f.issuingState ?? '',
        surnames: split(f.lastName),
        names: split(f.firstName),
      },
    };
  }
  return null;
}
