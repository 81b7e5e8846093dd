/**
 * What the replay search costs per liveness frame as frames pile up (issue 7; figures, not a test).
 * The search (server/identity/duplicates.ts) asks the database for the counted frames of other
 * sessions in the replay window that share a 16-bit dHash band with the new frame (four indexes) and
 * lie within 8 bits, the nearest first, and compares at most CANDIDATE_LIMIT thumbnails. The database
 * still scores every band-matching row, so this measures the worst case an attacker can build: N
 * stored frames of other sessions all sharing a band with the probe (random thumbnails, 1-8 bits
 * away), the true source stored before them. Prints, per N, the search's time per
 * frame (p50/p95), whether the source was found, and one request's search (8 frames of one face,
 * one findReplays call: wall time and this process's CPU time, which on PGlite includes the
 * database's work).
 *   npx tsx bench/liveness-replay-cost.ts [max N=20000]
 *   DATABASE_URL=postgres://... npx tsx bench/liveness-replay-cost.ts   (PostgreSQL instead of PGlite)
 */
import { randomUUID } from 'node:crypto';
import { openDb } from '../server/db/client';
import { CANDIDATE_LIMIT, findReplay, findReplays } from '../server/identity/duplicates';
import { FINGERPRINT_H, FINGERPRINT_W } from '../server/identity/image';
import * as store from '../server/identity/store';
import { rng } from '../tests/fixtures/cedula';
import { percentile, runIfMain } from './_identity';

const WINDOW = 72 * 3_600_000;
const PROBES = 40;

export async function main() {
  const maxN = Number(process.argv[2] ?? 20_000);
  const url = process.env.DATABASE_URL;
  const db = await openDb(url ? { databaseUrl: url } : { memory: true });
  const r = rng(42);
  const thumb = () =>
    Buffer.from(Array.from({ length: FINGERPRINT_W * FINGERPRINT_H }, () => r() * 256));
  const hash = 0x3c3c_a5a5_0ff0_9669n;
  const opts = { windowMs: WINDOW, duplicateDistance: 0.7 };
  const newSession = async () => {
    const id = randomUUID();
    await store.insertSession(db, id, 'blink', {}, 30 * 60_000);
    return id;
  };
  try {
    const source = thumb();
    await store.insertFrame(db, await newSession(), 1, source, hash, true);
    let stored = 0;
    console.log(
      `replay search per frame on ${url ? 'PostgreSQL' : 'PGlite (in memory)'}; candidates compared <= ${CANDIDATE_LIMIT}`,
    );
    for (const n of [200, 1_000, 5_000, 20_000, 50_000].filter((x) => x <= maxN)) {
      // Other sessions' frames, 100 per session, sharing the top band with the probe, 1-8 bits away.
      const t0 = performance.now();
      while (stored < n) {
        const sid = await newSession();
        const batch = Math.min(100, n - stored);
        const rows = Array.from({ length: batch }, (_, i) => {
          let h = BigInt.asUintN(64, hash);
          for (let k = 0; k < 1 + ((stored + i) % 8); k++) h ^= 1n << BigInt(Math.floor(r() * 48));
          return [thumb(), h] as const;
        });
        await db.query(
          `INSERT INTO liveness_frames (session_id, seq, thumb, dhash, b0, b1, b2, b3, counted)
           SELECT $1, i, t, h, h >> 48 & 65535, h >> 32 & 65535, h >> 16 & 65535, h & 65535, true
             FROM unnest($2::bytea[], $3::bigint[]) WITH ORDINALITY AS x(t, h, i)`,
          [sid, rows.map((x) => x[0]), rows.map((x) => BigInt.asIntN(64, x[1]).toString())],
        );
        stored += batch;
      }
      const fill = performance.now() - t0;
      // A frame whose source is stored (a replay), and a new capture (searched in full).
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < PROBES; i++) {
        const replay = i % 2 === 0;
        const t = performance.now();
        const res = await findReplay(db, randomUUID(), replay ? source : thumb(), hash, opts);
        times.push(performance.now() - t);
        if (replay && res.dup) found++;
      }
      // A request as the browser sends it: 8 frames of one face (a few bits apart), one search.
      const request: number[] = [];
      const requestCpu: number[] = [];
      for (let i = 0; i < PROBES / 4; i++) {
        const frames = Array.from({ length: 8 }, (_, k) => ({
          thumb: thumb(),
          dhash: hash ^ (1n << BigInt(k * 7 + (i % 5))),
        }));
        const c0 = process.cpuUsage();
        const t = performance.now();
        await findReplays(db, randomUUID(), frames, opts);
        request.push(performance.now() - t);
        const c = process.cpuUsage(c0);
        requestCpu.push((c.user + c.system) / 1000);
      }
      console.log(
        JSON.stringify({
          bandMatchingFrames: n,
          searchMsP50: Number(percentile(times, 50).toFixed(1)),
          searchMsP95: Number(percentile(times, 95).toFixed(1)),
          request8MsP50: Math.round(percentile(request, 50)),
          request8CpuMsP50: Math.round(percentile(requestCpu, 50)),
          replaysFound: `${found}/${PROBES / 2}`,
          fillSeconds: Math.round(fill / 1000),
        }),
      );
    }
  } finally {
    await db.close();
  }
}

runIfMain(import.meta.url, main);
