import { REGISTER_WAITS } from '../../contract/cases';
import { PIN_FROM_OWN_DATA } from '../../contract/pin';
import { toFlowError } from '../shared/errors';
import type { OnboardingError } from './onboarding.types';

/**
 * The wizard's calls' failures as its error codes (the Spanish texts are the view's), shared by the
 * wizard and its children: the server's own words travel with the code when it sent some.
 */
export const withMessage = (
  code: OnboardingError['code'],
  serverMessage: string | undefined,
): OnboardingError => (serverMessage ? { code, serverMessage } : { code });

/**
 * Why the phone's link was refused: its registration finished (the server says so only for a link
 * it made), else used, expired or not valid in the server's words.
 */
export function linkRefusalOf(err: unknown): OnboardingError {
  const e = toFlowError(err);
  if (e.reason === 'registrationComplete') return { code: 'linkRegistrationComplete' };
  return withMessage('linkRefused', e.serverMessage);
}

/** A failed call's code with the server's own words, when it sent some. */
export const failureOf = (code: OnboardingError['code'], err: unknown): OnboardingError =>
  withMessage(code, toFlowError(err).serverMessage);

const mentionsExists = (message: string | undefined): boolean =>
  Boolean(message && /existe/i.test(message));

/** Send-code and register say the patient already exists with success false + 'existe' or the flag. */
export const isExistsAnswer = (answer: {
  success: boolean;
  message?: string | undefined;
  onboardingComplete?: boolean | undefined;
}) => !answer.success && (answer.onboardingComplete === true || mentionsExists(answer.message));

/**
 * The same answer arriving as an HTTP error (the API uses 409 Conflict); not a 409 that waits for a
 * person (issue 44 item 3: a possible duplicate, a case still open), whose message is shown.
 */
export function isExistsError(err: unknown): boolean {
  const e = toFlowError(err);
  if ((REGISTER_WAITS as readonly (string | undefined)[]).includes(e.reason)) return false;
  return e.code === 'server' && (e.status === 409 || mentionsExists(e.serverMessage));
}

/** POST /start failures: the server's message when it sent one, else the spec's fallbacks. */
export function sendCodeErrorFrom(err: unknown): OnboardingError {
  const e = toFlowError(err);
  if (e.code === 'tooManyAttempts') return withMessage('tooManyAttempts', e.serverMessage);
  if (e.code === 'server' || e.code === 'rejected')
    return withMessage('startFailed', e.serverMessage);
  return { code: 'sendCodeFailed' };
}

/** POST /register failures (spec 8, Register). */
export function registerErrorFrom(err: unknown): OnboardingError {
  const e = toFlowError(err);
  switch (e.code) {
    case 'tooManyAttempts':
      return withMessage('tooManyAttempts', e.serverMessage);
    case 'invalidResponse':
      return { code: 'registerInvalidResponse' };
    case 'server':
    case 'rejected':
      return withMessage('registerFailed', e.serverMessage);
    default:
      return { code: 'registerNetwork' };
  }
}

/** True when register refused the PIN as made from the patient's own data. */
export const isPinRefusedError = (err: unknown): boolean =>
  toFlowError(err).reason === PIN_FROM_OWN_DATA;
