import {
  currentRegistrationResponse,
  forgetRegistrationResponse,
  onboardingPaths,
  openLinkResponse,
  registerResponse,
  registrationStatusResponse,
  savePinResponse,
  sendLinkResponse,
  type CurrentRegistrationResponse,
  type OpenLinkResponse,
  type RegistrationStatusResponse,
  type SavePinRequest,
  type SendLinkResponse,
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

/** Step 2 kept server-side (its hash), so a lost page does not lose it. */
export function postSavePin(body: SavePinRequest, signal?: AbortSignal) {
  return request(onboardingPaths.savePin, { body, schema: savePinResponse, signal });
}

/** 'Seguir en mi celular': the SMS with the one-time link. */
export function postSendLink(
  registrationToken: string,
  signal?: AbortSignal,
): Promise<SendLinkResponse> {
  return request(onboardingPaths.sendLink, {
    body: { registrationToken },
    schema: sendLinkResponse,
    signal,
  });
}

/** The phone opened the link: its registration and where it continues. */
export function postOpenLink(linkToken: string, signal?: AbortSignal): Promise<OpenLinkResponse> {
  return request(onboardingPaths.openLink, {
    body: { linkToken },
    schema: openLinkResponse,
    signal,
  });
}

/** How far the phone got (the first device follows it). */
export function postRegistrationStatus(
  registrationToken: string,
  signal?: AbortSignal,
): Promise<RegistrationStatusResponse> {
  return request(onboardingPaths.status, {
    body: { registrationToken },
    schema: registrationStatusResponse,
    signal,
  });
}

/** The registration this browser's cookie names (a reload continues it), or none. */
export function getCurrentRegistration(signal?: AbortSignal): Promise<CurrentRegistrationResponse> {
  return request(onboardingPaths.current, {
    method: 'GET',
    schema: currentRegistrationResponse,
    signal,
  });
}

/**
 * The patient left the wizard: this browser forgets the registration (its cookie, its token). Sent
 * with keepalive: the home page may be on its way.
 */
export function postForgetRegistration(registrationToken: string, signal?: AbortSignal) {
  return request(onboardingPaths.forget, {
    body: { registrationToken },
    schema: forgetRegistrationResponse,
    signal,
    keepalive: true,
  });
}
