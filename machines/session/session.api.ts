import { sessionPaths } from '../../contract/session.constants';
import type { SessionResponse } from '../../contract/session';
import { request } from '../shared/http';

// The schemas (zod) load beside the request: none of them on the login page's first load.
const schemas = () => import('../../contract/session');

export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return request(sessionPaths.session, {
    schema: schemas().then((m) => m.sessionResponse),
    signal,
  });
}

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(sessionPaths.logout, {
    body: {},
    schema: schemas().then((m) => m.logoutResponse),
    signal,
  });
}
