import type { SmsGatewaySettings } from './config';
import { SmsDeliveryError, toE164, type SmsMessage, type SmsSender } from './sender';

export type GatewayOptions = SmsGatewaySettings & {
  /** Waits between retries (the app's injectable clock in tests). */
  sleep: (ms: number) => Promise<void>;
};

/**
 * HTTP SMS gateway: POST JSON `{ from, to, text }` (to in E.164) with HTTP Basic credentials.
 * A 2xx is delivered. A 5xx is retried (exponential backoff) up to `retries` more times; a 4xx,
 * a timeout or a network error is not retried: the gateway may already have sent the message, or
 * will refuse it again.
 */
export function createHttpGatewaySender(opts: GatewayOptions): SmsSender {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (opts.user !== undefined || opts.password !== undefined) {
    const token = Buffer.from(`${opts.user ?? ''}:${opts.password ?? ''}`).toString('base64');
    headers.authorization = `Basic ${token}`;
  }
  async function attempt(message: SmsMessage): Promise<number> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
    try {
      const res = await fetch(opts.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ from: opts.sender, to: toE164(message.to), text: message.body }),
        signal: controller.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status;
    } catch (err) {
      if (controller.signal.aborted)
        throw new SmsDeliveryError(`SMS gateway timed out after ${opts.timeoutMs} ms`);
      // Refused or unknown host: nothing was sent. Anything else (reset mid-request) may have been.
      const code = (err as { cause?: { code?: string } }).cause?.code;
      throw new SmsDeliveryError(
        `SMS gateway unreachable: ${(err as Error).message}`,
        undefined,
        code === 'ECONNREFUSED' || code === 'ENOTFOUND',
      );
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    provider: 'http',
    async send(message) {
      for (let i = 0; ; i++) {
        const status = await attempt(message);
        if (status >= 200 && status < 300) return;
        if (status < 500 || i >= opts.retries) {
          throw new SmsDeliveryError(`SMS gateway answered HTTP ${status}`, status);
        }
        await opts.sleep(opts.retryBaseMs * 2 ** i);
      }
    },
  };
}
