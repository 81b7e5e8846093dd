import { describe, expect, it } from 'vitest';
import {
  idFieldValues,
  keptIdValue,
  MARITAL_STATUSES,
  NATIONALITY_CODES,
} from '../../contract/case-fields';
import { DOCUMENT_MAX, DOCUMENT_MIN } from '../../contract/login.constants';
import { loginRequest } from '../../contract/login';
import { findMaritalStatus, nationalityInWords } from '../../server/identity/cedula';

/**
 * The identity fields an operator may type (issue 42, item 2) hold to the rules the rest of the
 * product uses: login's number, the card-date parser, and the engine's own lists.
 */
describe('the correctable fields', () => {
  it('a document number is one login takes, and only that', () => {
    for (const n of ['1'.repeat(DOCUMENT_MIN), '4567890', '9'.repeat(DOCUMENT_MAX)]) {
      expect(idFieldValues.DocumentNumber.safeParse(n).success).toBe(true);
      expect(loginRequest.safeParse({ numero_documento: n, pin: '482915' }).success).toBe(true);
    }
    for (const n of ['ABC', '1'.repeat(DOCUMENT_MIN - 1), '1'.repeat(120), '4.567.890', ' 4567890'])
      expect(idFieldValues.DocumentNumber.safeParse(n).success, n).toBe(false);
  });

  it('a date is one the card-date parser reads, kept as AAAA-MM-DD', () => {
    expect(keptIdValue('DateOfBirth', '7/5/1990')).toBe('1990-05-07');
    expect(keptIdValue('DateOfBirth', '1990-05-07')).toBe('1990-05-07');
    for (const d of ['31/02/1990', '1990-13-01', '17/05/90', 'ayer'])
      expect(idFieldValues.DateOfBirth.safeParse(d).success, d).toBe(false);
  });

  it("nationalities and marital statuses are the engine's", () => {
    for (const [code, words] of Object.entries(NATIONALITY_CODES))
      expect(nationalityInWords(code), code).toBe(words);
    for (const status of MARITAL_STATUSES)
      expect(findMaritalStatus(`ESTADO CIVIL ${status}`), status).toBe(status);
  });
});
