/**
 * The 1:N gallery's load, CPU of this process (PGlite runs in it, so the database's share counts):
 * the full read as it was (real[] as text, parsed in JS), the full read now (base64 of array_send),
 * a check with nothing changed, and the incremental load after one new enrolment and after one
 * re-enrolment, at 1,000 and 10,000 enrolled (GALLERY_SIZES=1000,10000), with os.loadavg().
 *   npx tsx bench/gallery-load.ts
 */
import os from 'node:os';
import { openDb, type Db } from '../server/db/client';
import { EMBEDDING_MODEL, enrollFace, loadGallery } from '../server/identity/store';
import { runIfMain } from './_identity';

const SIZES = (process.env.GALLERY_SIZES ?? '1000,10000').split(',').map(Number);
const REPEAT = 3;

async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** Median CPU ms of `REPEAT` runs. */
async function median(fn: () => Promise<unknown>): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < REPEAT; i++) t.push(await cpuMs(fn));
  return Math.round(t.sort((a, b) => a - b)[Math.floor(REPEAT / 2)]!);
}

/** The load before incremental loading: every embedding as real[] text, normalised in JS. */
async function textLoad(db: Db): Promise<number> {
  const { rows } = await db.query<{ patient_id: string; embedding: number[] }>(
    'SELECT patient_id::text AS patient_id, embedding FROM face_enrollments WHERE model = $1',
    [EMBEDDING_MODEL],
  );
  const unit = new Float32Array(rows.length * 1024);
  rows.forEach((r, i) => {
    let n = 0;
    for (const x of r.embedding) n += Number(x) * Number(x);
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < 1024; j++) unit[i * 1024 + j] = Number(r.embedding[j] ?? 0) * inv;
  });
  return unit.length;
}

const face = () => Array.from({ length: 1024 }, () => Math.random() - 0.5);

async function patient(db: Db, doc: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
    [String(doc)],
  );
  return rows[0]!.id;
}

/** N patients, each enrolled with a random 1024-d vector (one statement each: quick at 100k). */
export async function seedRandomEnrolments(db: Db, n: number): Promise<void> {
  await db.query(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
     SELECT (3000000 + i)::text, 'P', 'S ' || i, 'x' FROM generate_series(1, $1::int) i`,
    [n],
  );
  await db.query(
    `INSERT INTO face_enrollments (patient_id, embedding, model)
     SELECT id, ARRAY(SELECT (random() - 0.5)::real FROM generate_series(1, 1024) WHERE id > 0), $1
       FROM patients`,
    [EMBEDDING_MODEL],
  );
}

export async function main() {
  for (const n of SIZES) {
    const db = await openDb({ memory: true });
    try {
      await seedRandomEnrolments(db, n);
      const text = await median(() => textLoad(db));
      const full = await median(() => loadGallery(db, null));
      let g = await loadGallery(db, null);
      const unchanged = await median(async () => (g = await loadGallery(db, g)));
      const added: number[] = [];
      const replaced: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const id = await patient(db, 5_000_000 + i);
        await enrollFace(db, id, face());
        added.push(await cpuMs(async () => (g = await loadGallery(db, g))));
        if (g.last.full || g.last.fetched !== 1) throw new Error('expected one row read');
        await enrollFace(db, id, face());
        replaced.push(await cpuMs(async () => (g = await loadGallery(db, g))));
      }
      const med = (t: number[]) => Math.round(t.sort((a, b) => a - b)[1]! * 10) / 10;
      console.log(
        `${n} enrolled, CPU ms (median of ${REPEAT}): full load as real[] text ${text}, full load now ${full}, nothing changed ${unchanged}, after one new enrolment ${med(added)}, after one re-enrolment ${med(replaced)}; loadavg ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} (${os.cpus().length} cores)`,
      );
    } finally {
      await db.close();
    }
  }
}

runIfMain(import.meta.url, main);
