import { sessionPaths, sessionResponseCheck } from '../../contract/session.constants';
import type { SessionResponse } from '../../contract/session';
import { request } from '../shared/http';

/** Every page of the session area asks it at load: checked without zod (contract/session.constants.ts). */
export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return request(sessionPaths.session, { schema: sessionResponseCheck, signal });
}

export async function postLogout(signal?: AbortSignal): Promise<void> {
  // The schema (zod) loads beside the request: none of it on the login page's first load.
  const schema = import('../../contract/session').then((m) => m.logoutResponse);
  await request(sessionPaths.logout, { body: {}, schema, signal });
}
