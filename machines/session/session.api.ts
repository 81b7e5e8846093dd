import {
  logoutResponse,
  sessionPaths,
  sessionResponse,
  type SessionResponse,
} from '../../contract/session';
import { request } from '../shared/http';

export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return request(sessionPaths.session, { schema: sessionResponse, signal });
}

export async function postLogout(signal?: AbortSignal): Promise<void> {
  await request(sessionPaths.logout, { body: {}, schema: logoutResponse, signal });
}
