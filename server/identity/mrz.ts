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
  /** The names line is full (no filler at its end): its last name may be cut ('RAQUE', 'EL'). */
  namesCut: boolean;
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
      // A full names line cut inside a name ('VILLALBA<GONZALEZ<<CELESTE<ELE': 'ELENA' cut at 30
      // characters) ends with a letter, one filler and a piece of two letters or more: a name's
      // start, not misread fillers.
      const cutName = l.length === 30 && !/\d/.test(l) && /[A-Z]<[KLCE]{2,}$/.test(l);
      if (!cutName) l = l.replace(/<[<KLCE]*$/, (m) => '<'.repeat(m.length));
      if (/\d/.test(l)) {
        for (let i = 0; i < 3; i++)
          l = l.replace(/(?<=<)[KLCE]{1,2}(?=<)/g, (m) => '<'.repeat(m.length));
      }
      return l;
    })
    .filter((l) => l.length >= 24 && l.length <= 36 && /<{2,}/.test(l))
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''));
}

/**
 * The 30-character readings of one OCR line. A shorter line is padded with fillers; a longer one
 * carries something the OCR read beside the MRZ (the edge of the MRZ's white panel or of the card
 * read as 'I', '1', '5', 'Q' before the first character), so every 30-character window of it is a
 * reading: the check digits pick among them in the first two lines. The names line has no check
 * digit, so nothing picks: one character too many before a line that ends with a filler is the
 * panel's edge (read from its end); anything longer is read from its start, as the card prints it.
 * A line two or more characters long was seen to come from a name read wider than it is ('MARIA'
 * read 'IVIARIA', its fillers all there): read from its end it lost the first surname's start
 * ('ROJAS' became 'JAS'), and the front, which printed ROJAS, was then taken for another card's
 * (issue 43 item 12). Read from its start the names stay whole and a slip inside one is only a
 * name the front does not confirm.
 */
function windows(l: string, line: 0 | 1 | 2): string[] {
  if (l.length <= 30) return [l.padEnd(30, '<')];
  if (line === 2) return [l.length === 31 && l.endsWith('<') ? l.slice(1) : l.slice(0, 30)];
  return Array.from({ length: l.length - 29 }, (_, i) => l.slice(i, i + 30));
}

/** Fixes the fixed parts of a Paraguayan TD1: document code 'ID' and the state/nationality 'PRY'. */
export function fixPry(lines: string[]): [string, string, string] {
  let [l1, l2, l3] = lines.map((l) => l.padEnd(30, '<').slice(0, 30)) as [string, string, string];
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

/** A letter the OCR read where the MRZ has a digit, as the digit it is usually mistaken for. */
const DIGIT_FOR: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  T: '1',
  Z: '2',
  A: '4',
  S: '5',
  G: '6',
  B: '8',
};
const digitsAt = (l: string, from: number, to: number) =>
  l.slice(0, from) + [...l.slice(from, to)].map((c) => DIGIT_FOR[c] ?? c).join('') + l.slice(to);

/**
 * Letters read where a Paraguayan TD1 has only digits: the document number (a cédula's is numeric;
 * its fillers stay) and its check digit, the dates and their check digits, the composite check
 * digit ('6302278M291019APRY': the expiry's check digit '4' read as 'A'). The check digits still
 * decide: a wrong guess does not validate.
 */
function fixDigits([l1, l2, l3]: [string, string, string]): [string, string, string] {
  return [digitsAt(l1, 5, 15), digitsAt(digitsAt(digitsAt(l2, 0, 7), 8, 15), 29, 30), l3];
}

function isoDate(yymmdd: string, pastOnly: boolean): string {
  const yy = Number(yymmdd.slice(0, 2));
  const nowYY = new Date().getUTCFullYear() % 100;
  const century = pastOnly ? (yy > nowYY ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  return `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

/**
 * Tries every run of three candidate lines, each line in each of its readings (windows, fixPry,
 * fixDigits); returns the first whose check digits all validate.
 */
export function readTd1(text: string): MrzRead | null {
  const cands = mrzCandidates(text);
  for (let i = 0; i + 3 <= cands.length; i++) {
    const [c1, c2, c3] = [cands[i]!, cands[i + 1]!, cands[i + 2]!];
    for (const w1 of windows(c1, 0))
      for (const w2 of windows(c2, 1)) {
        const r = parseTd1(fixDigits(fixPry([w1, w2, windows(c3, 2)[0]!])));
        if (r) return r;
      }
  }
  return null;
}

/** One reading of the three lines, parsed: null unless every check digit validates. */
function parseTd1(lines: [string, string, string]): MrzRead | null {
  if (!lines.every((l) => MRZ_CHARS.test(l))) return null;
  let r;
  try {
    r = parse(lines, { autocorrect: true });
  } catch {
    return null;
  }
  if (r.format !== 'TD1' || !r.valid) return null;
  const f = r.fields;
  if (!f.documentNumber || !f.birthDate || !f.expirationDate) return null;
  const split = (s: string | null | undefined) => (s ?? '').split(/\s+/).filter(Boolean);
  const autocorrected = r.details.reduce((n, d) => n + d.autocorrect.length, 0);
  // Apply the library's autocorrections to the lines we report.
  const fixed = lines.map((l) => [...l]);
  for (const d of r.details) for (const a of d.autocorrect) fixed[a.line]![a.column] = a.corrected;
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
      namesCut: !lines[2].endsWith('<'),
    },
  };
}
