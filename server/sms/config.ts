import { z } from 'zod';
import { ConfigError, int, parseEnv } from '../env';

export type SmsGatewaySettings = {
  url: string;
  user: string | undefined;
  password: string | undefined;
  sender: string;
  timeoutMs: number;
  /** Extra attempts after a 5xx answer (never after a 4xx, a timeout or a network error). */
  retries: number;
  retryBaseMs: number;
};

export type SmsConfig =
  | { provider: 'outbox'; serviceName: string }
  | { provider: 'http'; serviceName: string; gateway: SmsGatewaySettings };

const schema = z.object({
  SMS_PROVIDER: z.enum(['outbox', 'http']).optional(),
  SMS_SERVICE_NAME: z.string().trim().min(1).max(40).default('Portal del Paciente'),
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_USER: z.string().optional(),
  SMS_GATEWAY_PASSWORD: z.string().optional(),
  SMS_GATEWAY_SENDER: z.string().trim().min(1).max(20).optional(),
  SMS_GATEWAY_TIMEOUT_MS: int(5000),
  SMS_GATEWAY_RETRIES: int(2, 0, 5),
  SMS_GATEWAY_RETRY_BASE_MS: int(300, 0),
});

/**
 * Ports fetch refuses to connect to (the Fetch standard's "bad port" list): a gateway URL on one of
 * them could never send a message, so it is refused at start.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** Why the gateway URL cannot work (fetch would refuse it before any connection), or null. */
function gatewayUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'use http: or https:';
  if (url.username || url.password) return 'put the credentials in SMS_GATEWAY_USER/_PASSWORD';
  if (url.port && FETCH_BAD_PORTS.has(Number(url.port)))
    return `port ${url.port} is one fetch refuses to connect to`;
  return null;
}

/**
 * SMS settings from the environment. Outside production the development outbox is the default;
 * in production the HTTP gateway is the default and its URL is required (the outbox only when
 * SMS_PROVIDER=outbox is set explicitly).
 */
export function loadSmsConfig(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): SmsConfig {
  const c = parseEnv(schema, env);
  const provider =
    c.SMS_PROVIDER ?? (appEnv === 'production' || c.SMS_GATEWAY_URL ? 'http' : 'outbox');
  if (provider === 'outbox') return { provider, serviceName: c.SMS_SERVICE_NAME };
  if (!c.SMS_GATEWAY_URL) {
    throw new ConfigError(
      'Invalid configuration: SMS_GATEWAY_URL is required for the HTTP SMS gateway',
    );
  }
  const problem = gatewayUrlProblem(c.SMS_GATEWAY_URL);
  if (problem) throw new ConfigError(`Invalid configuration:\nSMS_GATEWAY_URL: ${problem}`);
  return {
    provider,
    serviceName: c.SMS_SERVICE_NAME,
    gateway: {
      url: c.SMS_GATEWAY_URL,
      user: c.SMS_GATEWAY_USER,
      password: c.SMS_GATEWAY_PASSWORD,
      sender: c.SMS_GATEWAY_SENDER ?? c.SMS_SERVICE_NAME.slice(0, 11),
      timeoutMs: c.SMS_GATEWAY_TIMEOUT_MS,
      retries: c.SMS_GATEWAY_RETRIES,
      retryBaseMs: c.SMS_GATEWAY_RETRY_BASE_MS,
    },
  };
}
