import { fromPromise } from 'xstate';
import type {
  RegisterRequest,
  RegisterResponse,
  StartRequest,
  StartResponse,
} from '../../contract/onboarding';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../otp/otp.types';
import { postRegister, postResendOtp, postStart, postValidateOtp } from './onboarding.api';

/** POST /start: sends the SMS code (step 0 to 1). */
export const sendCode = fromPromise<StartResponse, StartRequest>(({ input, signal }) =>
  postStart(input, signal),
);

/** The OTP machine's endpoints for onboarding (PIN recovery provides its own). */
export const validateOnboardingCode = fromPromise<OtpVerdict, OtpValidateInput>(
  ({ input, signal }) =>
    postValidateOtp({ celular: input.recipient.celular, otp: input.code }, signal),
);
export const resendOnboardingCode = fromPromise<OtpVerdict, OtpResendInput>(({ input, signal }) =>
  postResendOtp({ celular: input.recipient.celular }, signal),
);

/** POST /register: the wizard's final call (step 4 to 5). */
export const registerPatient = fromPromise<RegisterResponse, RegisterRequest>(({ input, signal }) =>
  postRegister(input, signal),
);
