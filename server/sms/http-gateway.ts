import type { SmsGatewaySettings } from './config';
import { SmsDeliveryError, toE164, type SmsMessage, type SmsSender } from './sender';

type GatewayOptions = SmsGatewaySettings & {
  /** Waits between retries (the app's injectable clock in tests). */
  sleep: (ms: number) => Promise<void>;
};

/** Error codes of a request that never reached the gateway (no byte of it was sent). */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Whether fetch failed before any connection to the gateway (then the SMS surely did not leave). */
function beforeConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code && NOT_CONNECTED.has(cause.code)) return true;
  // fetch's own refusals carry no code: a port on its bad-port list, a URL it cannot request.
  return (
    cause?.message === 'bad port' || /invalid url|failed to parse url/i.test(cause?.message ?? '')
  );
}

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
      // An error before any connection (refused, unknown host, no route, a port or URL fetch
      // refuses, a TLS handshake that failed): nothing was sent. Anything else (a reset
      // mid-request) may have been.
      throw new SmsDeliveryError(
        `SMS gateway unreachable: ${(err as Error).message}`,
        undefined,
        beforeConnection(err),
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
