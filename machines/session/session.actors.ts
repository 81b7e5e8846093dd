import { fromPromise } from 'xstate';
import type { SessionResponse } from '../../contract/session';
import { getSession, postLogout } from './session.api';

export const fetchSession = fromPromise<SessionResponse>(({ signal }) => getSession(signal));
export const endSession = fromPromise<void>(({ signal }) => postLogout(signal));

/** Logout clears all local storage (spec 6); no token or PIN is ever kept there. */
export function clearBrowserStorage(): void {
  if (typeof localStorage !== 'undefined') localStorage.clear();
}
