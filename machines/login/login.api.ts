import { authPaths } from '../../contract/auth.constants';
import type { LoginRequest, LoginResponse } from '../../contract/auth';
import { request } from '../shared/http';

export function postLogin(body: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  // The schema (zod) loads beside the request: none of it on the login page's first load.
  const schema = import('../../contract/auth').then((m) => m.loginResponse);
  return request(authPaths.login, { body, schema, signal });
}
