/**
 * The check inside the register transaction (issue 44), `npx tsx bench/duplicate-wait.ts [N ...]`
 * (default 10000; PGlite in this process, random 1024-d vectors, one of them the probe's twin):
 * - before: the transaction's fallback when the background search had not finished, an exact read
 *   of every enrolment (exactBestMatch over the table, inside the transaction);
 * - after: registration settles the check first (settleDuplicateCheck): waiting for a background
 *   search still running, or running the flat search itself when none finished (the file already
 *   built: the changes since its seal read from the database), then the transaction reads only the
 *   rows since that search's snapshot.
 * Five repetitions of each; the load average beside every figure. Figures in docs/measurements.md,
 * 'Duplicates at national scale'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openDb, type Db } from '../server/db/client';
import { loadDuplicateSearchConfig } from '../server/identity/config-duplicates';
import {
  duplicateAtRegistration,
  exactBestMatch,
  settleDuplicateCheck,
  startDuplicateCheck,
} from '../server/identity/duplicates-face';
import { createFlatSearch } from '../server/identity/face-flat-search';
import { silentLog } from '../server/identity/log';
import { enrollFace } from '../server/identity/store';
import { runIfMain } from './_identity';
import { seedRandomEnrolments } from './gallery-load';

const T = 0.7;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const ms = (t0: number) => Math.round(performance.now() - t0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A completed KYC session with this selfie face, as scan-id leaves it. */
export async function passedSession(db: Db, embedding: number[]): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO kyc_sessions (id, decider, status, liveness_state, selfie_embedding, result,
                               completed_at, expires_at)
     VALUES ($1, 'blink', 'completed', '{}', $2, $3, now(), now() + interval '30 minutes')`,
    [id, embedding, JSON.stringify({ id_data: { DocumentNumber: '1' } })],
  );
  return id;
}

async function run(n: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'duplicate-wait-'));
  const db = await openDb({ memory: true });
  const search = createFlatSearch({
    config: { ...loadDuplicateSearchConfig({}), dir, minRows: 0 },
    log: silentLog,
  });
  try {
    let t0 = performance.now();
    await seedRandomEnrolments(db, n);
    const probe = Array.from({ length: 1024 }, (_, j) => Math.sin(j * 0.37));
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
       VALUES ('twin', 'P', 'Q', 'x') RETURNING id::text AS id`,
    );
    await enrollFace(db, rows[0]!.id, probe);
    console.log(`N=${n + 1} in PGlite: seeded in ${ms(t0)} ms [load ${load()}]`);
    t0 = performance.now();
    await search.search(db, new Float32Array(probe.map((x) => x / Math.sqrt(512))));
    console.log(`  flat file built (first search): ${ms(t0)} ms [load ${load()}]`);

    const before: number[] = [];
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      const found = await db.transaction((tx) => exactBestMatch(tx, probe, T));
      before.push(ms(t0));
      if (found?.patientId !== rows[0]!.id) throw new Error('the twin was not found');
    }
    console.log(
      `  before: every enrolment read in the transaction: median ${median(before)} ms (${before.join(', ')}) [load ${load()}]`,
    );

    const settle: number[] = [];
    const inside: number[] = [];
    for (let i = 0; i < 5; i++) {
      // No search finished (failed, or another process's): registration runs its own.
      const s = await passedSession(db, probe);
      t0 = performance.now();
      await settleDuplicateCheck(db, s, probe, T, { search, waitMs: 60_000 });
      settle.push(ms(t0));
      t0 = performance.now();
      const found = await db.transaction((tx) =>
        duplicateAtRegistration(tx, s, probe, T, [], { requireCheck: true }),
      );
      inside.push(ms(t0));
      if (found?.patientId !== rows[0]!.id) throw new Error('the twin was not found');
    }
    console.log(
      `  after, none finished: its own flat search before the transaction median ${median(settle)} ms (${settle.join(', ')}), the transaction's read median ${median(inside)} ms (${inside.join(', ')}) [load ${load()}]`,
    );

    const waited: number[] = [];
    for (let i = 0; i < 5; i++) {
      // The background search just started (scan-id), registration arrives at once.
      const s = await passedSession(db, probe);
      const background = startDuplicateCheck(db, s, T, search);
      await new Promise((r) => setImmediate(r));
      t0 = performance.now();
      await settleDuplicateCheck(db, s, probe, T, { search, waitMs: 60_000 });
      waited.push(ms(t0));
      await background;
    }
    console.log(
      `  after, background running: the wait median ${median(waited)} ms (${waited.join(', ')}) [load ${load()}]`,
    );
  } finally {
    await search.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, async () => {
  const ns = process.argv
    .slice(2)
    .map(Number)
    .filter((x) => x > 0);
  for (const n of ns.length ? ns : [10_000]) await run(n);
});
