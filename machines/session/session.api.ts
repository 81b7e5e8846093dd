import {
  authPaths,
  logoutResponse,
  sessionResponse,
  type SessionResponse,
} from '../../contract/auth';
import { request } from '../shared/http';

export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return request(authPaths.session, { schema: sessionResponse, signal });
}

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(authPaths.logout, { body: {}, schema: logoutResponse, signal });
}
