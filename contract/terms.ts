/**
 * The terms and the privacy notice in force (their text: src/copy/es.tyc.ts, at /tyc). Change a
 * version with its text. The version recorded on a patient at registration is this one, the
 * server's: the browser sends the versions its page showed, and registration refuses any other
 * (409 `TERMS_OUTDATED`: the page is older than the terms, reload and accept them again).
 */
export const TERMS_VERSION = '2026-11-24';
export const PRIVACY_VERSION = '2026-11-24';

/** The PIN step's refusal of terms the server no longer has in force. */
export const TERMS_OUTDATED = 'terms_outdated';
