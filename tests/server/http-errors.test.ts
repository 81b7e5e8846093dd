/**
 * Issue 11 item 4 (control characters rejected at the contract, never a 500) and item 12 (every
 * error a client can see, including Fastify's router and Node's HTTP parser, is the Spanish
 * `{ success: false, message }`, with no Fastify code and no echoed path).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse } from '../../contract/common';
import { kycRejectRequest, livenessFields } from '../../contract/identity';
import { registerRequest, supplementaryData } from '../../contract/onboarding';
import { messages } from '../../server/http/messages';
import { createTestApp, type TestApp } from './helpers';

const spanish = (body: string) => {
  const parsed = errorResponse.safeParse(JSON.parse(body));
  expect(parsed.success, body).toBe(true);
  expect(body).not.toMatch(/FST_|statusCode|"error"/);
  return parsed.data!.message;
};

describe('control characters at the contract', () => {
  const SUPPLEMENTARY = { departamento: '11', ciudad_id: '1101' };
  const REGISTER = {
    registrationToken: 'T'.repeat(43),
    phone: '0981123456',
    email: '',
    pin: '482915',
    sessionId: 'abc',
    supplementaryData: SUPPLEMENTARY,
  };
  it.each(['\u0000', '\u0001', '\u001b[2J', '\n', '\u007f'])('text fields refuse %j', (bad) => {
    expect(registerRequest.safeParse({ ...REGISTER, sessionId: `a${bad}` }).success).toBe(false);
    expect(kycRejectRequest.safeParse({ session_id: 'a', reason: `r${bad}` }).success).toBe(false);
    expect(livenessFields.safeParse({ session_id: `a${bad}` }).success).toBe(false);
    expect(
      supplementaryData.safeParse({ ...SUPPLEMENTARY, direccion: `Calle${bad}1` }).success,
    ).toBe(false);
    expect(registerRequest.safeParse({ ...REGISTER, email: `a${bad}@b.py` }).success).toBe(false);
  });
  it('plain text still passes', () => {
    expect(registerRequest.safeParse(REGISTER).success).toBe(true);
    expect(kycRejectRequest.safeParse({ session_id: 'a', reason: 'Sí, ñandú' }).success).toBe(true);
  });
});

describe('NUL and malformed URLs through the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/onboarding/cities/%00', undefined],
    ['GET', '/api/onboarding/cities/1%00', undefined],
    ['GET', '/api/onboarding/departments?x=%00', undefined],
    [
      'POST',
      '/api/onboarding/register',
      {
        phone: '0981123456',
        email: '',
        pin: '482915',
        sessionId: 'a\u0000b',
        supplementaryData: { departamento: '11', ciudad_id: '1101' },
      },
    ],
    ['POST', '/api/onboarding/kyc-reject', { session_id: 'a', reason: 'r\u0000' }],
    ['POST', '/api/auth/login', { numero_documento: '1234567', pin: '482915', x: '\u0000' }],
  ])('%s %s with a NUL is a Spanish 400', async (method, url, payload) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(400);
    spanish(res.body);
  });

  it.each([
    '/api/%ff',
    '/api/onboarding/cities/%ff',
    '/api/%',
    `/api/onboarding/cities/${'9'.repeat(150)}`,
  ])('GET %s is a Spanish 400 that does not echo the path', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(spanish(res.body)).toBe(messages.badRequest);
    expect(res.body).not.toContain(url.slice(5));
  });
});

describe("Node's own answers", () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  /** Writes raw bytes to the server and reads the whole answer. */
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
  const split = (answer: string) => {
    const [head, ...rest] = answer.split('\r\n\r\n');
    return { status: Number(head!.split(' ')[1]), head: head!, body: rest.join('\r\n\r\n') };
  };

  it('a malformed request line is a Spanish 400', async () => {
    const res = split(await raw('GARBAGE / HTTP/9.9\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(spanish(res.body)).toBe(messages.badRequest);
  });

  it('a header with a control character is a Spanish 400', async () => {
    const res = split(
      await raw('GET /api/auth/session HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'),
    );
    expect(res.status).toBe(400);
    spanish(res.body);
  });

  it('headers over the limit are a Spanish 431, with a correct Content-Length', async () => {
    const res = split(
      await raw(
        `GET /api/auth/session HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(res.status).toBe(431);
    expect(spanish(res.body)).toBe(messages.headersTooLarge);
    expect(Number(/content-length: (\d+)/i.exec(res.head)?.[1])).toBe(Buffer.byteLength(res.body));
  });
});
