/**
 * Flood bench (issue 11 item 9): one address floods start-kyc and scan-id (with live sessions of its
 * own, so its scans cost real OCR) while a patient at another address does the selfie challenge. It
 * prints the patient's frame latency alone and under the flood (p50/p95/max, against the 700 ms
 * polling budget of spec section 9) and how the flood was answered (200 / 429 / 503 counts).
 * Real HTTP on loopback: the flood comes from 127.0.0.2, the patient from 127.0.0.3.
 *   npx tsx bench/identity-flood.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { identityPaths } from '../contract/identity';
import { installErrorHandling } from '../server/http/errors';
import { identityPlugin } from '../server/identity/plugin';
import { identityRoutes } from '../server/identity/routes';
import { blinkSequence, fixture, multipart, type Part } from '../tests/identity/frames';
import { runIfMain, startBench, summary } from './_identity';

const BUDGET_MS = 700;
const FLOODER = '127.0.0.2';
const PATIENT = '127.0.0.3';

type Res = { status: number; body: string; ms: number };
function request(port: number, from: string, url: string, parts?: Part[]): Promise<Res> {
  const body = parts ? multipart(parts) : null;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: 'POST',
        localAddress: from,
        headers: body ? body.headers : {},
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - t0 }),
        );
      },
    );
    req.on('error', reject);
    req.end(body?.payload);
  });
}

export async function main() {
  const b = await startBench({}, true);
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(identityPlugin, { env: 'test', identity: b.engine });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx: { db: b.db } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const post = (from: string, url: string, parts?: Part[]) => request(port, from, url, parts);

  /** A patient's selfie: start-kyc, then 3 blinks' frames one at a time (one request in flight). */
  async function patient(seed: number): Promise<number[]> {
    const start = await post(PATIENT, identityPaths.startKyc);
    const sid = (JSON.parse(start.body) as { session_id: string }).session_id;
    const times: number[] = [];
    for (const frame of await blinkSequence(3, seed)) {
      b.clock.now += 700;
      const r = await post(PATIENT, identityPaths.liveness, [
        { name: 'session_id', value: sid },
        { name: 'frame', value: frame, filename: 'frame.jpg' },
      ]);
      if (r.status !== 200) throw new Error(`patient frame answered ${r.status}: ${r.body}`);
      times.push(r.ms);
    }
    return times;
  }

  try {
    await patient(9000); // warm-up (JIT, first description)
    const alone = [...(await patient(9001)), ...(await patient(9002))];

    // The flooder's own live sessions (it can pass the blink challenge), so its scans reach the OCR.
    const live: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { sessionId } = await b.engine.startSession(b.db);
      for (const f of await blinkSequence(3, 9100 + i)) {
        b.clock.now += 700;
        await b.engine.livenessFrame(b.db, sessionId, f);
      }
      live.push(sessionId);
    }
    const front = fixture('cedulas', 'card-1-front.jpg');
    const back = fixture('cedulas', 'card-3-back.jpg');
    const counts: Record<string, Record<number, number>> = { 'start-kyc': {}, 'scan-id': {} };
    const count = (kind: string, r: Res) =>
      (counts[kind]![r.status] = (counts[kind]![r.status] ?? 0) + 1);
    let flooding = true;
    const flood = (async () => {
      let i = 0;
      while (flooding) {
        const batch = [
          ...Array.from({ length: 20 }, () =>
            post(FLOODER, identityPaths.startKyc).then((r) => count('start-kyc', r)),
          ),
          ...Array.from({ length: 10 }, () =>
            post(FLOODER, identityPaths.scanId, [
              { name: 'session_id', value: live[i++ % live.length]! },
              { name: 'image_front', value: front, filename: 'frente.jpg' },
              { name: 'image_back', value: back, filename: 'dorso.jpg' },
            ]).then((r) => count('scan-id', r)),
          ),
        ];
        await Promise.all(batch);
      }
    })();
    const t0 = performance.now();
    const flooded = [...(await patient(9003)), ...(await patient(9004))];
    flooding = false;
    await flood;
    const floodSeconds = (performance.now() - t0) / 1000;

    const a = summary(alone);
    const f = summary(flooded);
    console.log(`selfie frames alone (ms):       ${JSON.stringify(a)}`);
    console.log(`selfie frames under flood (ms): ${JSON.stringify(f)}`);
    console.log(
      `budget ${BUDGET_MS} ms per frame (spec: one request every 700 ms): p95 under flood ${f.p95 <= BUDGET_MS ? 'within' : 'OVER'} budget; p95 ratio flood/alone ${(f.p95 / a.p95).toFixed(2)}`,
    );
    console.log(
      `flood from ${FLOODER} over ${floodSeconds.toFixed(1)} s: start-kyc ${JSON.stringify(counts['start-kyc'])}, scan-id ${JSON.stringify(counts['scan-id'])} (status: count)`,
    );
    console.log(
      `queues: ${JSON.stringify({ face: b.engine.queues.face.stats(), document: b.engine.queues.document.stats() })}`,
    );
  } finally {
    await app.close();
    await b.close();
  }
}

runIfMain(import.meta.url, main);
