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
  registration: RegistrationSettings;
};

/** Resuming a registration and continuing on the phone (issue 18). */
type RegistrationSettings = {
  /** A registration is resumable this long after the mobile was first verified, then forgotten. */
  resumeMs: number;
  /** The SMS link's validity. */
  linkMs: number;
  /** The address the SMS link points at; absent: the address the browser called. */
  publicUrl: string | null;
  linksPerRegistrationHour: number;
  /** PIN saves per registration and hour (each costs an Argon2id hash). */
  pinSavesPerRegistrationHour: number;
  /** Checks of a kept PIN hash against the card's data per registration and hour (one Argon2id verification per PIN the card's data gives). */
  pinChecksPerRegistrationHour: number;
  opensPerAddressHour: number;
  /** Status polls per registration and minute (the first device polls every 3 s). */
  statusPerRegistrationMinute: number;
};

const schema = z.object({
  OTP_MAX_WRONG_PER_CODE: int(5),
  OTP_MAX_WRONG_PER_PHONE_HOUR: int(10),
  OTP_RESEND_WAIT_SECONDS: int(OTP_RESEND_WAIT_SECONDS),
  SMS_MAX_PER_PHONE_HOUR: int(5),
  SMS_MAX_PER_PHONE_DAY: int(10),
  SMS_MAX_PER_CLIENT_HOUR: int(20),
  ONBOARDING_RESUME_HOURS: int(24),
  ONBOARDING_LINK_MINUTES: int(20),
  ONBOARDING_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  ONBOARDING_LINKS_PER_REGISTRATION_HOUR: int(5),
  ONBOARDING_PIN_SAVES_PER_REGISTRATION_HOUR: int(10),
  ONBOARDING_PIN_CHECKS_PER_REGISTRATION_HOUR: int(5),
  ONBOARDING_LINK_OPENS_PER_ADDRESS_HOUR: int(30),
  ONBOARDING_STATUS_PER_REGISTRATION_MINUTE: int(40),
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
    registration: {
      resumeMs: c.ONBOARDING_RESUME_HOURS * 3_600_000,
      linkMs: c.ONBOARDING_LINK_MINUTES * 60_000,
      publicUrl: c.ONBOARDING_PUBLIC_URL?.replace(/\/+$/, '') ?? null,
      linksPerRegistrationHour: c.ONBOARDING_LINKS_PER_REGISTRATION_HOUR,
      pinSavesPerRegistrationHour: c.ONBOARDING_PIN_SAVES_PER_REGISTRATION_HOUR,
      pinChecksPerRegistrationHour: c.ONBOARDING_PIN_CHECKS_PER_REGISTRATION_HOUR,
      opensPerAddressHour: c.ONBOARDING_LINK_OPENS_PER_ADDRESS_HOUR,
      statusPerRegistrationMinute: c.ONBOARDING_STATUS_PER_REGISTRATION_MINUTE,
    },
  };
}
