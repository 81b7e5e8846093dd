import {
  authPaths,
  loginResponse,
  type LoginRequest,
  type LoginResponse,
} from '../../contract/auth';
import { request } from '../shared/http';

export function postLogin(body: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  return request(authPaths.login, { body, schema: loginResponse, signal });
}
