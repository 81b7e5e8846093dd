import type { Db } from '../db/client';
import { releaseEvents } from '../security/rate-limits';
import { SmsDeliveryError, type SmsMessage, type SmsPurpose, type SmsSender } from './sender';

type Deps = { db: Db; sms: SmsSender; clock: { now(): number } };

/** One line of `sms_send_log` per send: who, why, through which provider, and how it ended. */
async function logSmsSend(
  deps: Omit<Deps, 'sms'> & { sms: Pick<SmsSender, 'provider'> },
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

type Delivery = { status: 'sent' | 'unconfirmed' } | { status: 'refused'; cause: unknown };

/**
 * Sends one SMS (a code, a link) and logs how it ended. A definite refusal (the gateway said no or
 * could not be reached, or any error that is not the gateway's) undoes what the caller stored for
 * it (`undo`), gives the counted limit events back and answers 'refused'. After a timeout the SMS
 * may have left: it counts, and what was stored stays valid ('unconfirmed').
 */
export async function sendLogged(
  deps: Deps,
  message: SmsMessage,
  options: { clientIp: string; countedEvents: string[]; undo: () => Promise<unknown> },
): Promise<Delivery> {
  const log = (status: 'sent' | 'failed' | 'unconfirmed', error: string | null) =>
    logSmsSend(deps, {
      celular: message.to,
      purpose: message.purpose,
      clientIp: options.clientIp,
      status,
      error,
    });
  try {
    await deps.sms.send(message);
  } catch (err) {
    const reason = err instanceof Error ? err.message.slice(0, 200) : 'unknown';
    if (!(err instanceof SmsDeliveryError) || err.definite) {
      await options.undo();
      await releaseEvents(deps.db, options.countedEvents);
      await log('failed', reason);
      return { status: 'refused', cause: err };
    }
    await log('unconfirmed', reason);
    return { status: 'unconfirmed' };
  }
  await log('sent', null);
  return { status: 'sent' };
}
