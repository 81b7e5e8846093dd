import type { RegistrationResume } from '../../contract/onboarding';
import { consumeLimits } from '../security/rate-limits';
import {
  DRAFT_COLUMNS,
  MINUTE,
  perRegistration,
  tokenHash,
  type Draft,
  type RegistrationDeps as Deps,
} from './drafts';
import { resumeOf } from './registration';

/**
 * A browser's device token after validate-otp or the link's open (issue 43 item 8): how long it
 * lives (the HttpOnly cookie that carries it lives as long), the registration a reloaded page
 * continues with it, and forgetting it when the patient leaves the wizard.
 */

/**
 * The live registration a device token names, with the moment that token dies (its own expiry or
 * its registration's, whichever comes first: a case extends both); null when it is unknown,
 * superseded, expired or its registration finished. The cookie that carries the token lives as
 * long (issue 43 item 8).
 */
async function liveDevice(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
): Promise<{ draft: Draft; expiresAt: Date } | null> {
  const now = new Date(deps.clock.now());
  const { rows } = await deps.db.query<Draft & { token_expires_at: Date }>(
    `SELECT ${DRAFT_COLUMNS}, LEAST(t.expires_at, d.expires_at) AS token_expires_at
       FROM registration_tokens t JOIN registration_drafts d ON d.id = t.draft_id
      WHERE t.token_hash = $1 AND t.kind = 'device' AND t.expires_at > $2 AND d.expires_at > $2
        AND d.completed_at IS NULL`,
    [tokenHash(token), now],
  );
  const row = rows[0];
  if (!row) return null;
  const { token_expires_at: expiresAt, ...draft } = row;
  return { draft, expiresAt: new Date(expiresAt) };
}

/** When a device token just issued (validate-otp, the link's open) dies; null when it is not live. */
export async function deviceTokenExpiry(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
): Promise<Date | null> {
  return (await liveDevice(deps, token))?.expiresAt ?? null;
}

/**
 * The registration a reloaded page continues (issue 43 item 8): where the one its device token
 * names resumes, exactly as proving the mobile again would answer it but with the same token; null
 * when the token is no longer live. Reads are capped per registration with the status reads.
 */
export async function currentRegistration(
  deps: Deps,
  token: string,
): Promise<{ registration: RegistrationResume; expiresAt: Date } | null> {
  const live = await liveDevice(deps, token);
  if (!live) return null;
  await consumeLimits(
    deps.db,
    [
      perRegistration(
        'registration_current',
        live.draft,
        deps.onboarding.registration.statusPerRegistrationMinute,
        MINUTE,
      ),
    ],
    deps.clock.now(),
  );
  return { registration: await resumeOf(deps, live.draft, token), expiresAt: live.expiresAt };
}

/**
 * The patient left the wizard on this browser (issue 43 item 8): its device token dies, so neither
 * the page's copy nor the cookie's continues anything. Its registration stays (the mobile proved
 * again, or an SMS link, continues it).
 */
export async function forgetDevice(deps: Pick<Deps, 'db'>, token: string): Promise<void> {
  await deps.db.query(`DELETE FROM registration_tokens WHERE token_hash = $1 AND kind = 'device'`, [
    tokenHash(token),
  ]);
}
