import { fromCallback, fromPromise } from 'xstate';
import type {
  CurrentRegistrationResponse,
  OpenLinkResponse,
  RegisterRequest,
  RegisterResponse,
  RegistrationStatusResponse,
  SavePinRequest,
  SendLinkResponse,
  StartRequest,
  StartResponse,
} from '../../contract/onboarding';
import type { ResultResponse } from '../../contract/common';
import { startPolling, type PollingEvent } from '../shared/polling';
import type { KycMachine } from '../kyc/kyc.machine';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../otp/otp.types';
import {
  getCurrentRegistration,
  postForgetRegistration,
  postOpenLink,
  postRegister,
  postRegistrationStatus,
  postResendOtp,
  postSavePin,
  postSendLink,
  postStart,
  postValidateOtp,
} from './onboarding.api';

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

/**
 * A reload (issue 43 item 8): the registration this browser holds (its token also travels in an
 * HttpOnly cookie the page never reads), where it continues, or none.
 */
export const restoreRegistration = fromPromise<CurrentRegistrationResponse>(({ signal }) =>
  getCurrentRegistration(signal),
);

/** The patient left the wizard: this browser forgets the registration it holds. */
export const forgetRegistration = fromPromise<ResultResponse, { registrationToken: string }>(
  ({ input, signal }) => postForgetRegistration(input.registrationToken, signal),
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

/** Step 2 kept server-side: the PIN's hash, the terms, the e-mail (a lost page keeps them). */
export const savePin = fromPromise<ResultResponse, SavePinRequest>(({ input, signal }) =>
  postSavePin(input, signal),
);

/** 'Seguir en mi celular': the SMS with the one-time link. */
export const sendLink = fromPromise<SendLinkResponse, { registrationToken: string }>(
  ({ input, signal }) => postSendLink(input.registrationToken, signal),
);

/** The phone opened the link: the registration it continues. */
export const openLink = fromPromise<OpenLinkResponse, { linkToken: string }>(({ input, signal }) =>
  postOpenLink(input.linkToken, signal),
);

/** How often the first device asks how far the phone got. */
const HANDOFF_POLL_MS = 3_000;

/**
 * The first device follows the phone: the registration's stage every 3 s (one request in flight),
 * each answer as `poll.result`, the first failure as `poll.error`.
 */
export const registrationStatus = fromCallback<
  { type: 'noop' },
  { registrationToken: string; delayFirst?: boolean },
  PollingEvent<RegistrationStatusResponse>
>(({ input, sendBack }) =>
  startPolling(
    {
      intervalMs: HANDOFF_POLL_MS,
      delayFirst: input.delayFirst ?? false,
      request: (signal) => postRegistrationStatus(input.registrationToken, signal),
    },
    (result) => sendBack({ type: 'poll.result', result }),
    (error) => sendBack({ type: 'poll.error', error }),
  ),
);
