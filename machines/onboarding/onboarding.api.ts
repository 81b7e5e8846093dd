import {
  onboardingPaths,
  registerResponse,
  resendOtpResponse,
  startResponse,
  validateOtpResponse,
  type RegisterRequest,
  type RegisterResponse,
  type ResendOtpRequest,
  type ResendOtpResponse,
  type StartRequest,
  type StartResponse,
  type ValidateOtpRequest,
  type ValidateOtpResponse,
} from '../../contract/onboarding';
import { request } from '../shared/http';

export function postStart(body: StartRequest, signal?: AbortSignal): Promise<StartResponse> {
  return request(onboardingPaths.start, { body, schema: startResponse, signal });
}

export function postValidateOtp(
  body: ValidateOtpRequest,
  signal?: AbortSignal,
): Promise<ValidateOtpResponse> {
  return request(onboardingPaths.validateOtp, { body, schema: validateOtpResponse, signal });
}

export function postResendOtp(
  body: ResendOtpRequest,
  signal?: AbortSignal,
): Promise<ResendOtpResponse> {
  return request(onboardingPaths.resendOtp, { body, schema: resendOtpResponse, signal });
}

export function postRegister(
  body: RegisterRequest,
  signal?: AbortSignal,
): Promise<RegisterResponse> {
  return request(onboardingPaths.register, { body, schema: registerResponse, signal });
}
