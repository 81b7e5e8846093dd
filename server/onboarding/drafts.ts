import { createHash, randomBytes } from 'node:crypto';
import { CONTINUE_ON_PHONE_PATH } from '../../contract/onboarding';
import { isAcceptablePin } from '../../contract/pin';
import { PRIVACY_VERSION, TERMS_OUTDATED, TERMS_VERSION } from '../../contract/terms';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { consumeLimits, type LimitCheck } from '../security/rate-limits';
import { onboardingMessages as m } from './messages';

/**
 * A registration kept server-side once the mobile is verified (issue 18): resumed after a lost
 * page by proving the mobile again, or continued on the phone through a one-time SMS link. Every
 * call names it by a bearer token whose SHA-256 only is stored (registration_tokens).
 */
export type Draft = {
  id: string;
  celular: string;
  email: string | null;
  pin_hash: string | null;
  kyc_session_id: string | null;
  completed_at: Date | null;
  /** the PIN step's acceptance of the terms: when, and the server's versions then in force */
  terms_accepted_at: Date | null;
  terms_version: string | null;
  privacy_version: string | null;
};

/** What registration's services read of the app's context. */
export type RegistrationDeps = Pick<
  AppContext,
  'db' | 'clock' | 'onboarding' | 'kyc' | 'caseReader'
>;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function insertToken(
  db: Db,
  draftId: string,
  kind: 'device' | 'link',
  now: Date,
  expiresAt: Date,
): Promise<string> {
  const token = newToken();
  await db.query(
    `INSERT INTO registration_tokens (token_hash, draft_id, kind, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [tokenHash(token), draftId, kind, now, expiresAt],
  );
  return token;
}

export const DRAFT_COLUMNS =
  'd.id::text AS id, d.celular, d.email, d.pin_hash, d.kyc_session_id, d.completed_at, ' +
  'd.terms_accepted_at, d.terms_version, d.privacy_version';

/** The link's address: the configured public one, else the origin the browser called. */
export const linkUrl = (base: string, token: string) => `${base}${CONTINUE_ON_PHONE_PATH}#${token}`;

/**
 * The live registration a device token names; 401 'verificá tu celular de nuevo' when the token is
 * unknown, superseded or expired. A finished registration answers 409 'El paciente ya existe'
 * unless `finished` accepts it (the status a first device reads).
 */
export async function draftOf(
  deps: Pick<RegistrationDeps, 'db' | 'clock'>,
  token: string,
  options: { finished?: boolean } = {},
): Promise<Draft> {
  const now = new Date(deps.clock.now());
  const { rows } = await deps.db.query<Draft>(
    `SELECT ${DRAFT_COLUMNS}
       FROM registration_tokens t JOIN registration_drafts d ON d.id = t.draft_id
      WHERE t.token_hash = $1 AND t.kind = 'device' AND t.expires_at > $2 AND d.expires_at > $2`,
    [tokenHash(token), now],
  );
  const draft = rows[0];
  if (!draft) throw new HttpError(401, m.registrationGone);
  if (draft.completed_at && !options.finished)
    throw new HttpError(409, m.documentExists, {}, 'registrationComplete');
  return draft;
}

export const perRegistration = (bucket: string, draft: Draft, max: number, windowMs: number) =>
  ({ bucket, key: draft.id, limits: [{ max, windowMs }] }) satisfies LimitCheck;

/**
 * Step 2 kept: the PIN's Argon2id hash (never the PIN), the terms' acceptance and step 0's e-mail.
 * The versions accepted are the server's (contract/terms.ts); a page that showed others (older than
 * the terms in force, or saying none) is refused with 409 `terms_outdated`: the patient reloads and
 * reads the terms in force. Recording what an old page showed would bind the patient to terms no
 * longer in force, whose text the server does not keep.
 */
export async function savePin(
  ctx: AppContext,
  input: {
    token: string;
    pin: string;
    email: string | null;
    termsVersion: string | undefined;
    privacyVersion: string | undefined;
  },
): Promise<void> {
  const draft = await draftOf(ctx, input.token);
  if (input.termsVersion !== TERMS_VERSION || input.privacyVersion !== PRIVACY_VERSION)
    throw new HttpError(409, m.termsOutdated, {}, TERMS_OUTDATED);
  const { pinSavesPerRegistrationHour } = ctx.onboarding.registration;
  await consumeLimits(
    ctx.db,
    [perRegistration('registration_pin', draft, pinSavesPerRegistrationHour, HOUR)],
    ctx.clock.now(),
  );
  if (!isAcceptablePin(input.pin)) throw new HttpError(400, m.badPin);
  const pinHash = await ctx.pins.hash(input.pin);
  const now = new Date(ctx.clock.now());
  await ctx.db.query(
    `UPDATE registration_drafts
        SET pin_hash = $2, email = $3, terms_accepted_at = $4, updated_at = $4,
            terms_version = $5, privacy_version = $6
      WHERE id = $1`,
    [draft.id, pinHash, input.email, now, TERMS_VERSION, PRIVACY_VERSION],
  );
}
