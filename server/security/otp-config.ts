import { z } from 'zod';
import { OTP_RESEND_WAIT_SECONDS, OTP_VALIDITY_MINUTES } from '../../contract/onboarding';
import { int, parseEnv } from '../env';

/**
 * The SMS code's limits (issue 4, issue 29 item 1), shared by registration and PIN recovery; every
 * one is enforced by the server, in the database.
 */
export type OtpSettings = {
  /** Fixed by the product (the SMS text says it): 5 minutes. */
  validityMs: number;
  /** Wrong tries of one code from one client address before it is dead for that address. */
  maxWrongPerCode: number;
  /** Wrong tries per mobile AND client address an hour, across resends. */
  maxWrongPerPhoneAddressPerHour: number;
  /**
   * The per-mobile ceiling: wrong tries of one code from every address together (a code lives 5
   * minutes, well within the hour the setting's name keeps), then the code is dead for everyone.
   * It bounds a guess spread over many addresses; counted per code, so a new code sent to the
   * phone has its own allowance and a stranger cannot hold the owner out (issue 43 item 14).
   */
  maxWrongPerPhonePerHour: number;
  resendWaitMs: number;
  smsPerPhonePerHour: number;
  smsPerPhonePerDay: number;
  smsPerClientPerHour: number;
};

const schema = z.object({
  OTP_MAX_WRONG_PER_CODE: int(5),
  OTP_MAX_WRONG_PER_PHONE_ADDRESS_HOUR: int(10),
  OTP_MAX_WRONG_PER_PHONE_HOUR: int(30),
  OTP_RESEND_WAIT_SECONDS: int(OTP_RESEND_WAIT_SECONDS),
  SMS_MAX_PER_PHONE_HOUR: int(5),
  SMS_MAX_PER_PHONE_DAY: int(10),
  SMS_MAX_PER_CLIENT_HOUR: int(20),
});

export function loadOtpSettings(env: Record<string, string | undefined>): OtpSettings {
  const c = parseEnv(schema, env);
  return {
    validityMs: OTP_VALIDITY_MINUTES * 60_000,
    maxWrongPerCode: c.OTP_MAX_WRONG_PER_CODE,
    maxWrongPerPhoneAddressPerHour: c.OTP_MAX_WRONG_PER_PHONE_ADDRESS_HOUR,
    maxWrongPerPhonePerHour: c.OTP_MAX_WRONG_PER_PHONE_HOUR,
    resendWaitMs: c.OTP_RESEND_WAIT_SECONDS * 1000,
    smsPerPhonePerHour: c.SMS_MAX_PER_PHONE_HOUR,
    smsPerPhonePerDay: c.SMS_MAX_PER_PHONE_DAY,
    smsPerClientPerHour: c.SMS_MAX_PER_CLIENT_HOUR,
  };
}

export const DEFAULT_OTP_SETTINGS: OtpSettings = loadOtpSettings({});
