import { authPaths } from '../../contract/auth.constants';
import type { SessionResponse } from '../../contract/auth';
import { request } from '../shared/http';

// The schemas (zod) load beside the request: none of them on the login page's first load.
const schemas = () => import('../../contract/auth');

export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return request(authPaths.session, {
    schema: schemas().then((m) => m.sessionResponse),
    signal,
  });
}

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(authPaths.logout, {
    body: {},
    schema: schemas().then((m) => m.logoutResponse),
    signal,
  });
}
