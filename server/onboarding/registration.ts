import { randomUUID } from 'node:crypto';
import type { RegistrationResume, RegistrationStage } from '../../contract/onboarding';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { clientSmsCheck } from '../security/otp';
import { consumeLimits } from '../security/rate-limits';
import { linkSmsText } from '../sms/sender';
import { sendLogged } from '../sms/send-log';
import { kycProgressOf } from './draft-kyc';
import {
  DRAFT_COLUMNS,
  draftOf,
  HOUR,
  insertToken,
  linkUrl,
  MINUTE,
  perRegistration,
  tokenHash,
  type Draft,
  type RegistrationDeps as Deps,
} from './drafts';
import { onboardingMessages as m } from './messages';

/**
 * Where a registration continues (issue 18): after the mobile is proved again, on the phone through
 * the one-time SMS link ('Seguir en mi celular'), and the stage the first device reads. The draft
 * and its tokens are drafts.ts; its case, draft-case.ts; its KYC session, draft-kyc.ts.
 */

/**
 * Where the registration continues: the first step that is not finished (or no longer valid). With
 * a case (issue 30): 'case' while it is open, rejected or expired; 'supplementary' once approved
 * (the decision bound a verified KYC session to the registration); after a 'repeat' the usual steps
 * (the decision cleared the session for the selfie, or bound a live one for a side of the card,
 * which the answer names as `retake` until it is read).
 */
export async function resumeOf(
  deps: Deps,
  draft: Draft,
  token: string,
): Promise<RegistrationResume> {
  const base = { token, phone: draft.celular, email: draft.email };
  if (!draft.pin_hash) return { ...base, resumeAt: 'pin', sessionId: null };
  const latest = await deps.caseReader.latestOf(draft.id);
  const withCase = latest ? { case: latest.status } : {};
  const kyc = await kycProgressOf(deps, draft);
  if (latest && latest.status.status !== 'repeat') {
    if (latest.status.status === 'approved' && kyc.stage === 'documentRead')
      return {
        ...base,
        ...withCase,
        resumeAt: 'supplementary',
        sessionId: draft.kyc_session_id,
        idData: kyc.idData,
      };
    return { ...base, ...withCase, resumeAt: 'case', sessionId: null };
  }
  if (kyc.stage === 'documentRead')
    return {
      ...base,
      ...withCase,
      resumeAt: 'review',
      sessionId: draft.kyc_session_id,
      idData: kyc.idData,
    };
  if (kyc.stage === 'selfiePassed') {
    // One side only when the case kept the other (the repeat's session holds it); a case without
    // it (no front ever reached the server) takes both sides again: a back alone would answer
    // 'Falta la imagen' (issue 43 item 1).
    const side = latest?.status.repeatStep;
    const retake =
      (side === 'front' && latest?.holds.back) || (side === 'back' && latest?.holds.front)
        ? { retake: side }
        : {};
    return {
      ...base,
      ...withCase,
      ...retake,
      resumeAt: 'document',
      sessionId: draft.kyc_session_id,
    };
  }
  return { ...base, ...withCase, resumeAt: 'welcome', sessionId: null };
}

/**
 * The mobile was proved by an SMS code (validate-otp): its registration continues where it was, or
 * a new one starts (none, expired, or finished). Every earlier token of it dies, links included:
 * whoever proves the mobile now holds the registration.
 */
export async function proveMobile(deps: Deps, celular: string): Promise<RegistrationResume> {
  const now = new Date(deps.clock.now());
  const expiresAt = new Date(now.getTime() + deps.onboarding.registration.resumeMs);
  const insert = (tx: Db, id: string) =>
    tx.query(
      `INSERT INTO registration_drafts (id, celular, created_at, updated_at, expires_at)
       VALUES ($1, $2, $3, $3, $4) ON CONFLICT (celular) DO NOTHING`,
      [id, celular, now, expiresAt],
    );
  const { draft, token } = await deps.db.transaction(async (tx) => {
    // One registration per mobile, even when two proofs race: insert or find it, then lock it.
    await insert(tx, randomUUID());
    const { rows } = await tx.query<Draft & { expires_at: Date }>(
      `SELECT ${DRAFT_COLUMNS}, d.expires_at FROM registration_drafts d WHERE d.celular = $1 FOR UPDATE`,
      [celular],
    );
    let draft = rows[0]!;
    if (draft.completed_at || new Date(draft.expires_at) <= now) {
      // Finished or past its window: a new registration in its place.
      await tx.query('DELETE FROM registration_drafts WHERE id = $1', [draft.id]);
      const id = randomUUID();
      await insert(tx, id);
      draft = {
        ...draft,
        id,
        email: null,
        pin_hash: null,
        kyc_session_id: null,
        completed_at: null,
        terms_accepted_at: null,
        terms_version: null,
        privacy_version: null,
        expires_at: expiresAt,
      };
    }
    await tx.query('DELETE FROM registration_tokens WHERE draft_id = $1', [draft.id]);
    const token = await insertToken(tx, draft.id, 'device', now, new Date(draft.expires_at));
    return { draft, token };
  });
  // Housekeeping: registrations past their window are forgotten (their tokens go with them).
  await deps.db.query('DELETE FROM registration_drafts WHERE expires_at <= $1', [now]);
  return resumeOf(deps, draft, token);
}

/**
 * 'Seguir en mi celular': an SMS to the registration's verified mobile with a one-time link. A
 * link is charged to the registration (which only its owner's token names), never to the mobile's
 * SMS budget, so a stranger who spent that budget on codes cannot stop the owner's handoff
 * (issue 29 item 1): the resend wait between links and a cap per registration, an hour and a day,
 * plus the per-address SMS cap. A newer link kills the older ones; a delivery the gateway refused
 * kills this one and spends no budget. The link itself only travels in the SMS.
 */
export async function sendLink(
  ctx: AppContext,
  input: { token: string; clientIp: string; origin: string },
): Promise<{ expiresInMs: number; resendAfterMs: number }> {
  const draft = await draftOf(ctx, input.token);
  if (!draft.pin_hash) throw new HttpError(409, m.pinFirst);
  const { otp, registration: settings, sms: smsSettings } = ctx.onboarding;
  // The resend wait is between links only (a patient who taps 'Seguir en mi celular' right after
  // the code is not made to wait).
  const events = await consumeLimits(
    ctx.db,
    [
      clientSmsCheck(otp, input.clientIp),
      {
        bucket: 'registration_link',
        key: draft.id,
        limits: [
          { max: 1, windowMs: otp.resendWaitMs, refusal: m.linkResendWait },
          { max: settings.linksPerRegistrationHour, windowMs: HOUR },
          { max: settings.linksPerRegistrationDay, windowMs: 24 * HOUR },
        ],
      },
    ],
    ctx.clock.now(),
  );
  const now = new Date(ctx.clock.now());
  const token = await ctx.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM registration_drafts WHERE id = $1 FOR UPDATE', [draft.id]);
    await tx.query(
      `DELETE FROM registration_tokens WHERE draft_id = $1 AND kind = 'link' AND used_at IS NULL`,
      [draft.id],
    );
    return insertToken(tx, draft.id, 'link', now, new Date(now.getTime() + settings.linkMs));
  });
  const link = linkUrl(settings.publicUrl ?? input.origin, token);
  const minutes = Math.round(settings.linkMs / MINUTE);
  const delivery = await sendLogged(
    ctx,
    {
      to: draft.celular,
      purpose: 'onboarding_link',
      body: linkSmsText(smsSettings.serviceName, link, minutes),
    },
    {
      clientIp: input.clientIp,
      countedEvents: events,
      undo: () =>
        ctx.db.query('DELETE FROM registration_tokens WHERE token_hash = $1', [tokenHash(token)]),
    },
  );
  // Refused: no live link, no budget spent. After a timeout the SMS may have left: the link stays.
  if (delivery.status === 'refused') throw new HttpError(502, m.linkFailed);
  return { expiresInMs: settings.linkMs, resendAfterMs: otp.resendWaitMs };
}

/**
 * Why a link cannot be opened, in the patient's words. Only a link this server made (a row) can
 * say that its registration finished: a forged token learns nothing (issue 29 item 16).
 */
function linkRefusal(
  row: { used_at: Date | null; expires_at: Date; completed_at: Date | null } | undefined,
  now: Date,
) {
  if (!row) return new HttpError(404, m.linkInvalid, {}, 'linkInvalid');
  if (row.completed_at)
    return new HttpError(410, m.linkRegistrationComplete, {}, 'registrationComplete');
  if (row.used_at) return new HttpError(410, m.linkUsed, {}, 'linkUsed');
  if (new Date(row.expires_at) <= now) return new HttpError(410, m.linkExpired, {}, 'linkExpired');
  return new HttpError(404, m.linkInvalid, {}, 'linkInvalid');
}

/**
 * The phone opened the SMS link: once, atomically (of two opens at once exactly one continues).
 * The phone receives its own device token for the registration the link was made for, and where
 * to continue; a finished or expired registration refuses the link. Opens are capped per address,
 * tokens this server never made apart from the ones it did (issue 29 item 5): a stranger guessing
 * from the patient's carrier NAT or clinic Wi-Fi spends only the unknown tokens' budget.
 */
export async function openLink(
  deps: Deps,
  input: { linkToken: string; clientIp: string },
): Promise<RegistrationResume> {
  const { registration } = deps.onboarding;
  const known = await deps.db.query(
    `SELECT 1 FROM registration_tokens WHERE token_hash = $1 AND kind = 'link'`,
    [tokenHash(input.linkToken)],
  );
  await consumeLimits(
    deps.db,
    [
      known.rows.length
        ? {
            bucket: 'registration_open',
            key: input.clientIp,
            limits: [{ max: registration.opensPerAddressHour, windowMs: HOUR }],
          }
        : {
            bucket: 'registration_open_unknown',
            key: input.clientIp,
            limits: [{ max: registration.unknownOpensPerAddressHour, windowMs: HOUR }],
          },
    ],
    deps.clock.now(),
  );
  const now = new Date(deps.clock.now());
  const hash = tokenHash(input.linkToken);
  const opened = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ draft_id: string }>(
      `UPDATE registration_tokens SET used_at = $2
        WHERE token_hash = $1 AND kind = 'link' AND used_at IS NULL AND expires_at > $2
        RETURNING draft_id::text AS draft_id`,
      [hash, now],
    );
    const draftId = rows[0]?.draft_id;
    if (!draftId) return null;
    const drafts = await tx.query<Draft & { expires_at: Date }>(
      `SELECT ${DRAFT_COLUMNS}, d.expires_at FROM registration_drafts d WHERE d.id = $1`,
      [draftId],
    );
    const draft = drafts.rows[0];
    if (!draft || draft.completed_at || new Date(draft.expires_at) <= now) return null;
    const token = await insertToken(tx, draft.id, 'device', now, new Date(draft.expires_at));
    return { draft, token };
  });
  if (!opened) {
    const { rows } = await deps.db.query<{
      used_at: Date | null;
      expires_at: Date;
      completed_at: Date | null;
    }>(
      `SELECT t.used_at, LEAST(t.expires_at, d.expires_at) AS expires_at, d.completed_at
         FROM registration_tokens t JOIN registration_drafts d ON d.id = t.draft_id
        WHERE t.token_hash = $1 AND t.kind = 'link'`,
      [hash],
    );
    throw linkRefusal(rows[0], now);
  }
  return resumeOf(deps, opened.draft, opened.token);
}

/**
 * How far the registration got, for the first device that handed it to the phone: waiting for the
 * link to be opened, opened, selfie passed, document read, completed.
 */
export async function registrationStage(deps: Deps, token: string): Promise<RegistrationStage> {
  const draft = await draftOf(deps, token, { finished: true });
  await consumeLimits(
    deps.db,
    [
      perRegistration(
        'registration_status',
        draft,
        deps.onboarding.registration.statusPerRegistrationMinute,
        MINUTE,
      ),
    ],
    deps.clock.now(),
  );
  if (draft.completed_at) return 'completed';
  const { rows } = await deps.db.query(
    `SELECT 1 FROM registration_tokens WHERE draft_id = $1 AND kind = 'link' AND used_at IS NOT NULL`,
    [draft.id],
  );
  if (!rows.length) return 'waiting';
  const kyc = await kycProgressOf(deps, draft);
  if (kyc.stage === 'documentRead') return 'document';
  if (kyc.stage === 'selfiePassed') return 'selfie';
  return 'opened';
}

/** Development only: this mobile's links expire now (the e2e's 'link after expiry'). */
export async function expireLinks(deps: Pick<Deps, 'db' | 'clock'>, celular: string) {
  await deps.db.query(
    `UPDATE registration_tokens t SET expires_at = $2
       FROM registration_drafts d
      WHERE d.id = t.draft_id AND d.celular = $1 AND t.kind = 'link'`,
    [celular, new Date(deps.clock.now() - 1000)],
  );
}
