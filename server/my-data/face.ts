import type { MyFaceState } from '../../contract/my-face';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { forgetEvidenceFaces, forgetSessionFace, removeFace } from '../identity/store';
import { login } from '../login/service';
import { clearPatientFaceLock, lockPatientFace, unlockPatientFace } from '../patients/service';
import { issueOtp, OtpDeliveryError, verifyOtp } from '../security/otp';
import { recordAccess } from './access-log';
import { myFaceMessages as m } from './face-messages';

/**
 * 'Mi rostro' (issue 45 item 4) for the patient of the live session: lock face recognition, unlock
 * it with the PIN and an SMS code, withdraw the biometric consent with the PIN. The PIN is login's
 * check (its lockout counts these guesses too); the code is the SMS code of registration and PIN
 * recovery (server/security/otp.ts: expiry, tries per code, resend wait and SMS budgets), bound to
 * the patient's document and mobile under its own purpose. Every request is written to the
 * patient's access log; never a PIN or a code.
 */

const PURPOSE = 'face_unlock';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = {
  numero_documento: string;
  celular: string | null;
  locked_at: Date | null;
  since: Date | null;
};

async function rowOf(db: Db, patientId: string): Promise<Row> {
  const { rows } = await db.query<Row>(
    `SELECT p.numero_documento, p.celular, p.face_locked_at AS locked_at, e.created_at AS since
       FROM patients p LEFT JOIN face_enrollments e ON e.patient_id = p.id WHERE p.id = $1`,
    [patientId],
  );
  if (!rows[0]) throw new Error('my-face: a live session without its patient');
  return rows[0];
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** Only the last three digits of the mobile: enough to recognise it, nothing to read off a screen. */
export const maskCelular = (c: string | null) =>
  c ? '•'.repeat(Math.max(0, c.length - 3)) + c.slice(-3) : null;

const stateOf = (row: Row): MyFaceState => ({
  enrolled: row.since !== null,
  since: iso(row.since),
  locked: row.since !== null && row.locked_at !== null,
  lockedAt: row.since !== null ? iso(row.locked_at) : null,
  celular: maskCelular(row.celular),
});

export async function myFace(ctx: AppContext, patientId: string): Promise<MyFaceState> {
  return stateOf(await rowOf(ctx.db, patientId));
}

/** Locking needs no code: it only protects. Locking a locked face answers its state again. */
export async function lockFace(ctx: AppContext, patientId: string): Promise<MyFaceState> {
  const at = new Date(ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    if (await lockPatientFace(tx, patientId, at))
      await recordAccess(tx, { patientId, kind: 'face_lock', result: 'ok', at });
  });
  const face = await myFace(ctx, patientId);
  if (!face.enrolled) throw new HttpError(409, m.noFace);
  return face;
}

/** The unlock's SMS code, to the registered mobile, under the SMS codes' limits. */
export async function sendUnlockCode(
  ctx: AppContext,
  patientId: string,
  clientIp: string,
): Promise<{ face: MyFaceState; resendAfterMs: number }> {
  const row = await rowOf(ctx.db, patientId);
  const face = stateOf(row);
  if (!face.enrolled) throw new HttpError(409, m.noFace);
  if (!face.locked) throw new HttpError(409, m.notLocked);
  if (!row.celular) throw new HttpError(409, m.noCelular);
  try {
    const { resendAfterMs } = await issueOtp(ctx, {
      celular: row.celular,
      purpose: PURPOSE,
      documento: row.numero_documento,
      clientIp,
    });
    return { face, resendAfterMs };
  } catch (err) {
    if (err instanceof OtpDeliveryError) throw new HttpError(503, m.smsFailed);
    throw err;
  }
}

/**
 * Login's PIN check without a login entry: each guess is counted against the account's lockout
 * before it is compared (concurrent guesses get at most what is left); a locked account answers
 * login's 429. A wrong PIN is a 400 here (the session is fine) and is logged as the request failed.
 */
async function checkPin(
  ctx: AppContext,
  patientId: string,
  row: Row,
  input: { pin: string; clientIp: string },
  kind: 'face_unlock' | 'face_withdraw',
): Promise<void> {
  try {
    await login(
      ctx,
      { numero_documento: row.numero_documento, pin: input.pin, clientIp: input.clientIp },
      { record: false },
    );
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 401) throw err;
    await recordAccess(ctx.db, {
      patientId,
      kind,
      result: 'failed',
      at: new Date(ctx.clock.now()),
    });
    throw new HttpError(400, m.wrongPin);
  }
}

/** The PIN, then the SMS code (consumed atomically: of concurrent right tries one unlocks). */
export async function unlockFace(
  ctx: AppContext,
  patientId: string,
  input: { pin: string; otp: string; clientIp: string },
): Promise<MyFaceState> {
  const row = await rowOf(ctx.db, patientId);
  const face = stateOf(row);
  if (!face.enrolled) throw new HttpError(409, m.noFace);
  if (!face.locked) throw new HttpError(409, m.notLocked);
  await checkPin(ctx, patientId, row, input, 'face_unlock');
  const codeOk =
    row.celular !== null &&
    (await verifyOtp(ctx, {
      celular: row.celular,
      purpose: PURPOSE,
      documento: row.numero_documento,
      otp: input.otp,
      clientIp: input.clientIp,
    }));
  const at = new Date(ctx.clock.now());
  if (!codeOk) {
    await recordAccess(ctx.db, { patientId, kind: 'face_unlock', result: 'failed', at });
    throw new HttpError(400, m.wrongOtp, {}, 'wrong_otp'); // the browser focuses the code
  }
  await ctx.db.transaction(async (tx) => {
    if (await unlockPatientFace(tx, patientId))
      await recordAccess(tx, { patientId, kind: 'face_unlock', result: 'ok', at });
  });
  return myFace(ctx, patientId);
}

/**
 * Withdraws the biometric consent, with the PIN: in one transaction the patient's row lock (so a
 * recognition being decided ends before, or sees the face gone), the enrolment deleted (migration
 * 031's trigger: every process's index and gallery drop it at their next poll, and identification
 * re-scores against face_enrollments, so it is never answered even before), the face's
 * descriptions and photo in the patient's KYC sessions and their evidence rows forgotten, the lock
 * lifted. A case's sealed evidence is kept until its purge (docs/my-data.md).
 */
export async function withdrawFace(
  ctx: AppContext,
  patientId: string,
  input: { pin: string; clientIp: string },
): Promise<MyFaceState> {
  const row = await rowOf(ctx.db, patientId);
  if (row.since === null) throw new HttpError(409, m.noFace);
  await checkPin(ctx, patientId, row, input, 'face_withdraw');
  const at = new Date(ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    await clearPatientFaceLock(tx, patientId);
    if (!(await removeFace(tx, patientId))) return; // withdrawn meanwhile: logged once
    for (const sessionId of await sessionsOf(tx, patientId)) {
      await forgetSessionFace(tx, sessionId);
      await forgetEvidenceFaces(tx, sessionId);
    }
    await recordAccess(tx, { patientId, kind: 'face_withdraw', result: 'ok', at });
  });
  return myFace(ctx, patientId);
}

/** The KYC sessions of the patient's registration: the one registered, and the earlier tries. */
async function sessionsOf(db: Db, patientId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH regs AS (SELECT session_id FROM onboarding_registrations WHERE patient_id = $1)
     SELECT session_id AS id FROM regs
     UNION
     SELECT unnest(d.earlier_kyc_sessions) FROM registration_drafts d
      WHERE d.kyc_session_id IN (SELECT session_id FROM regs)`,
    [patientId],
  );
  return rows.map((r) => r.id).filter((id) => UUID.test(id));
}
