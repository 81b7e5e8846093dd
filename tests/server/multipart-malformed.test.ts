/**
 * Issue 11, item 5: malformed multipart bodies on the identity uploads answer 400 with a Spanish
 * message (they answered 500). The engine is a stub: the body is refused before it is reached.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths } from '../../contract/identity';
import { stubApp, stubEngine } from './identity-stub';

let app: FastifyInstance;
let t: Awaited<ReturnType<typeof stubApp>>;
const called: string[] = [];
beforeAll(async () => {
  const engine = stubEngine({
    livenessFrame: async () => (
      called.push('liveness'),
      { feedback: [], liveness_detected: false, time_up: false }
    ),
    scanDocument: async () => (called.push('scan'), { success: false, kyc_complete: false }),
  });
  t = await stubApp(engine);
  app = t.app;
});
afterAll(() => t?.close());

const B = 'xYz123';
const part = (name: string, value: string, file = false) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.jpg"\r\nContent-Type: image/jpeg' : ''}\r\n\r\n${value}\r\n`;
const good =
  part('session_id', '11111111-1111-4111-8111-111111111111') + part('frame', '\xff\xd8\xff', true);

const cases: Array<[string, string, string]> = [
  ['no boundary', 'multipart/form-data', `${good}--${B}--\r\n`],
  ['empty boundary', 'multipart/form-data; boundary=', `${good}--${B}--\r\n`],
  ['wrong boundary', 'multipart/form-data; boundary=other', `${good}--${B}--\r\n`],
  ['unterminated part', `multipart/form-data; boundary=${B}`, good.slice(0, -10)],
  ['no closing delimiter', `multipart/form-data; boundary=${B}`, good],
  [
    '200-character boundary',
    `multipart/form-data; boundary=${'b'.repeat(200)}`,
    `--${'b'.repeat(200)}\r\n${good.slice(B.length + 4)}--${'b'.repeat(200)}--\r\n`,
  ],
  [
    'header without end',
    `multipart/form-data; boundary=${B}`,
    `--${B}\r\nContent-Disposition: form-data; name="frame"`,
  ],
  [
    'garbage header',
    `multipart/form-data; boundary=${B}`,
    `--${B}\r\n\x00\x01\x02\r\n\r\nzz\r\n--${B}--\r\n`,
  ],
  ['empty body', `multipart/form-data; boundary=${B}`, ''],
];

describe('malformed multipart answers 400 in Spanish', () => {
  for (const url of [identityPaths.liveness, identityPaths.scanId])
    for (const [name, type, body] of cases)
      it(`${url}: ${name}`, async () => {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': type },
          payload: Buffer.from(body, 'latin1'),
        });
        expect(res.statusCode).toBe(400);
        const json = res.json() as { success: boolean; message: string };
        expect(json.success).toBe(false);
        expect(json.message).toMatch(/[áéíóúñ]|Enviá|Sacá|Falta/);
        expect(json.message).not.toMatch(/boundary|Unexpected|Multipart/i);
      });
});
