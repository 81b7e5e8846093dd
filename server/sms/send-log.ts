import type { Db } from '../db/client';
import type { SmsPurpose, SmsSender } from './sender';

/** One line of `sms_send_log` per send: who, why, through which provider, and how it ended. */
export async function logSmsSend(
  deps: { db: Db; sms: Pick<SmsSender, 'provider'>; clock: { now(): number } },
  entry: {
    celular: string;
    purpose: SmsPurpose;
    clientIp: string;
    status: 'sent' | 'failed' | 'unconfirmed';
    error: string | null;
  },
): Promise<void> {
  await deps.db.query(
    'INSERT INTO sms_send_log (celular, purpose, provider, client_ip, status, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      entry.celular,
      entry.purpose,
      deps.sms.provider,
      entry.clientIp,
      entry.status,
      entry.error,
      new Date(deps.clock.now()),
    ],
  );
}
