import type { Db } from '../db/client';
import type { SmsConfig } from './config';
import { createHttpGatewaySender } from './http-gateway';
import { createOutboxSender } from './outbox';
import type { SmsSender } from './sender';

/** The configured provider: the development outbox or the HTTP gateway. */
export function createSmsSender(
  config: SmsConfig,
  deps: { db: Db; clock: { now(): number; sleep(ms: number): Promise<void> } },
): SmsSender {
  if (config.provider === 'outbox') return createOutboxSender(deps.db, () => deps.clock.now());
  return createHttpGatewaySender({ ...config.gateway, sleep: (ms) => deps.clock.sleep(ms) });
}
