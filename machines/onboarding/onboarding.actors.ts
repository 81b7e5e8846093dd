import { fromPromise } from 'xstate';
import type {
  RegisterRequest,
  RegisterResponse,
  StartRequest,
  StartResponse,
} from '../../contract/onboarding';
import type { KycMachine } from '../kyc/kyc.machine';
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

/**
 * Step 4's logic, loaded when the wizard needs it: the KYC machine (and with it the camera,
 * liveness and document code) is a chunk of its own, so steps 0-3 never download it. The wizard
 * preloads it on the welcome (step 3) and spawns it as its `kyc` child on step 4.
 */
export const loadKyc = fromPromise<KycMachine>(() =>
  import('../kyc/kyc.machine').then((m) => m.kycMachine),
);
