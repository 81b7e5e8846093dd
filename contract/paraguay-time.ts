/**
 * Paraguay's time, the one helper for every date a person reads (the patient's, the back office's,
 * the server's): America/Asuncion, UTC-3 all year since October 2024 (IANA tzdata 2024b; Node's
 * ICU and current browsers carry it). The SQL report's day boundaries use the same offset.
 */
export const PARAGUAY_TIME_ZONE = 'America/Asuncion';
/** The fixed offset (no daylight saving since October 2024) for ISO dates and SQL intervals. */
export const PARAGUAY_UTC_OFFSET = '-03:00';

const inWords = new Intl.DateTimeFormat('es-PY', {
  dateStyle: 'full',
  timeZone: PARAGUAY_TIME_ZONE,
});
const numericDay = new Intl.DateTimeFormat('es-PY', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: PARAGUAY_TIME_ZONE,
});
const dateAndTime = new Intl.DateTimeFormat('es-PY', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: PARAGUAY_TIME_ZONE,
});

const valid = (date: Date): boolean => !Number.isNaN(date.getTime());

/** 'sábado, 28 de noviembre de 2026' ('' for an invalid date). */
export const paraguayDateInWords = (date: Date): string =>
  valid(date) ? inWords.format(date) : '';
/** '28/11/2026' ('' for an invalid date). */
export const paraguayDay = (date: Date): string => (valid(date) ? numericDay.format(date) : '');
/** '28/11/26, 5:30 p. m.' ('' for an invalid date). */
export const paraguayDateTime = (date: Date): string =>
  valid(date) ? dateAndTime.format(date) : '';
