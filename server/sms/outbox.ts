import type { Db } from '../db/client';
import type { SmsMessage, SmsSender } from './sender';

/**
 * Development provider: "sends" by storing the message in the database, where the development
 * route GET /api/dev/sms-outbox reads it. Shared by every API process, like the real gateway.
 */
export function createOutboxSender(db: Db, now: () => number): SmsSender {
  return {
    provider: 'outbox',
    async send(message: SmsMessage) {
      await db.query(
        'INSERT INTO sms_outbox (celular, purpose, body, created_at) VALUES ($1, $2, $3, $4)',
        [message.to, message.purpose, message.body, new Date(now())],
      );
    },
  };
}

type OutboxEntry = { celular: string; purpose: string; body: string; createdAt: string };

/** Newest first. */
export async function readOutbox(db: Db, celular: string, limit = 20): Promise<OutboxEntry[]> {
  const { rows } = await db.query<{
    celular: string;
    purpose: string;
    body: string;
    created_at: Date;
  }>(
    'SELECT celular, purpose, body, created_at FROM sms_outbox WHERE celular = $1 ORDER BY id DESC LIMIT $2',
    [celular, limit],
  );
  return rows.map((r) => ({
    celular: r.celular,
    purpose: r.purpose,
    body: r.body,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
