import { z } from 'zod';
import { OTP_RESEND_WAIT_SECONDS, OTP_VALIDITY_MINUTES } from '../../contract/onboarding';
import { int, parseEnv } from '../env';
import { loadSmsConfig, type SmsConfig } from '../sms/config';

/** OTP and SMS limits (issue 4); every one is enforced by the server, in the database. */
export type OtpSettings = {
  /** Fixed by the product (the SMS text says it): 5 minutes. */
  validityMs: number;
  maxWrongPerCode: number;
  maxWrongPerPhonePerHour: number;
  resendWaitMs: number;
  smsPerPhonePerHour: number;
  smsPerPhonePerDay: number;
  smsPerClientPerHour: number;
};

export type OnboardingSettings = {
  sms: SmsConfig;
  otp: OtpSettings;
  /** How long a validated phone may be used to register (the KYC steps take a while). */
  verifiedPhoneTtlMs: number;
};

const schema = z.object({
  OTP_MAX_WRONG_PER_CODE: int(5),
  OTP_MAX_WRONG_PER_PHONE_HOUR: int(10),
  OTP_RESEND_WAIT_SECONDS: int(OTP_RESEND_WAIT_SECONDS),
  SMS_MAX_PER_PHONE_HOUR: int(5),
  SMS_MAX_PER_PHONE_DAY: int(10),
  SMS_MAX_PER_CLIENT_HOUR: int(20),
  ONBOARDING_PHONE_VERIFIED_MINUTES: int(60),
});

export const DEFAULT_OTP_SETTINGS: OtpSettings = {
  validityMs: OTP_VALIDITY_MINUTES * 60_000,
  maxWrongPerCode: 5,
  maxWrongPerPhonePerHour: 10,
  resendWaitMs: OTP_RESEND_WAIT_SECONDS * 1000,
  smsPerPhonePerHour: 5,
  smsPerPhonePerDay: 10,
  smsPerClientPerHour: 20,
};

export function loadOnboardingSettings(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): OnboardingSettings {
  const c = parseEnv(schema, env);
  return {
    sms: loadSmsConfig(env, appEnv),
    otp: {
      validityMs: OTP_VALIDITY_MINUTES * 60_000,
      maxWrongPerCode: c.OTP_MAX_WRONG_PER_CODE,
      maxWrongPerPhonePerHour: c.OTP_MAX_WRONG_PER_PHONE_HOUR,
      resendWaitMs: c.OTP_RESEND_WAIT_SECONDS * 1000,
      smsPerPhonePerHour: c.SMS_MAX_PER_PHONE_HOUR,
      smsPerPhonePerDay: c.SMS_MAX_PER_PHONE_DAY,
      smsPerClientPerHour: c.SMS_MAX_PER_CLIENT_HOUR,
    },
    verifiedPhoneTtlMs: c.ONBOARDING_PHONE_VERIFIED_MINUTES * 60_000,
  };
}
