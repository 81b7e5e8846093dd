/** The numeric fields' lengths, as the contract sets them (the views take them from here). */
export { DOCUMENT_MAX, PIN_LENGTH } from '../../contract/login.constants';

/** Keeps digits only, cut to `max` characters: what numeric fields accept as the patient types. */
export const onlyDigits = (value: string, max: number): string =>
  value.replace(/\D/g, '').slice(0, max);
