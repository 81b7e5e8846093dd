import { loginPaths } from '../../contract/login.constants';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import { request } from '../shared/http';

export function postLogin(body: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  // The schema (zod) loads beside the request: none of it on the login page's first load.
  const schema = import('../../contract/login').then((m) => m.loginResponse);
  return request(loginPaths.login, { body, schema, signal });
}
