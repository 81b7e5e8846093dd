import { createHmac, randomInt } from 'node:crypto';
import { OTP_LENGTH } from '../../contract/onboarding';
import type { AppContext } from '../context';
import { messages } from '../http/messages';
import { otpSmsText, type OtpPurpose } from '../sms/sender';
import { sendLogged } from '../sms/send-log';
import type { OtpSettings } from './otp-config';
import { consumeLimits, pruneEvents, releaseEvents, type LimitCheck } from './rate-limits';

type OtpDeps = Pick<AppContext, 'db' | 'clock' | 'secrets' | 'sms' | 'onboarding'>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** 6 digits from the operating system's CSPRNG, uniformly distributed. */
export function generateOtp(): string {
  return randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');
}

/** The only form in which a code is stored: an HMAC bound to the phone and the purpose. */
export function otpHmac(
  secret: string,
  celular: string,
  purpose: OtpPurpose,
  code: string,
): string {
  return createHmac('sha256', secret).update(`${purpose}\n${celular}\n${code}`).digest('base64url');
}

/** Raised when the SMS provider did not take the message: no code was stored as sent. */
export class OtpDeliveryError extends Error {
  constructor(cause: unknown) {
    super('SMS delivery failed', { cause });
    this.name = 'OtpDeliveryError';
  }
}

/** The per-phone SMS budget, every kind of SMS alike: per hour, per day. */
function phoneSmsBudget(otp: OtpSettings, celular: string): LimitCheck {
  return {
    bucket: 'sms_phone',
    key: celular,
    limits: [
      { max: otp.smsPerPhonePerHour, windowMs: HOUR },
      { max: otp.smsPerPhonePerDay, windowMs: DAY },
    ],
  };
}

/** The per-phone SMS limits of a code: the resend wait (worded as a wait), then the budget. */
function phoneSmsCheck(otp: OtpSettings, celular: string): LimitCheck {
  const budget = phoneSmsBudget(otp, celular);
  const resendWait = { max: 1, windowMs: otp.resendWaitMs, refusal: messages.resendWait };
  return { ...budget, limits: [resendWait, ...budget.limits] };
}

/** The per-client-address SMS cap (many phones from one address). */
export function clientSmsCheck(otp: OtpSettings, clientIp: string): LimitCheck {
  return {
    bucket: 'sms_client',
    key: clientIp,
    limits: [{ max: otp.smsPerClientPerHour, windowMs: HOUR }],
  };
}

/**
 * The wrong tries a check reserves up front, per mobile AND client address (issue 29 item 1): a
 * stranger's address runs out long before the owner's. The per-mobile ceiling against guesses
 * spread over many addresses is counted per code (`verifyOtp`, issue 43 item 14).
 */
function wrongCodeCheck(
  otp: OtpSettings,
  target: { celular: string; purpose: OtpPurpose; documento: string | null; clientIp: string },
): LimitCheck {
  const { celular, purpose, documento } = target;
  const key = documento === null ? `${purpose}:${celular}` : `${purpose}:${documento}:${celular}`;
  return {
    bucket: 'otp_wrong_address',
    key: `${key}@${target.clientIp}`,
    limits: [{ max: otp.maxWrongPerPhoneAddressPerHour, windowMs: HOUR }],
  };
}

/** One code's wrong tries from one address (key `<code id>@<address>`): dead there at the cap. */
const CODE_WRONG = 'otp_code_wrong';

/**
 * The SMS codes' housekeeping, the only place it is done: nothing older than the longest window
 * (a day) is needed any more, neither a code nor a limit event.
 */
export async function pruneOtpState(db: OtpDeps['db'], now: number): Promise<void> {
  await pruneEvents(db, DAY, now);
  await db.query('DELETE FROM otp_codes WHERE created_at < $1', [new Date(now - DAY)]);
}

/** 'Eliminar mi cuenta' (issue 45 item 6): every code sent to a mobile or for a cédula number. */
export async function forgetCodes(
  db: OtpDeps['db'],
  of: { celular: string | null; documento: string },
): Promise<void> {
  await db.query('DELETE FROM otp_codes WHERE numero_documento = $1 OR celular = $2', [
    of.documento,
    of.celular,
  ]);
}

/**
 * Whom a code is for: a mobile and a purpose, and for PIN recovery also the document number, so a
 * recovery code is found, counted wrong and superseded only under its own document and mobile.
 */
type OtpTarget = { celular: string; purpose: OtpPurpose; documento?: string | null };

/**
 * Stores a new code (as an HMAC) and sends it by SMS; once sent it supersedes any earlier code of
 * that phone and purpose. Enforces the resend wait, the per-phone SMS limits and the per-client cap
 * (429). The code is stored BEFORE the SMS goes out and discarded only on a definite refusal
 * (SmsDeliveryError.definite, or any other error: the provider did not take it): then
 * OtpDeliveryError is thrown and neither the phone's nor the address's budget is spent. After a
 * timeout the message may have been delivered: the code stays valid and the send counts.
 */
export async function issueOtp(
  deps: OtpDeps,
  input: OtpTarget & { clientIp: string },
): Promise<{ resendAfterMs: number; unconfirmed: boolean }> {
  const { otp } = deps.onboarding;
  const events = await consumeLimits(
    deps.db,
    [phoneSmsCheck(otp, input.celular), clientSmsCheck(otp, input.clientIp)],
    deps.clock.now(),
  );
  const { unconfirmed } = await deliverOtp(deps, input, events);
  return { resendAfterMs: otp.resendWaitMs, unconfirmed };
}

/**
 * Stores a new code and sends it, without counting any limit: for `issueOtp`, and for a caller
 * that has already counted this send (PIN recovery counts every request alike, whether or not a
 * code goes out). On a definite refusal the code is discarded, `countedEvents` are released and
 * OtpDeliveryError is thrown; after a timeout the code stays valid (`unconfirmed`).
 */
export async function deliverOtp(
  deps: OtpDeps,
  input: OtpTarget & { clientIp: string },
  countedEvents: string[] = [],
): Promise<{ unconfirmed: boolean }> {
  const { db, clock } = deps;
  const documento = input.documento ?? null;
  const { otp, sms } = deps.onboarding;
  const now = clock.now();
  const code = generateOtp();
  const sentAt = new Date(now);
  const codeId = (
    await db.query<{ id: string }>(
      `INSERT INTO otp_codes (celular, purpose, code_hmac, created_at, expires_at, numero_documento)
            VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text AS id`,
      [
        input.celular,
        input.purpose,
        otpHmac(deps.secrets.otpSecret, input.celular, input.purpose, code),
        sentAt,
        new Date(now + otp.validityMs),
        documento,
      ],
    )
  ).rows[0]!.id;
  const delivery = await sendLogged(
    deps,
    {
      to: input.celular,
      purpose: input.purpose,
      body: otpSmsText(sms.serviceName, code, input.purpose),
    },
    {
      clientIp: input.clientIp,
      countedEvents,
      undo: () => db.query('DELETE FROM otp_codes WHERE id = $1', [codeId]),
    },
  );
  if (delivery.status === 'refused') throw new OtpDeliveryError(delivery.cause);
  await db.query(
    `UPDATE otp_codes SET revoked_at = $4
      WHERE celular = $1 AND purpose = $2 AND numero_documento IS NOT DISTINCT FROM $5
        AND id <> $3 AND consumed_at IS NULL AND revoked_at IS NULL`,
    [input.celular, input.purpose, codeId, sentAt, documento],
  );
  await pruneOtpState(db, now);
  return { unconfirmed: delivery.status === 'unconfirmed' };
}

/**
 * Checks a code and consumes it atomically: of concurrent checks of the right code exactly one
 * succeeds. A wrong try counts against the mobile and address (429 past the hourly cap, right code
 * or not) and against the code:
 * - for that address: after `maxWrongPerCode` wrong tries from one address the code no longer
 *   matches from there, while the patient's own check from another address still does (issue 29
 *   item 1);
 * - from every address together: a code is compared at most `maxWrongPerPhonePerHour` times,
 *   then it is dead for everyone (the per-mobile ceiling against guesses spread over many
 *   addresses). The failures are counted per code, so a new code sent to the phone (under the SMS
 *   limits) has its own allowance: a stranger's guesses cannot hold the owner out for an hour,
 *   and no code takes more guesses than the hour's ceiling allowed before (issue 43 item 14).
 * Each try is reserved on the code before it is compared (`failed_attempts`, re-checked by the
 * database on a row updated concurrently), so concurrent guesses cannot overshoot either.
 */
export async function verifyOtp(
  deps: Pick<OtpDeps, 'db' | 'clock' | 'secrets' | 'onboarding'>,
  input: OtpTarget & { otp: string; clientIp: string },
): Promise<boolean> {
  // One check at a time per mobile and purpose (any process): each address's wrong tries on a code
  // are counted (rate_limit_events) after its comparison, so two checks at once both read the count
  // before either wrote it, and a code got more tries from one address than it allows (the
  // PostgreSQL tier caught 6 of 5 in tests/server/my-face.test.ts). Taken for every input alike.
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `otp:${input.celular}:${input.purpose}`,
    ]);
    return verifyOtpLocked({ ...deps, db: tx }, input);
  });
}

async function verifyOtpLocked(
  deps: Pick<OtpDeps, 'db' | 'clock' | 'secrets' | 'onboarding'>,
  input: OtpTarget & { otp: string; clientIp: string },
): Promise<boolean> {
  const { db, clock } = deps;
  const { otp } = deps.onboarding;
  const documento = input.documento ?? null;
  const now = clock.now();
  // Reserve a wrong try up front so concurrent guesses cannot overshoot the hourly cap.
  const reserved = await consumeLimits(db, [wrongCodeCheck(otp, { ...input, documento })], now);
  const at = new Date(now);
  // The same statements whatever the input (PIN recovery's answer must cost the same for every
  // document and mobile). First one try reserved on each live code of this target that this
  // address has not killed and that has tries left from every address.
  const { rows: tried } = await db.query<{ id: string }>(
    `UPDATE otp_codes c SET failed_attempts = c.failed_attempts + 1
      WHERE c.celular = $1 AND c.purpose = $2 AND c.numero_documento IS NOT DISTINCT FROM $3
        AND c.consumed_at IS NULL AND c.revoked_at IS NULL AND c.expires_at > $4
        AND c.failed_attempts < $9
        AND (SELECT count(*) FROM rate_limit_events e
              WHERE e.bucket = $5::text AND e.key = c.id::text || '@' || $6::text AND e.at > $7) < $8
      RETURNING c.id::text AS id`,
    [
      input.celular,
      input.purpose,
      documento,
      at,
      CODE_WRONG,
      input.clientIp,
      new Date(now - otp.validityMs),
      otp.maxWrongPerCode,
      otp.maxWrongPerPhonePerHour,
    ],
  );
  const ids = tried.map((r) => r.id);
  // Then the comparison, against the reserved codes only.
  const { rows } = await db.query<{ id: string }>(
    `UPDATE otp_codes SET consumed_at = $2
      WHERE id = ANY($1::bigint[]) AND code_hmac = $3 AND consumed_at IS NULL
      RETURNING id::text AS id`,
    [ids, at, otpHmac(deps.secrets.otpSecret, input.celular, input.purpose, input.otp)],
  );
  if (rows.length === 1) {
    await releaseEvents(db, reserved);
    return true;
  }
  // Wrong: the try stays counted on each code, and against it for this address only.
  await db.query(
    `INSERT INTO rate_limit_events (bucket, key, at)
     SELECT $2::text, id::text || '@' || $3::text, $4::timestamptz FROM unnest($1::bigint[]) AS id`,
    [ids, CODE_WRONG, input.clientIp, at],
  );
  return false;
}
