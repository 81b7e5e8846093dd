import {
  recoveryPaths,
  sendPinOtpResponse,
  setNewPinResponse,
  validatePinOtpResponse,
  type SendPinOtpRequest,
  type SendPinOtpResponse,
  type SetNewPinRequest,
  type SetNewPinResponse,
  type ValidatePinOtpRequest,
  type ValidatePinOtpResponse,
} from '../../contract/recovery';
import { request } from '../shared/http';

export function postSendPinOtp(
  body: SendPinOtpRequest,
  signal?: AbortSignal,
): Promise<SendPinOtpResponse> {
  return request(recoveryPaths.sendPinOtp, { body, schema: sendPinOtpResponse, signal });
}

export function postValidatePinOtp(
  body: ValidatePinOtpRequest,
  signal?: AbortSignal,
): Promise<ValidatePinOtpResponse> {
  return request(recoveryPaths.validatePinOtp, { body, schema: validatePinOtpResponse, signal });
}

/** The recovery grant travels in its HttpOnly cookie (same origin), never in the body. */
export function postSetNewPin(
  body: SetNewPinRequest,
  signal?: AbortSignal,
): Promise<SetNewPinResponse> {
  return request(recoveryPaths.setNewPin, { body, schema: setNewPinResponse, signal });
}
