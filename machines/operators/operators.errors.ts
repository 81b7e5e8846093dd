import { OPERATOR_HOST_IS_IP } from '../../contract/operators';
import { toFlowError } from '../shared/errors';
import type { OperatorError } from './operators.types';

/** The name of the error a passkey prompt threw (DOMException, @simplewebauthn's WebAuthnError). */
const nameOf = (err: unknown): string =>
  err && typeof err === 'object' && 'name' in err ? String(err.name) : '';

/** An actor's error event (onError): its `error`. */
export const errorOf = ({ event }: { event: unknown }) => (event as { error?: unknown }).error;

/** A 401 on an operator route: no live operator session (idle or absolute limit reached). */
export const isUnauthorized = (err: unknown): boolean => toFlowError(err).status === 401;

/** A 400 on an operator route: the server refused what was sent, and says why. */
export const isBadRequest = (err: unknown): boolean => toFlowError(err).status === 400;

/**
 * Any failure of the back office as a code (never a sentence): the passkey prompt's errors by
 * name, the server's by status. `during` says what a refusal means: on an enrolment link's options
 * a 4xx is the link (expired or used); on its registration a 404 or 410 is the link, another 4xx
 * the passkey; on a login a 4xx is the passkey the server did not accept.
 */
export function operatorErrorFrom(
  err: unknown,
  during: 'enrol' | 'enrolVerify' | 'login' | 'desk' = 'desk',
): OperatorError {
  const name = nameOf(err);
  if (name === 'PasskeysUnsupported') return { code: 'unsupported' };
  if (name === 'NotAllowedError' || name === 'AbortError') return { code: 'cancelled' };
  const e = toFlowError(err);
  if (e.code === 'unknown') return { code: 'passkeyFailed' };
  const withMessage = (code: OperatorError['code']): OperatorError =>
    e.serverMessage ? { code, serverMessage: e.serverMessage } : { code };
  if (e.code === 'network') return { code: 'network' };
  if (e.code === 'tooManyAttempts')
    return {
      ...withMessage('tooManyAttempts'),
      ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
    };
  // The page's address is an IP: no passkey can work there, whatever the step (issue 43 item 3).
  if (e.reason === OPERATOR_HOST_IS_IP) return { code: 'hostIsIp' };
  const status = e.status ?? 0;
  if (during === 'enrol' && status >= 400 && status < 500) return withMessage('linkInvalid');
  // The passkey's registration refused: the link is spent or gone (404, 410), else the passkey
  // itself was not accepted (the link still works: try again).
  if (during === 'enrolVerify' && (status === 404 || status === 410))
    return withMessage('linkInvalid');
  if (during === 'enrolVerify' && status >= 400 && status < 500) return withMessage('rejected');
  if (during === 'login' && status >= 400 && status < 500) return withMessage('rejected');
  if (status === 403) return withMessage('forbidden');
  if (status === 404) return withMessage('notFound');
  // The case changed since the page showed it (a correction, a new desk photo): read it again.
  if (status === 409 && e.reason === 'case_changed') return withMessage('caseChanged');
  if (status === 409) return withMessage('conflict');
  return withMessage('server');
}
