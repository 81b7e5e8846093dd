import { createHash, randomBytes, randomInt } from 'node:crypto';
import { endPatientSessions } from '../session/service';
import { isPinFromOwnData, PIN_FROM_OWN_DATA } from '../../contract/pin';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { recordAccess, recordByDocument } from '../my-data/access-log';
import { setPatientPin } from '../patients/service';
import { clientSmsCheck, deliverOtp, pruneOtpState, verifyOtp } from '../security/otp';
import { consumeLimits, releaseEvents, type LimitCheck } from '../security/rate-limits';
import { pinChangedSmsText } from '../sms/sender';
import type { RecoverySettings } from './config';
import { recoveryMessages as m } from './messages';

const PURPOSE = 'pin_recovery';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Logs what happened to work done after the answer (never a code, a PIN or a grant). */
type RecoveryLog = { warn(obj: object, msg: string): void };

/**
 * Work a recovery answer does not wait for: the SMS with the code (so an existing patient answers
 * as fast as an unknown document, whatever the gateway's latency) and the PIN-changed notice.
 * Per context, so tests and a closing server can wait for it.
 */
const background = new WeakMap<AppContext, Set<Promise<void>>>();

function later(ctx: AppContext, log: RecoveryLog, event: string, task: () => Promise<void>): void {
  const tasks = background.get(ctx) ?? new Set<Promise<void>>();
  background.set(ctx, tasks);
  const p = task()
    .catch((err: unknown) =>
      log.warn({ event, error: err instanceof Error ? err.name : 'unknown' }, 'recovery'),
    )
    .finally(() => tasks.delete(p));
  tasks.add(p);
}

/** Resolves once every SMS a recovery call started has been handed over (or failed). */
export async function recoveryIdle(ctx: AppContext): Promise<void> {
  while (background.get(ctx)?.size) await Promise.allSettled([...background.get(ctx)!]);
}

/**
 * The budgets of PIN recovery are the pair's, document AND mobile (issue 21, item 4): a call with
 * another mobile for a known document (or another document for a known mobile) is another pair,
 * so strangers cannot spend the real pair's budget and keep its recovery closed. Every call counts
 * alike whether or not the pair matches, so a 429 says nothing about who exists.
 */
const pairKey = (documento: string, celular: string) => `${documento}:${celular}`;

function pairSendCheck(
  s: RecoverySettings,
  resendWaitMs: number,
  documento: string,
  celular: string,
): LimitCheck {
  return {
    bucket: 'recovery_send_pair',
    key: pairKey(documento, celular),
    limits: [
      { max: 1, windowMs: resendWaitMs, refusal: m.resendWait },
      { max: s.sendsPerDocumentPerHour, windowMs: HOUR },
      { max: s.sendsPerDocumentPerDay, windowMs: DAY },
    ],
  };
}

function pairValidateCheck(s: RecoverySettings, documento: string, celular: string): LimitCheck {
  return {
    bucket: 'recovery_validate_pair',
    key: pairKey(documento, celular),
    limits: [{ max: s.validationsPerDocumentPerHour, windowMs: HOUR }],
  };
}

/** The patient holding a document number, when the mobile is the one registered for it. */
async function patientMatching(
  db: Db,
  documento: string,
  celular: string,
): Promise<{ id: string } | null> {
  const { rows } = await db.query<{ id: string; celular: string | null }>(
    'SELECT id::text AS id, celular FROM patients WHERE numero_documento = $1',
    [documento],
  );
  const row = rows[0];
  return row && row.celular === celular ? { id: row.id } : null;
}

/**
 * Step 0 (and step 1's resend). Every call is counted alike (per document and mobile pair, with the
 * 30 s wait; per client address) BEFORE the document is looked up, so a 429 says nothing about who
 * exists; then the same lookup runs for everyone. The answer (the same 200 in every case) carries
 * `afterAnswer`, called with a promise of the moment the answer has left: for EVERY input it
 * schedules one task at a random moment `deliveryDelayMs` later, which stores and sends the code
 * for a matching pair and does the same housekeeping otherwise. Nothing runs right behind the
 * answer, so a request sent just after it meets the same server whatever the input (issue 21,
 * item 3); with PGlite the database runs on the event loop, so work right after the answer would
 * show in that next request's latency.
 */
export async function requestRecoveryCode(
  ctx: AppContext,
  log: RecoveryLog,
  input: { documento: string; celular: string; clientIp: string },
): Promise<{ resendAfterMs: number; afterAnswer: (answered: Promise<void>) => void }> {
  const { otp } = ctx.onboarding;
  await consumeLimits(
    ctx.db,
    [
      pairSendCheck(ctx.recovery, otp.resendWaitMs, input.documento, input.celular),
      clientSmsCheck(otp, input.clientIp),
    ],
    ctx.clock.now(),
  );
  const patient = await patientMatching(ctx.db, input.documento, input.celular);
  const { min, max } = ctx.recovery.deliveryDelayMs;
  const afterAnswer = (answered: Promise<void>) =>
    later(ctx, log, 'recovery.code_not_sent', async () => {
      await answered;
      await ctx.clock.sleep(min + randomInt(0, max - min + 1));
      if (patient) {
        await deliverOtp(ctx, {
          celular: input.celular,
          documento: input.documento,
          purpose: PURPOSE,
          clientIp: input.clientIp,
        });
      } else {
        // deliverOtp's own housekeeping, so that the task costs the database alike.
        await pruneOtpState(ctx.db, ctx.clock.now());
      }
    });
  return { resendAfterMs: otp.resendWaitMs, afterAnswer };
}

const hashGrant = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Step 1. The code is checked for the document and mobile (the onboarding code's rules: single
 * use, atomic, wrong tries per code and per pair) and the document must be that mobile's patient; only then
 * is a grant issued: 32 random bytes for the browser's cookie, their SHA-256 in the database,
 * bound to the patient and the document, single use, `grantTtlMs` long. Earlier grants of that
 * patient are retired. Returns the grant, or null for a wrong or expired code.
 */
export async function validateRecoveryCode(
  ctx: AppContext,
  input: { documento: string; celular: string; otp: string; clientIp: string },
): Promise<{ grant: string; expiresAt: Date } | null> {
  // 'Quién vio mis datos' (issue 45 item 3): a failed try is the cédula's patient's, whatever the
  // mobile; the same statement for a known or an unknown number (recordByDocument).
  const failed = () =>
    recordByDocument(ctx.db, {
      documento: input.documento,
      kind: 'pin_recovery',
      result: 'failed',
      at: new Date(ctx.clock.now()),
    });
  const tooMany = async (err: unknown): Promise<never> => {
    if (err instanceof HttpError && err.status === 429) await failed();
    throw err;
  };
  const reserved = await consumeLimits(
    ctx.db,
    [pairValidateCheck(ctx.recovery, input.documento, input.celular)],
    ctx.clock.now(),
  ).catch(tooMany);
  // The code is looked up under this document and mobile only: the same work for every input,
  // and a wrong try with another document never counts against the real pair's code.
  const codeOk = await verifyOtp(ctx, {
    celular: input.celular,
    documento: input.documento,
    purpose: PURPOSE,
    otp: input.otp,
    clientIp: input.clientIp,
  }).catch(tooMany);
  const patient = await patientMatching(ctx.db, input.documento, input.celular);
  if (!codeOk || !patient) {
    await failed();
    return null;
  }
  await releaseEvents(ctx.db, reserved);

  const grant = randomBytes(32).toString('base64url');
  const now = new Date(ctx.clock.now());
  const expiresAt = new Date(now.getTime() + ctx.recovery.grantTtlMs);
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      'UPDATE recovery_grants SET consumed_at = $2 WHERE patient_id = $1 AND consumed_at IS NULL',
      [patient.id, now],
    );
    await tx.query(
      `INSERT INTO recovery_grants (token_hash, patient_id, numero_documento, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5)`,
      [hashGrant(grant), patient.id, input.documento, now, expiresAt],
    );
    await tx.query('DELETE FROM recovery_grants WHERE expires_at < $1', [
      new Date(now.getTime() - DAY),
    ]);
  });
  return { grant, expiresAt };
}

/**
 * Step 2. In one transaction: the grant is consumed (one statement: of concurrent calls with one
 * grant exactly one gets the row), the PIN hash replaced, every other grant retired, every open
 * session of the patient ended and the login ledger cleared (lifting a lock). The notice SMS goes
 * out after the answer. Without a live grant for this document: 403 and nothing changes.
 */
export async function setRecoveredPin(
  ctx: AppContext,
  log: RecoveryLog,
  input: { documento: string; pin: string; grant: string | undefined },
): Promise<{ patientId: string }> {
  if (!input.grant) throw new HttpError(403, m.noGrant);
  const grantHash = hashGrant(input.grant);
  const now = new Date(ctx.clock.now());
  // The grant is checked before the (costly) hash, then consumed atomically in the transaction.
  const live = await ctx.db.query<{ birth_date: string | null }>(
    `SELECT to_char(p.fecha_nacimiento, 'YYYY-MM-DD') AS birth_date
       FROM recovery_grants g JOIN patients p ON p.id = g.patient_id
      WHERE g.token_hash = $1 AND g.numero_documento = $2 AND g.consumed_at IS NULL AND g.expires_at > $3`,
    [grantHash, input.documento, now],
  );
  const owner = live.rows[0];
  if (!owner) throw new HttpError(403, m.noGrant);
  // Only the grant's holder learns this (the code proved the mobile); the grant stays usable.
  if (isPinFromOwnData(input.pin, { documento: input.documento, birthDate: owner.birth_date }))
    throw new HttpError(400, m.pinFromOwnData, {}, PIN_FROM_OWN_DATA);
  const pinHash = await ctx.pins.hash(input.pin);

  const changed = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ patient_id: string }>(
      `UPDATE recovery_grants SET consumed_at = $3
        WHERE token_hash = $1 AND numero_documento = $2 AND consumed_at IS NULL AND expires_at > $3
        RETURNING patient_id::text AS patient_id`,
      [grantHash, input.documento, now],
    );
    const patientId = rows[0]?.patient_id;
    if (!patientId) return null;
    const patient = await setPatientPin(
      tx,
      { patientId, documento: input.documento, pinHash },
      now,
    );
    if (!patient) return null;
    await tx.query(
      'UPDATE recovery_grants SET consumed_at = $2 WHERE patient_id = $1 AND consumed_at IS NULL',
      [patientId, now],
    );
    await endPatientSessions({ ...ctx, db: tx }, patientId);
    await recordAccess(tx, { patientId, kind: 'pin_recovery', result: 'ok', at: now });
    return { patientId, celular: patient.celular };
  });
  if (!changed) throw new HttpError(403, m.noGrant);

  const { celular } = changed;
  if (celular) {
    later(ctx, log, 'recovery.notice_not_sent', () =>
      ctx.sms.send({
        to: celular,
        purpose: PURPOSE,
        body: pinChangedSmsText(ctx.onboarding.sms.serviceName),
      }),
    );
  }
  return { patientId: changed.patientId };
}
