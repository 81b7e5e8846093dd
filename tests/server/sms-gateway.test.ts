import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/env';
import { loadSmsConfig } from '../../server/sms/config';
import { createHttpGatewaySender } from '../../server/sms/http-gateway';
import { otpSmsText, SmsDeliveryError } from '../../server/sms/sender';
import { FakeClock } from './helpers';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: unknown };

/** A gateway on 127.0.0.1 answering each request with the next scripted handler. */
let server: Server;
let url: string;
let seen: Seen[];
let script: ((res: ServerResponse) => void)[];
let arrived: () => void;
let arrival: Promise<void>;

beforeEach(async () => {
  seen = [];
  script = [];
  arrival = new Promise((resolve) => (arrived = resolve));
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(raw),
      });
      arrived();
      const next = script.shift() ?? ((r: ServerResponse) => r.writeHead(200).end('{}'));
      next(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms/send`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const status = (code: number) => (res: ServerResponse) => res.writeHead(code).end('{}');

function gateway(clock = new FakeClock(), over: { timeoutMs?: number; retries?: number } = {}) {
  return createHttpGatewaySender({
    url,
    user: 'portal',
    password: 's3cret',
    sender: 'PORTAL',
    timeoutMs: over.timeoutMs ?? 2000,
    retries: over.retries ?? 2,
    retryBaseMs: 300,
    sleep: clock.sleep,
  });
}

const message = {
  to: '0981123456',
  body: otpSmsText('Portal del Paciente', '123456', 'onboarding'),
  purpose: 'onboarding' as const,
};

describe('HTTP SMS gateway', () => {
  it('posts sender, E.164 recipient and text with Basic credentials', async () => {
    await gateway().send(message);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/sms/send');
    expect(seen[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('portal:s3cret').toString('base64')}`,
    );
    expect(seen[0]!.body).toEqual({ from: 'PORTAL', to: '+595981123456', text: message.body });
  });

  it('retries a 5xx with backoff and succeeds', async () => {
    script.push(status(503), status(500));
    const clock = new FakeClock();
    await gateway(clock).send(message);
    expect(seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([300, 600]);
  });

  it('gives up after the configured retries of 5xx', async () => {
    script.push(status(502), status(502), status(502), status(502));
    await expect(gateway(new FakeClock(), { retries: 2 }).send(message)).rejects.toMatchObject({
      name: 'SmsDeliveryError',
      status: 502,
    });
    expect(seen).toHaveLength(3);
  });

  it.each([400, 401, 404, 422, 429])('does not retry a %i', async (code) => {
    script.push(status(code));
    await expect(gateway().send(message)).rejects.toBeInstanceOf(SmsDeliveryError);
    expect(seen).toHaveLength(1);
  });

  it('times out a gateway that does not answer, without retrying', async () => {
    script.push(() => {
      /* never answers */
    });
    const sending = gateway(new FakeClock(), { timeoutMs: 100 }).send(message);
    await arrival;
    await expect(sending).rejects.toThrow(/timed out/);
    expect(seen).toHaveLength(1);
  });

  it('an error before any connection (a port fetch refuses, a refused connection) is a definite failure', async () => {
    // Issue 21, item 10: http://127.0.0.1:9/sms is on fetch's bad-port list.
    const at = (target: string) =>
      createHttpGatewaySender({
        url: target,
        user: undefined,
        password: undefined,
        sender: 'PORTAL',
        timeoutMs: 2000,
        retries: 2,
        retryBaseMs: 300,
        sleep: new FakeClock().sleep,
      }).send(message);
    for (const target of ['http://127.0.0.1:9/sms', 'http://127.0.0.1:6667/sms']) {
      const err = await at(target).catch((e: unknown) => e);
      expect(err, target).toBeInstanceOf(SmsDeliveryError);
      expect((err as SmsDeliveryError).definite, target).toBe(true);
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const refused = await at(url).catch((e: unknown) => e);
    expect((refused as SmsDeliveryError).definite).toBe(true);
    server = createServer().listen(0, '127.0.0.1');
  });

  it('fails on an unreachable gateway without retrying', async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await expect(gateway().send(message)).rejects.toThrow(/unreachable/);
    server = createServer().listen(0, '127.0.0.1');
  });
});

describe('SMS text', () => {
  it('says the code, its validity and the service name, in Spanish', () => {
    expect(message.body).toBe(
      'Portal del Paciente: tu código de verificación es 123456. Vence en 5 minutos. No lo compartas con nadie.',
    );
    expect(otpSmsText('Salud', '000111', 'pin_recovery')).toContain(
      'para recuperar tu PIN es 000111',
    );
  });
});

describe('SMS configuration', () => {
  it('defaults to the development outbox outside production', () => {
    expect(loadSmsConfig({}, 'development')).toEqual({
      provider: 'outbox',
      serviceName: 'Portal del Paciente',
    });
    expect(loadSmsConfig({ SMS_SERVICE_NAME: 'Salud PY' }, 'test').serviceName).toBe('Salud PY');
  });

  it('requires a gateway in production unless the outbox is chosen explicitly', () => {
    expect(() => loadSmsConfig({}, 'production')).toThrow(ConfigError);
    const c = loadSmsConfig(
      { SMS_GATEWAY_URL: 'https://sms.example.com/send', SMS_GATEWAY_SENDER: 'PORTAL' },
      'production',
    );
    expect(c).toMatchObject({
      provider: 'http',
      gateway: {
        url: 'https://sms.example.com/send',
        sender: 'PORTAL',
        timeoutMs: 5000,
        retries: 2,
      },
    });
    expect(loadSmsConfig({ SMS_PROVIDER: 'outbox' }, 'production').provider).toBe('outbox');
  });

  it('refuses bad values', () => {
    expect(() => loadSmsConfig({ SMS_PROVIDER: 'carrier-pigeon' }, 'development')).toThrow(
      ConfigError,
    );
    expect(() => loadSmsConfig({ SMS_PROVIDER: 'http' }, 'development')).toThrow(/SMS_GATEWAY_URL/);
    expect(() => loadSmsConfig({ SMS_GATEWAY_URL: 'nota url' }, 'development')).toThrow(
      ConfigError,
    );
  });

  it('refuses at start a gateway URL fetch could never use (issue 21, item 10)', () => {
    for (const bad of [
      'http://127.0.0.1:9/sms',
      'https://sms.example.com:25/send',
      'http://127.0.0.1:6000/sms',
      'ftp://sms.example.com/send',
      'http://user:pass@sms.example.com/send',
    ]) {
      expect(() => loadSmsConfig({ SMS_GATEWAY_URL: bad }, 'production'), bad).toThrow(
        /SMS_GATEWAY_URL/,
      );
    }
    expect(
      loadSmsConfig({ SMS_GATEWAY_URL: 'http://127.0.0.1:8080/sms' }, 'production').provider,
    ).toBe('http');
  });
});
