import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  CONTINUE_ON_PHONE_PATH,
  type RegistrationResume,
  type RegistrationStage,
} from '../../contract/onboarding';
import { isAcceptablePin } from '../../contract/pin';
import type { AppContext } from '../context';
import { isUniqueViolation, type Db } from '../db/client';
import { HttpError } from '../http/errors';
import { clientSmsCheck } from '../security/otp';
import { consumeLimits, type LimitCheck } from '../security/rate-limits';
import { linkSmsText } from '../sms/sender';
import { sendLogged } from '../sms/send-log';
import type { KycProgress } from './kyc-store';
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
};

type Deps = Pick<AppContext, 'db' | 'clock' | 'onboarding' | 'kyc' | 'caseReader'>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const newToken = () => randomBytes(32).toString('base64url');
const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

async function insertToken(
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

const DRAFT_COLUMNS =
  'd.id::text AS id, d.celular, d.email, d.pin_hash, d.kyc_session_id, d.completed_at';

/** What the KYC session of a registration shows, 'started' when it has none. */
async function kycProgressOf(deps: Deps, draft: Draft): Promise<KycProgress> {
  if (!draft.kyc_session_id || !deps.kyc) return { stage: 'started' };
  return deps.kyc.progressOf(draft.kyc_session_id);
}

/**
 * Where the registration continues: the first step that is not finished (or no longer valid). With
 * a case (issue 30): 'case' while it is open, rejected or expired; 'supplementary' once approved
 * (the decision bound a verified KYC session to the registration); after a 'repeat' the usual steps
 * (the decision cleared the session for the selfie, or bound a live one for a side of the card,
 * which the answer names as `retake` until it is read).
 */
async function resumeOf(deps: Deps, draft: Draft, token: string): Promise<RegistrationResume> {
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
 * A case keeps its registration alive (issue 30): the registrations and their devices' tokens live
 * at least until `until` (never shortened). Inside the case's transaction, or the retention job's.
 */
export async function holdRegistrations(tx: Db, draftIds: string[], until: Date): Promise<void> {
  if (!draftIds.length) return;
  await tx.query(
    'UPDATE registration_drafts SET expires_at = GREATEST(expires_at, $2) WHERE id = ANY($1::uuid[])',
    [draftIds, until],
  );
  await tx.query(
    `UPDATE registration_tokens SET expires_at = GREATEST(expires_at, $2)
      WHERE draft_id = ANY($1::uuid[]) AND kind = 'device'`,
    [draftIds, until],
  );
}

/**
 * A case was decided: the registration (and its devices) stay resumable for the resume window from
 * now, and continue with `kycSessionId` (a verified or live session the decision created; null: the
 * selfie again; undefined: unchanged). Inside the decision's transaction.
 */
export async function reopenRegistration(
  tx: Db,
  input: { draftId: string; now: Date; until: Date; kycSessionId?: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE registration_drafts SET expires_at = $2, updated_at = $3,
            kyc_session_id = CASE WHEN $4 THEN $5 ELSE kyc_session_id END
      WHERE id = $1`,
    [
      input.draftId,
      input.until,
      input.now,
      input.kycSessionId !== undefined,
      input.kycSessionId ?? null,
    ],
  );
  await tx.query(
    `UPDATE registration_tokens SET expires_at = $2 WHERE draft_id = $1 AND kind = 'device'`,
    [input.draftId, input.until],
  );
}

/**
 * After a case's decision: an SMS to the registration's mobile with a one-time registration link
 * (valid as long as the registration), without personal data. False when the gateway refused it.
 */
export async function sendDecisionLink(
  ctx: AppContext,
  input: { draftId: string; origin: string; clientIp: string; text: (link: string) => string },
): Promise<boolean> {
  const { rows } = await ctx.db.query<{ celular: string; expires_at: Date }>(
    'SELECT celular, expires_at FROM registration_drafts WHERE id = $1 AND completed_at IS NULL',
    [input.draftId],
  );
  const draft = rows[0];
  if (!draft) return false;
  const now = new Date(ctx.clock.now());
  const token = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM registration_tokens WHERE draft_id = $1 AND kind = 'link' AND used_at IS NULL`,
      [input.draftId],
    );
    return insertToken(tx, input.draftId, 'link', now, new Date(draft.expires_at));
  });
  const link = linkUrl(ctx.onboarding.registration.publicUrl ?? input.origin, token);
  const delivery = await sendLogged(
    ctx,
    { to: draft.celular, purpose: 'case_decision', body: input.text(link) },
    {
      clientIp: input.clientIp,
      countedEvents: [],
      undo: () =>
        ctx.db.query('DELETE FROM registration_tokens WHERE token_hash = $1', [tokenHash(token)]),
    },
  );
  return delivery.status !== 'refused';
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
 * The live registration a device token names; 401 'verificá tu celular de nuevo' when the token is
 * unknown, superseded or expired. A finished registration answers 409 'El paciente ya existe'
 * unless `finished` accepts it (the status a first device reads).
 */
export async function draftOf(
  deps: Pick<Deps, 'db' | 'clock'>,
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

const perRegistration = (bucket: string, draft: Draft, max: number, windowMs: number) =>
  ({ bucket, key: draft.id, limits: [{ max, windowMs }] }) satisfies LimitCheck;

/** Step 2 kept: the PIN's Argon2id hash (never the PIN), the terms' acceptance and step 0's e-mail. */
export async function savePin(
  ctx: AppContext,
  input: { token: string; pin: string; email: string | null },
): Promise<void> {
  const draft = await draftOf(ctx, input.token);
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
        SET pin_hash = $2, email = $3, terms_accepted_at = $4, updated_at = $4 WHERE id = $1`,
    [draft.id, pinHash, input.email, now],
  );
}

/** How many replaced KYC sessions a registration remembers for its case. */
const EARLIER_SESSIONS = 5;

/** The KYC sessions the registration had before its current one, newest first. */
export async function earlierKycSessionsOf(db: Db, draftId: string): Promise<string[]> {
  const { rows } = await db.query<{ ids: string[] | null }>(
    'SELECT earlier_kyc_sessions AS ids FROM registration_drafts WHERE id = $1',
    [draftId],
  );
  return [...(rows[0]?.ids ?? [])].reverse();
}

/** Step 4 started a KYC session: it belongs to this registration (and to no other). */
export async function bindKycSession(
  deps: Deps,
  input: { token: string; sessionId: string },
): Promise<void> {
  const draft = await draftOf(deps, input.token);
  if (!draft.pin_hash) throw new HttpError(409, m.pinFirst);
  try {
    // The session it replaces ('Reintentar' after a refusal) is remembered, so that a case opened
    // later carries that attempt's evidence too (issue 43 item 2); the last EARLIER_SESSIONS.
    await deps.db.query(
      `UPDATE registration_drafts SET kyc_session_id = $2, updated_at = $3,
              earlier_kyc_sessions = CASE
                WHEN kyc_session_id IS NULL OR kyc_session_id = $2 THEN earlier_kyc_sessions
                ELSE (earlier_kyc_sessions || kyc_session_id)[
                  greatest(1, cardinality(earlier_kyc_sessions) + 2 - $4):]
              END
        WHERE id = $1`,
      [draft.id, input.sessionId, new Date(deps.clock.now()), EARLIER_SESSIONS],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, m.sessionOfAnother);
    throw err;
  }
}

/**
 * The card this registration's own KYC session read belongs to a patient already (issue 29 item
 * 10): said as soon as the card is read, not after 'Finalizar'. Only for the session bound to this
 * live registration and only once it read a card (the scan needs the patient's face and the card
 * itself), so it is no oracle on document numbers.
 */
export async function isDocumentRegistered(
  deps: Deps,
  input: { token: string; sessionId: string },
): Promise<boolean> {
  const draft = await draftOf(deps, input.token);
  if (draft.kyc_session_id !== input.sessionId) throw new HttpError(403, m.sessionOfAnother);
  if (!deps.kyc) throw new HttpError(503, m.kycUnavailable);
  const completed = await deps.kyc.getCompletedKyc(input.sessionId);
  const documento = completed?.idData.DocumentNumber.replace(/\D/g, '');
  if (!documento) throw new HttpError(409, m.kycIncomplete);
  const { rows } = await deps.db.query('SELECT 1 FROM patients WHERE numero_documento = $1', [
    documento,
  ]);
  return rows.length > 0;
}

/** The link's address: the configured public one, else the origin the browser called. */
const linkUrl = (base: string, token: string) => `${base}${CONTINUE_ON_PHONE_PATH}#${token}`;

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
