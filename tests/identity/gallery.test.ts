import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDb, type Db } from '../../server/db/client';
import { createIdentification } from '../../server/identity/identification';
import { loadIdentityConfig } from '../../server/identity/config';
import { silentLog } from '../../server/identity/log';
import type { FacePool } from '../../server/identity/pool';
import { openTestDb } from '../server/helpers';
import { enrollFace, loadGallery, searchGallery, type Gallery } from '../../server/identity/store';

/** The 1:N gallery: read in full once, then only the rows written since (migration 016). */
let db: Db;
let next = 0;

/** A random-looking unit-scale 1024-d face description, distinct per seed. */
function face(seed: number): number[] {
  let s = seed * 2654435761;
  return Array.from({ length: 1024 }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648 - 0.5;
  });
}

async function patient(on: Db = db): Promise<string> {
  next++;
  const { rows } = await on.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
    [String(9_000_000 + next)],
  );
  return rows[0]!.id;
}

/** Rows the database returned to queries while fn ran. */
async function rowsFetched<T>(fn: () => Promise<T>): Promise<{ value: T; rows: number }> {
  const query = db.query.bind(db);
  let rows = 0;
  const spy = vi.spyOn(db, 'query').mockImplementation(async (sql, params) => {
    const r = await query(sql, params);
    rows += r.rows.length;
    return r as never;
  });
  try {
    return { value: await fn(), rows };
  } finally {
    spy.mockRestore();
  }
}

const sim = (g: Gallery, probe: number[]) => searchGallery(g, probe);

beforeAll(async () => {
  db = await openDb({ memory: true });
});
afterAll(async () => {
  await db.close();
});

describe('incremental gallery', () => {
  let g: Gallery;
  const ids: string[] = [];

  it('reads every enrolment the first time', async () => {
    await db.query('TRUNCATE face_enrollments');
    for (let i = 0; i < 30; i++) {
      ids.push(await patient());
      await enrollFace(db, ids[i]!, face(i + 1));
    }
    g = await loadGallery(db, null);
    expect(g.last).toEqual({ full: true, fetched: 30 });
    expect(g.ids).toHaveLength(30);
    expect(sim(g, face(7))).toEqual({ patientId: ids[6], similarity: expect.closeTo(1, 5) });
    // Nothing changed: nothing but the count row is read.
    const again = await rowsFetched(() => loadGallery(db, g));
    expect(again.value).toBe(g);
    expect(again.value.last).toEqual({ full: false, fetched: 0 });
    expect(again.rows).toBe(1);
  });

  it('finds a new enrolment by reading only its row', async () => {
    const id = await patient();
    await enrollFace(db, id, face(100));
    const { value, rows } = await rowsFetched(() => loadGallery(db, g));
    expect(value.last).toEqual({ full: false, fetched: 1 });
    expect(rows).toBe(1);
    expect(value.ids).toHaveLength(31);
    expect(sim(value, face(100))).toEqual({ patientId: id, similarity: expect.closeTo(1, 5) });
    ids.push(id);
  });

  it('replaces a re-enrolled patient in place: the old face no longer matches them', async () => {
    const before = sim(g, face(3))!;
    expect(before).toEqual({ patientId: ids[2], similarity: expect.closeTo(1, 5) });
    await enrollFace(db, ids[2]!, face(500));
    g = await loadGallery(db, g);
    expect(g.last).toEqual({ full: false, fetched: 1 });
    expect(g.ids).toHaveLength(31);
    const old = sim(g, face(3))!;
    expect(old.similarity).toBeLessThan(0.5);
    expect(sim(g, face(500))).toEqual({ patientId: ids[2], similarity: expect.closeTo(1, 5) });
  });

  it('picks up two enrolments with the same updated_at, one load apart', async () => {
    const [a, b] = [await patient(), await patient()];
    await enrollFace(db, a, face(601));
    g = await loadGallery(db, g);
    const { rows } = await db.query<{ t: string }>(
      'SELECT updated_at::text AS t FROM face_enrollments WHERE patient_id = $1',
      [a],
    );
    // Written later, but stamped with the same instant as the row already read.
    await db.query(
      `INSERT INTO face_enrollments (patient_id, embedding, model, created_at, updated_at)
       VALUES ($1, $2, 'human-faceres-1024', $3, $3)`,
      [b, face(602), rows[0]!.t],
    );
    g = await loadGallery(db, g);
    expect(g.last).toEqual({ full: false, fetched: 1 });
    expect(sim(g, face(601))!.patientId).toBe(a);
    expect(sim(g, face(602))).toEqual({ patientId: b, similarity: expect.closeTo(1, 5) });
  });

  it('no longer matches a removed enrolment, also when another was added meanwhile', async () => {
    const n = g.ids.length;
    await db.query('DELETE FROM patients WHERE id = $1', [ids[5]]);
    const added = await patient();
    await enrollFace(db, added, face(700));
    g = await loadGallery(db, g);
    expect(g.last.full).toBe(true);
    expect(g.ids).toHaveLength(n);
    expect(g.ids).not.toContain(ids[5]);
    expect(sim(g, face(6))!.similarity).toBeLessThan(0.5);
    expect(sim(g, face(700))!.patientId).toBe(added);
  });
});

describe('identification', () => {
  it('identifies a face enrolled after the gallery was warmed, without a full reload', async () => {
    const ident = createIdentification({
      config: loadIdentityConfig({ IDENTITY_POOL_SIZE: '1' }),
      pool: {} as FacePool,
      limits: {} as never,
      log: silentLog,
    });
    expect((await ident.refreshGallery(db)).full).toBe(true);
    const id = await patient();
    await enrollFace(db, id, face(800));
    // Loads overlapping each other run one after the other.
    const [r, stats] = await Promise.all([
      ident.identify(db, { embedding: face(800) }),
      ident.refreshGallery(db),
    ]);
    expect(r.match).toEqual({ patientId: id, similarity: 1 });
    expect(stats).toMatchObject({ full: false, fetched: 0 });
  });
});

// Transactions committing out of order need concurrent connections: PostgreSQL only
// (TEST_DATABASE_URL, as scripts/test-all.sh sets; PGlite has one connection).
describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
  it('picks up an enrolment whose transaction began before, and committed after, a load', async () => {
    const pg = await openTestDb();
    try {
      const [a, b, c] = [await patient(pg), await patient(pg), await patient(pg)];
      await enrollFace(pg, a, face(901));
      let g = await loadGallery(pg, null);
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let written!: () => void;
      const isWritten = new Promise<void>((resolve) => (written = resolve));
      // b's transaction starts (and stamps updated_at) first, but commits after c's and a load.
      const slow = pg.transaction(async (tx) => {
        await enrollFace(tx, b, face(902));
        written();
        await held;
      });
      await isWritten;
      await enrollFace(pg, c, face(903));
      g = await loadGallery(pg, g);
      expect(sim(g, face(903))!.patientId).toBe(c);
      expect(g.ids).not.toContain(b);
      commit();
      await slow;
      g = await loadGallery(pg, g);
      expect(g.last.full).toBe(false);
      expect(sim(g, face(902))).toEqual({ patientId: b, similarity: expect.closeTo(1, 5) });
      expect(g.ids).toHaveLength(3);
    } finally {
      await pg.close();
    }
  });
});
