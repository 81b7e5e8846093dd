import {
  loginPaths,
  loginResponse,
  type LoginRequest,
  type LoginResponse,
} from '../../contract/login';
import { request } from '../shared/http';

export function postLogin(body: LoginRequest, signal?: AbortSignal): Promise<LoginResponse> {
  return request(loginPaths.login, { body, schema: loginResponse, signal });
}
