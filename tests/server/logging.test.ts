import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest, loggerOptions } from '../../server/http/logging';

/** Logs as the server writes them: captured from the logger's stream. */
async function capture(format: 'pretty' | 'json') {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const app = Fastify({
    logger: loggerOptions({ level: 'info', format }, out),
    logController: new OneLinePerRequest(),
  });
  app.post('/api/echo', async (request) => {
    request.log.info({ body: request.body }, 'received');
    return { ok: true };
  });
  await app.ready();
  const secret = { pin: '482915', otp: '739154', frame: 'AAAA', image: 'BBBB' };
  const res = await app.inject({
    method: 'POST',
    url: '/api/echo?celular=0981123456',
    payload: secret,
    headers: { cookie: 'sid=cookie-value-123', authorization: 'Basic c2VjcmV0' },
  });
  expect(res.statusCode).toBe(200);
  await app.close();
  return { lines, secret };
}

describe('logs', () => {
  it('JSON: one line per request (method, path without query, status, time)', async () => {
    const { lines } = await capture('json');
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.request);
    expect(requests).toHaveLength(1);
    expect(requests[0].request).toMatchObject({ method: 'POST', path: '/api/echo', status: 200 });
    expect(requests[0].msg).toMatch(/^POST \/api\/echo 200 \d+ ms$/);
    expect(lines.join('\n')).not.toContain('incoming request');
  });

  it('pretty: one readable line per event, no JSON', async () => {
    const { lines } = await capture('pretty');
    const request = lines.filter((l) => l.includes('POST /api/echo 200'));
    expect(request).toHaveLength(1);
    expect(request[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: POST \/api\/echo 200 \d+ ms$/);
    expect(lines.every((l) => !l.startsWith('{'))).toBe(true);
  });

  it.each(['json', 'pretty'] as const)(
    '%s: PINs, codes, images, cookies and the query string never appear',
    async (format) => {
      const { lines, secret } = await capture(format);
      const text = lines.join('\n');
      expect(text).toContain('[oculto]');
      for (const value of [...Object.values(secret), 'cookie-value-123', 'c2VjcmV0', '0981123456'])
        expect(text).not.toContain(value);
    },
  );
});
