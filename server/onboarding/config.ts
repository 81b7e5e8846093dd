import { z } from 'zod';
import { ConfigError, int, parseEnv } from '../env';
import { loadOtpSettings, type OtpSettings } from '../security/otp-config';
import { loadSmsConfig, type SmsConfig } from '../sms/config';

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
  /**
   * The address the SMS link points at; required in production (issue 29 item 3), elsewhere absent
   * means the address the browser called.
   */
  publicUrl: string | null;
  /** Link SMS per registration (a link is charged to the registration, not the mobile). */
  linksPerRegistrationHour: number;
  linksPerRegistrationDay: number;
  /** PIN saves per registration and hour (each costs an Argon2id hash). */
  pinSavesPerRegistrationHour: number;
  /** Checks of a kept PIN hash against the card's data per registration and hour (one Argon2id verification per PIN the card's data gives). */
  pinChecksPerRegistrationHour: number;
  /** Opens of links this server made, per client address and hour. */
  opensPerAddressHour: number;
  /**
   * Opens of tokens this server never made, per client address and hour: counted apart, so a
   * stranger guessing behind the same carrier NAT or clinic Wi-Fi never spends a patient's opens.
   */
  unknownOpensPerAddressHour: number;
  /** Status polls per registration and minute (the first device polls every 3 s). */
  statusPerRegistrationMinute: number;
};

const schema = z.object({
  ONBOARDING_RESUME_HOURS: int(24),
  ONBOARDING_LINK_MINUTES: int(20),
  ONBOARDING_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  ONBOARDING_LINKS_PER_REGISTRATION_HOUR: int(5),
  ONBOARDING_LINKS_PER_REGISTRATION_DAY: int(10),
  ONBOARDING_PIN_SAVES_PER_REGISTRATION_HOUR: int(10),
  ONBOARDING_PIN_CHECKS_PER_REGISTRATION_HOUR: int(5),
  ONBOARDING_LINK_OPENS_PER_ADDRESS_HOUR: int(30),
  ONBOARDING_UNKNOWN_LINK_OPENS_PER_ADDRESS_HOUR: int(30),
  ONBOARDING_STATUS_PER_REGISTRATION_MINUTE: int(40),
});

export function loadOnboardingSettings(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): OnboardingSettings {
  const c = parseEnv(schema, env);
  // The link's origin is never taken from a request's Host in production: a forged Host would put
  // another site's address in the patient's SMS.
  if (appEnv === 'production' && !c.ONBOARDING_PUBLIC_URL)
    throw new ConfigError(
      'Invalid configuration: ONBOARDING_PUBLIC_URL is required in production (the https address patients open, used in the SMS link)',
    );
  return {
    sms: loadSmsConfig(env, appEnv),
    otp: loadOtpSettings(env),
    registration: {
      resumeMs: c.ONBOARDING_RESUME_HOURS * 3_600_000,
      linkMs: c.ONBOARDING_LINK_MINUTES * 60_000,
      publicUrl: c.ONBOARDING_PUBLIC_URL?.replace(/\/+$/, '') ?? null,
      linksPerRegistrationHour: c.ONBOARDING_LINKS_PER_REGISTRATION_HOUR,
      linksPerRegistrationDay: c.ONBOARDING_LINKS_PER_REGISTRATION_DAY,
      pinSavesPerRegistrationHour: c.ONBOARDING_PIN_SAVES_PER_REGISTRATION_HOUR,
      pinChecksPerRegistrationHour: c.ONBOARDING_PIN_CHECKS_PER_REGISTRATION_HOUR,
      opensPerAddressHour: c.ONBOARDING_LINK_OPENS_PER_ADDRESS_HOUR,
      unknownOpensPerAddressHour: c.ONBOARDING_UNKNOWN_LINK_OPENS_PER_ADDRESS_HOUR,
      statusPerRegistrationMinute: c.ONBOARDING_STATUS_PER_REGISTRATION_MINUTE,
    },
  };
}
