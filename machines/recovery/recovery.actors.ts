import { fromPromise } from 'xstate';
import type {
  SendPinOtpRequest,
  SendPinOtpResponse,
  SetNewPinRequest,
  SetNewPinResponse,
} from '../../contract/recovery';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../otp/otp.types';
import { postSendPinOtp, postSetNewPin, postValidatePinOtp } from './recovery.api';

/** Step 0: POST /api/auth/send-pin-otp. */
export const sendRecoveryCode = fromPromise<SendPinOtpResponse, SendPinOtpRequest>(
  ({ input, signal }) => postSendPinOtp(input, signal),
);

/** The OTP child's endpoints for PIN recovery (onboarding provides its own). */
export const validateRecoveryCode = fromPromise<OtpVerdict, OtpValidateInput>(({ input, signal }) =>
  postValidatePinOtp(
    {
      numero_documento: input.recipient.numeroDocumento ?? '',
      celular: input.recipient.celular,
      otp: input.code,
    },
    signal,
  ),
);
/** Resending is send-pin-otp again with the same document and mobile (the server's 30 s wait). */
export const resendRecoveryCode = fromPromise<OtpVerdict, OtpResendInput>(({ input, signal }) =>
  postSendPinOtp(
    { numero_documento: input.recipient.numeroDocumento ?? '', celular: input.recipient.celular },
    signal,
  ),
);

/** Step 2: POST /api/auth/set-new-pin (the grant cookie rides along). */
export const saveNewPin = fromPromise<SetNewPinResponse, SetNewPinRequest>(({ input, signal }) =>
  postSetNewPin(input, signal),
);
