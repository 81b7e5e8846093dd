import {
  FULL_NAME_MAX,
  keptIdValue,
  MARITAL_STATUSES,
  NATIONALITIES,
  SEXES,
} from '../../contract/case-fields';
import { DOCUMENT_MAX } from '../../contract/login.constants';
import { CORRECTION_REASON, isValidCorrectionValue } from '../../contract/operators';
import { formatCardDate } from '../shared/format';
import type { CorrectableField, Correction } from './operators.types';

/**
 * The correction form's rules (issue 42, item 2): the value by its field's schema in
 * contract/case-fields.ts, the same the server checks with, then a value other than the current one
 * and a reason. Pure: the machine's guard and the selector that says why both read it.
 */

/** Why a correction cannot be sent yet (src/copy/es.operators.ts says it in words). */
export type CorrectionProblem = 'value' | 'unchanged' | 'reason';

/** The reason's length (the contract's); a value's longest text, by how the form asks for it. */
export const CORRECTION_LIMITS = {
  reasonMin: CORRECTION_REASON.min,
  reason: CORRECTION_REASON.max,
  value: { text: FULL_NAME_MAX, number: DOCUMENT_MAX, date: 10 },
} as const;

/** The fields an operator picks from a list, with the list. */
export const FIELD_CHOICES: Partial<Record<CorrectableField, readonly string[]>> = {
  Gender: SEXES,
  Nationality: NATIONALITIES,
  MaritalStatus: MARITAL_STATUSES,
};

/** How the form asks for a field: a list, a date, a number or text. */
export type CorrectionInput = 'choice' | 'date' | 'number' | 'text';
export const correctionInput = (field: CorrectableField): CorrectionInput =>
  FIELD_CHOICES[field]
    ? 'choice'
    : field === 'DateOfBirth'
      ? 'date'
      : field === 'DocumentNumber'
        ? 'number'
        : 'text';

/**
 * What the form starts with: the current value as the operator types it (a date as the card
 * prints it), or nothing for a list that does not hold the current value.
 */
export function correctionStart(field: CorrectableField, current: string): string {
  const choices = FIELD_CHOICES[field];
  if (choices) return choices.includes(current) ? current : '';
  return field === 'DateOfBirth' && current ? formatCardDate(current) : current;
}

/** The first thing wrong with the correction as typed, or null: it may be sent. */
export function correctionProblem(
  correction: Correction,
  current: string,
): CorrectionProblem | null {
  const value = correction.value.trim();
  const reason = correction.reason.trim();
  if (!isValidCorrectionValue(correction.field, value)) return 'value';
  if (keptIdValue(correction.field, value) === current) return 'unchanged';
  if (reason.length < CORRECTION_REASON.min || reason.length > CORRECTION_REASON.max)
    return 'reason';
  return null;
}
