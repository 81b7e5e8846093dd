import type { PendingDeletion } from '../../contract/my-data-deletion';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { login } from '../login/service';
import { issueOtp, OtpDeliveryError, verifyOtp } from '../security/otp';
import { deletionAskedSmsText } from '../sms/sender';
import { recordAccess } from './access-log';
import { deletionMessages as m } from './deletion-messages';

const PURPOSE = 'account_deletion';
type Log = { warn(obj: object, msg: string): void };

const due = new Intl.DateTimeFormat('es-PY', {
  timeZone: 'America/Asuncion',
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
});

async function patientOf(ctx: AppContext, patientId: string) {
  const row = (
    await ctx.db.query<{ documento: string; celular: string | null }>(
      'SELECT numero_documento AS documento, celular FROM patients WHERE id = $1',
      [patientId],
    )
  ).rows[0];
  if (!row) throw new HttpError(401, m.noSession);
  return row;
}

/** The patient's pending deletion, if any. */
export async function pendingDeletion(
  ctx: AppContext,
  patientId: string,
): Promise<PendingDeletion | null> {
  const row = (
    await ctx.db.query<{ due_at: Date }>(
      `SELECT due_at FROM account_deletions WHERE patient_id = $1 AND status = 'pending'`,
      [patientId],
    )
  ).rows[0];
  return row ? { dueAt: new Date(row.due_at).toISOString() } : null;
}

/**
 * Step 1: the PIN, checked by login's own check (counted against its lockout: a wrong PIN here is
 * a failed guess, the lock answers 429), then an SMS code to the registered mobile, bound to the
 * cédula number and to this purpose (the codes' resend wait, SMS budgets and expiry).
 */
export async function askDeletionCode(
  ctx: AppContext,
  log: Log,
  input: { patientId: string; pin: string; clientIp: string },
): Promise<{ resendAfterMs: number }> {
  const { documento, celular } = await patientOf(ctx, input.patientId);
  if (await pendingDeletion(ctx, input.patientId)) throw new HttpError(409, m.alreadyPending);
  try {
    await login(
      ctx,
      { numero_documento: documento, pin: input.pin, clientIp: input.clientIp },
      { record: false },
    );
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 401) throw err;
    const at = new Date(ctx.clock.now());
    await recordAccess(ctx.db, {
      patientId: input.patientId,
      kind: 'deletion_request',
      result: 'failed',
      at,
    });
    throw new HttpError(403, m.wrongPin);
  }
  // 422, not 409: the browser answers a 409 by reloading, which would hide this reason.
  if (!celular) throw new HttpError(422, m.noCelular);
  try {
    const sent = await issueOtp(ctx, {
      celular,
      documento,
      purpose: PURPOSE,
      clientIp: input.clientIp,
    });
    return { resendAfterMs: sent.resendAfterMs };
  } catch (err) {
    if (!(err instanceof OtpDeliveryError)) throw err;
    log.warn({ event: 'my_data.deletion_code_not_sent' }, 'my-data');
    throw new HttpError(503, m.sendFailed);
  }
}

/**
 * Step 2: the SMS code asks for the deletion, due MY_DATA_DELETION_WAIT_HOURS from now (one
 * pending request per patient: a second confirmation answers the first). Logged as
 * 'deletion_request'; an SMS tells the mobile when, and how to cancel.
 */
export async function confirmDeletion(
  ctx: AppContext,
  log: Log,
  input: { patientId: string; codigo: string; clientIp: string },
): Promise<PendingDeletion> {
  const { documento, celular } = await patientOf(ctx, input.patientId);
  const ok =
    !!celular &&
    (await verifyOtp(ctx, {
      celular,
      documento,
      purpose: PURPOSE,
      otp: input.codigo,
      clientIp: input.clientIp,
    }));
  if (!ok) throw new HttpError(400, m.wrongCode);
  const now = new Date(ctx.clock.now());
  const dueAt = new Date(now.getTime() + ctx.deletion.waitMs);
  const created = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ due_at: Date }>(
      `INSERT INTO account_deletions (patient_id, requested_at, due_at) VALUES ($1, $2, $3)
       ON CONFLICT (patient_id) WHERE status = 'pending' DO NOTHING RETURNING due_at`,
      [input.patientId, now, dueAt],
    );
    if (!rows[0]) return false;
    await recordAccess(tx, {
      patientId: input.patientId,
      kind: 'deletion_request',
      result: 'ok',
      at: now,
    });
    return true;
  });
  const pending = await pendingDeletion(ctx, input.patientId);
  if (!pending) throw new HttpError(409, m.nothingToCancel);
  if (created && celular) {
    try {
      await ctx.sms.send({
        to: celular,
        purpose: PURPOSE,
        body: deletionAskedSmsText(ctx.onboarding.sms.serviceName, due.format(dueAt)),
      });
    } catch (err) {
      log.warn(
        { event: 'my_data.deletion_notice_not_sent', error: err instanceof Error ? err.name : '' },
        'my-data',
      );
    }
  }
  return pending;
}

/**
 * Cancels the pending deletion (the session is enough: cancelling only keeps the account). One
 * statement with the condition: a request the job has already claimed is `done`, not cancelled.
 */
export async function cancelDeletion(ctx: AppContext, patientId: string): Promise<void> {
  const now = new Date(ctx.clock.now());
  const cancelled = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE account_deletions SET status = 'cancelled', cancelled_at = $2
        WHERE patient_id = $1 AND status = 'pending' RETURNING 1`,
      [patientId, now],
    );
    if (!rows.length) return false;
    await recordAccess(tx, { patientId, kind: 'deletion_cancel', result: 'ok', at: now });
    return true;
  });
  if (!cancelled) throw new HttpError(409, m.nothingToCancel);
}
