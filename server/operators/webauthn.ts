import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { OperatorProfile } from '../../contract/operators';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/client';
import { HttpError } from '../http/errors';
import { operatorMessages } from './messages';
import { hashToken } from './tokens';

/**
 * Passkeys of operators (issue 30) with @simplewebauthn/server: registration through a one-time
 * enrolment link, login with a discoverable credential (no user name typed). Every refusal is a
 * Spanish 4xx: 400 for what is malformed or expired, 401 for a passkey that does not verify.
 */

/** Where passkeys belong and which page may use them. */
export type RelyingParty = { rpId: string; origin: string };

const CHALLENGE_TTL_MS = 5 * 60_000;
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/);
const credentialShape = {
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  clientExtensionResults: z.object({}).passthrough(),
};
const registrationShape = z.object({
  ...credentialShape,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(65_536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});
const authenticationShape = z.object({
  ...credentialShape,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    signature: b64url(1024),
    userHandle: b64url(256).optional(),
  }),
});

function shapeOr400<T>(schema: z.ZodType<T>, value: unknown, message: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, message);
  return r.data;
}

type Enrolment = { operatorId: string; profile: OperatorProfile; userHandle: string };

/** The operator's columns every query here reads (alias `o`), and what they become. */
const OPERATOR_COLUMNS = 'o.id::text AS operator_id, o.usuario, o.nombre, o.rol, o.user_handle';
type OperatorColumns = {
  operator_id: string;
  usuario: string;
  nombre: string;
  rol: OperatorProfile['rol'];
  user_handle: string;
};
const enrolmentOf = (row: OperatorColumns): Enrolment => ({
  operatorId: row.operator_id,
  profile: { usuario: row.usuario, nombre: row.nombre, rol: row.rol },
  userHandle: row.user_handle,
});

/** A live enrolment link (unused, within 24 h, operator not revoked), or the 400. */
async function liveEnrolment(ctx: AppContext, token: string, now: Date) {
  const { rows } = await ctx.db.query<
    OperatorColumns & { challenge: string | null; challenge_expires_at: Date | null }
  >(
    `SELECT ${OPERATOR_COLUMNS}, e.challenge, e.challenge_expires_at
       FROM operator_enrolments e JOIN operators o ON o.id = e.operator_id
      WHERE e.token_hash = $1 AND e.used_at IS NULL AND e.expires_at > $2 AND o.revoked_at IS NULL`,
    [hashToken(token), now],
  );
  const row = rows[0];
  if (!row) throw new HttpError(400, operatorMessages.enrolLinkInvalid);
  const enrolment = enrolmentOf(row);
  const live =
    row.challenge && row.challenge_expires_at && new Date(row.challenge_expires_at) > now;
  return { enrolment, challenge: live ? row.challenge : null };
}

/** The passkey creation options for an enrolment link (its challenge kept on the link, 5 minutes). */
export async function enrolmentOptions(
  ctx: AppContext,
  rp: RelyingParty,
  token: string,
): Promise<{ operator: OperatorProfile; options: PublicKeyCredentialCreationOptionsJSON }> {
  const now = new Date(ctx.clock.now());
  const { enrolment } = await liveEnrolment(ctx, token, now);
  const { rows: existing } = await ctx.db.query<{ id: string; transports: string }>(
    'SELECT id, transports FROM operator_credentials WHERE operator_id = $1 AND revoked_at IS NULL',
    [enrolment.operatorId],
  );
  const options = await generateRegistrationOptions({
    rpName: ctx.operators.rpName,
    rpID: rp.rpId,
    userName: enrolment.profile.usuario,
    userDisplayName: enrolment.profile.nombre,
    userID: Buffer.from(enrolment.userHandle, 'base64url'),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: splitTransports(c) })),
    timeout: CHALLENGE_TTL_MS,
  });
  await ctx.db.query(
    `UPDATE operator_enrolments SET challenge = $2, challenge_expires_at = $3
      WHERE token_hash = $1 AND used_at IS NULL`,
    [hashToken(token), options.challenge, new Date(now.getTime() + CHALLENGE_TTL_MS)],
  );
  return { operator: enrolment.profile, options };
}

const splitTransports = (c: { transports: string }) =>
  c.transports ? c.transports.split(',') : undefined;

/**
 * Verifies the new passkey, stores it and spends the link, in one transaction: of two verifies of
 * one link at once, one wins. Returns the operator, whose session the caller starts.
 */
export async function verifyEnrolment(
  ctx: AppContext,
  rp: RelyingParty,
  token: string,
  response: unknown,
): Promise<{ operatorId: string; operator: OperatorProfile }> {
  const now = new Date(ctx.clock.now());
  const { enrolment, challenge } = await liveEnrolment(ctx, token, now);
  if (!challenge) throw new HttpError(400, operatorMessages.enrolChallengeExpired);
  const body = shapeOr400(registrationShape, response, operatorMessages.enrolFailed);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response: body as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    info = verified.registrationInfo;
  } catch {
    throw new HttpError(400, operatorMessages.enrolFailed);
  }
  const { credential } = info;
  try {
    await ctx.db.transaction(async (tx) => {
      const spent = await tx.query(
        `UPDATE operator_enrolments SET used_at = $2, challenge = NULL
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND challenge = $3
          RETURNING 1`,
        [hashToken(token), now, challenge],
      );
      if (spent.rows.length !== 1) throw new HttpError(400, operatorMessages.enrolLinkInvalid);
      await tx.query(
        `INSERT INTO operator_credentials (id, operator_id, public_key, counter, transports, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          credential.id,
          enrolment.operatorId,
          Buffer.from(credential.publicKey),
          credential.counter,
          (credential.transports ?? []).join(','),
          now,
        ],
      );
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(400, operatorMessages.passkeyTaken);
    throw err;
  }
  return { operatorId: enrolment.operatorId, operator: enrolment.profile };
}

/** Options for a discoverable passkey; the challenge kept under a random id, single use, 5 minutes. */
export async function loginOptions(
  ctx: AppContext,
  rp: RelyingParty,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const now = ctx.clock.now();
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
  const challengeId = randomBytes(24).toString('base64url');
  await ctx.db.query('DELETE FROM operator_challenges WHERE expires_at < $1', [new Date(now)]);
  await ctx.db.query(
    `INSERT INTO operator_challenges (id, challenge, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
    [challengeId, options.challenge, new Date(now), new Date(now + CHALLENGE_TTL_MS)],
  );
  return { challengeId, options };
}

/**
 * Verifies a login: the challenge is spent whatever the outcome; the passkey must be known, not
 * revoked, its operator not revoked, its signature valid and its counter moving forward.
 */
export async function verifyLogin(
  ctx: AppContext,
  rp: RelyingParty,
  challengeId: string,
  response: unknown,
): Promise<{ operatorId: string; operator: OperatorProfile }> {
  const now = new Date(ctx.clock.now());
  const { rows: spent } = await ctx.db.query<{ challenge: string }>(
    'DELETE FROM operator_challenges WHERE id = $1 AND expires_at > $2 RETURNING challenge',
    [challengeId, now],
  );
  const challenge = spent[0]?.challenge;
  if (!challenge) throw new HttpError(400, operatorMessages.loginChallengeInvalid);
  const body = shapeOr400(authenticationShape, response, operatorMessages.loginFailed);
  const { rows } = await ctx.db.query<
    OperatorColumns & { public_key: Uint8Array; counter: string | number; transports: string }
  >(
    `SELECT ${OPERATOR_COLUMNS}, c.public_key, c.counter, c.transports
       FROM operator_credentials c JOIN operators o ON o.id = c.operator_id
      WHERE c.id = $1 AND c.revoked_at IS NULL AND o.revoked_at IS NULL`,
    [body.id],
  );
  const row = rows[0];
  const failed = () => new HttpError(401, operatorMessages.loginFailed);
  if (!row) throw failed();
  if (body.response.userHandle !== undefined && body.response.userHandle !== row.user_handle)
    throw failed();
  const counter = Number(row.counter);
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: body as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: {
        id: body.id,
        publicKey: new Uint8Array(row.public_key),
        counter,
        transports: splitTransports(row) as AuthenticatorTransportFuture[] | undefined,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    throw failed();
  }
  // Compare-and-set: of two logins with one signature counter, one wins.
  const { rows: moved } = await ctx.db.query(
    `UPDATE operator_credentials SET counter = $2, last_used_at = $3
      WHERE id = $1 AND counter = $4 AND revoked_at IS NULL RETURNING 1`,
    [body.id, newCounter, now, counter],
  );
  if (moved.length !== 1) throw failed();
  const { operatorId, profile } = enrolmentOf(row);
  return { operatorId, operator: profile };
}

type AuthenticatorTransportFuture = NonNullable<
  Parameters<typeof verifyAuthenticationResponse>[0]['credential']['transports']
>[number];
