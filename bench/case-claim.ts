/**
 * 'Tomar el siguiente' (issue 30): the time of one claim (claimNext: the held-case check, then one
 * UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)) with CASE_CLAIM_OPEN (1,000) open
 * review cases, on PGlite in memory, or on PostgreSQL when TEST_DATABASE_URL is set (a throwaway
 * schema). Two runs: each claim released again (the queue stays full), and claims that keep their
 * case (the queue empties from the oldest). Prints p50/p95 in ms and os.loadavg().
 *   npx tsx bench/case-claim.ts
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { loadCasesSettings } from '../server/cases/config';
import { claimNext, type CaseOperator } from '../server/cases/operator';
import { systemClock, type AppContext } from '../server/context';
import { openDb, type Db } from '../server/db/client';
import { pct } from './_api';
import { runIfMain } from './_identity';

const OPEN = Number(process.env.CASE_CLAIM_OPEN ?? 1000);
const CLAIMS = Number(process.env.CASE_CLAIMS ?? 300);
const TRIGGERS = ['patient_choice', 'liveness_failed', 'document_unreadable', 'face_mismatch'];

async function database(): Promise<{ db: Db; kind: string; close(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = await openDb({ memory: true });
    return { db, kind: 'PGlite (memory)', close: () => db.close() };
  }
  const { default: pg } = await import('pg');
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDb({ databaseUrl: scoped.toString() });
  return {
    db,
    kind: 'PostgreSQL',
    async close() {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

async function seed(db: Db, n: number) {
  const start = Date.now() - n * 60_000;
  for (let i = 0; i < n; i += 100) {
    const values: string[] = [];
    const params: unknown[] = [];
    for (let j = i; j < Math.min(n, i + 100); j++) {
      const opened = new Date(start + j * 60_000);
      params.push(randomUUID(), TRIGGERS[j % TRIGGERS.length], opened);
      const k = params.length;
      values.push(
        `($${k - 2}, 'review', 'open', $${k - 1}, 'selfie', $${k}, $${k}::timestamptz + interval '48 hours')`,
      );
    }
    await db.query(
      `INSERT INTO cases (id, kind, status, trigger, step, opened_at, expected_by) VALUES ${values.join(', ')}`,
      params,
    );
  }
}

const operator = (i: number): CaseOperator => ({
  id: `bench-op-${i}`,
  usuario: `op${i}`,
  nombre: `Operador ${i}`,
  rol: i % 5 === 0 ? 'supervisor' : 'revisor',
});

async function main() {
  const { db, kind, close } = await database();
  try {
    await seed(db, OPEN);
    const ctx = { db, clock: systemClock, cases: loadCasesSettings({}) } as unknown as AppContext;
    const run = async (release: boolean) => {
      const times: number[] = [];
      for (let i = 0; i < CLAIMS; i++) {
        const t0 = performance.now();
        const id = await claimNext(ctx, operator(i));
        times.push(performance.now() - t0);
        if (!id) throw new Error('nothing to claim');
        if (release) await db.query('UPDATE cases SET claimed_by = NULL WHERE id = $1', [id]);
      }
      return times;
    };
    await run(true); // warm-up (plans, caches)
    const full = await run(true);
    const draining = await run(false);
    const f = (xs: number[], p: number) => pct(xs, p).toFixed(2);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `case claim on ${kind}, ${OPEN} open review cases, ${CLAIMS} claims each: ` +
        `queue kept full p50 ${f(full, 50)} ms p95 ${f(full, 95)} ms; ` +
        `claims kept (queue ${OPEN} -> ${OPEN - CLAIMS}) p50 ${f(draining, 50)} ms p95 ${f(draining, 95)} ms; ` +
        `loadavg ${load}`,
    );
  } finally {
    await close();
  }
}

runIfMain(import.meta.url, main);
