/**
 * Issue 11, item 9, at the HTTP layer: start-kyc and scan-id are capped per client address (429 with
 * Retry-After, other addresses unaffected), and document work goes through a bounded queue that
 * answers 503 with Retry-After when one address already holds its share or the queue is full. The
 * engine is a stub (its costly work is a promise the test resolves); the database is real (PGlite).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityPaths } from '../../contract/identity';
import { identityMessages } from '../../server/identity/errors';
import { multipart } from '../identity/frames';
import { stubApp, stubEngine } from './identity-stub';

let app: FastifyInstance;
let t: Awaited<ReturnType<typeof stubApp>>;
const pending: Array<() => void> = [];
let hold = true;
const env = {
  IDENTITY_START_PER_ADDRESS_MINUTE: '3',
  IDENTITY_SCAN_PER_ADDRESS_HOUR: '4',
  IDENTITY_DOCUMENT_QUEUE: '1',
  IDENTITY_DOCUMENT_PER_ADDRESS: '1',
};

beforeAll(async () => {
  let n = 0;
  const engine = stubEngine(
    {
      startSession: async () => ({
        sessionId: `11111111-1111-4111-8111-${String(++n).padStart(12, '0')}`,
      }),
      // A document attempt that takes as long as the test wants.
      // (the routes run its costly part through the document queue: `run`)
      scanDocument: (
        _db: unknown,
        _sid: string,
        _images: unknown,
        { run }: { run: <T>(task: () => Promise<T>) => Promise<T> },
      ) =>
        run(
          () =>
            new Promise((resolve) => {
              const done = () => resolve({ success: false, kyc_complete: false, error: 'x' });
              if (hold) pending.push(done);
              else done();
            }),
        ),
    },
    env,
  );
  t = await stubApp(engine);
  app = t.app;
});
afterAll(() => t?.close());

const startKyc = (ip: string) =>
  app.inject({ method: 'POST', url: identityPaths.startKyc, remoteAddress: ip });
const scan = (ip: string) =>
  app.inject({
    method: 'POST',
    url: identityPaths.scanId,
    remoteAddress: ip,
    ...multipart([
      { name: 'session_id', value: '11111111-1111-4111-8111-000000000001' },
      { name: 'image_front', value: Buffer.from([0xff, 0xd8, 0xff]), filename: 'f.jpg' },
    ]),
  });
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setImmediate(r));
};

describe('identity bounds per address', () => {
  it('start-kyc: a flood from one address is capped (429, Retry-After); another address is not', async () => {
    const flood = await Promise.all(Array.from({ length: 10 }, () => startKyc('10.0.0.1')));
    const codes = flood.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    const refused = flood.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Demasiados intentos\. Esperá/);
    expect((await startKyc('10.0.0.2')).statusCode).toBe(200);
  });

  it('scan-id: one document at a time per address, a bounded waiting room, then 503 with Retry-After', async () => {
    const first = scan('10.0.1.1');
    await until(() => pending.length === 1);
    // Same address while its attempt runs: refused at once.
    const same = await scan('10.0.1.1');
    expect(same.statusCode).toBe(503);
    expect(same.json()).toEqual({ success: false, message: identityMessages.busy });
    expect(Number(same.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address waits in the room (size 1); a third finds it full.
    const second = scan('10.0.1.2');
    await new Promise((r) => setTimeout(r, 50));
    const third = await scan('10.0.1.3');
    expect(third.statusCode).toBe(503);
    pending.shift()!();
    expect((await first).statusCode).toBe(200);
    await until(() => pending.length === 1);
    pending.shift()!();
    expect((await second).statusCode).toBe(200);
  });

  it('scan-id: attempts per address per hour are capped before the upload is read', async () => {
    hold = false;
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await scan('10.0.2.1')).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429]);
    expect((await scan('10.0.2.2')).statusCode).toBe(200);
  });
});
