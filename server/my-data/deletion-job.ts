import type { AppContext } from '../context';
import { deletionReceiptSmsText } from '../sms/sender';
import { erasePatient } from './deletion-erase';

type JobLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** One runner at a time across processes (PostgreSQL) and connections: a transaction's lock. */
const RUNNER_LOCK = 'my-data:account-deletions';

/**
 * Deletes every account whose deletion is due (issue 45 item 6), one per transaction: the runner
 * lock, then the claim (one statement: `pending` and due, so a request cancelled a moment before is
 * never taken, and a cancel arriving during the deletion finds it `done`), then the patient and
 * everything naming them. The receipt SMS goes out after the commit, without personal data.
 * Returns how many accounts were deleted; 0 when another runner holds the lock.
 */
export async function runDueDeletions(ctx: AppContext, log?: JobLog): Promise<number> {
  let deleted = 0;
  for (;;) {
    const now = new Date(ctx.clock.now());
    const done = await ctx.db.transaction(async (tx) => {
      const { rows: lock } = await tx.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok',
        [RUNNER_LOCK],
      );
      if (!lock[0]?.ok) return null;
      const claimed = (
        await tx.query<{ id: string; patient_id: string }>(
          `UPDATE account_deletions SET status = 'done', done_at = $1
            WHERE id = (SELECT id FROM account_deletions WHERE status = 'pending' AND due_at <= $1
                         ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
              AND status = 'pending'
          RETURNING id::text AS id, patient_id::text AS patient_id`,
          [now],
        )
      ).rows[0];
      if (!claimed) return null;
      return { request: claimed.id, erased: await erasePatient(tx, claimed.patient_id) };
    });
    if (!done) return deleted;
    deleted += 1;
    log?.info({ event: 'my_data.account_deleted', request: done.request }, 'my-data');
    const celular = done.erased?.celular;
    if (!celular) continue;
    try {
      await ctx.sms.send({
        to: celular,
        purpose: 'account_deletion',
        body: deletionReceiptSmsText(ctx.onboarding.sms.serviceName),
      });
    } catch (err) {
      log?.warn(
        { event: 'my_data.receipt_not_sent', error: err instanceof Error ? err.name : 'unknown' },
        'my-data',
      );
    }
  }
}

/** Runs the job at start and every `checkEveryMs`, one run at a time in this process. */
export function startDeletionJob(ctx: AppContext, log: JobLog): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = runDueDeletions(ctx, log)
      .catch((err: unknown) =>
        log.warn(
          // the error's name only: a database message may quote a row's values
          { event: 'my_data.deletion_failed', error: err instanceof Error ? err.name : 'unknown' },
          'my-data',
        ),
      )
      .finally(() => (busy = false));
  };
  tick();
  const interval = setInterval(tick, ctx.deletion.checkEveryMs).unref();
  return {
    async stop() {
      clearInterval(interval);
      await running;
    },
  };
}
