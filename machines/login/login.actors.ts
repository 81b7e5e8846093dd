import { fromPromise } from 'xstate';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import { postLogin } from './login.api';

export const submitLogin = fromPromise<LoginResponse, LoginRequest>(({ input, signal }) =>
  postLogin(input, signal),
);
