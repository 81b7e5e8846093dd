import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import {
  loadFaceIndexConfig,
  loadIdentityConfig,
  type FaceIndexConfig,
} from '../../server/identity/config';
import {
  createFaceIndex,
  type FaceIndex,
  type FaceIndexStats,
} from '../../server/identity/face-index-sync';
import { createIdentification } from '../../server/identity/identification';
import { createFlatSearch, type FlatSearch } from '../../server/identity/face-flat-search';
import { loadDuplicateSearchConfig } from '../../server/identity/config-duplicates';
import { silentLog } from '../../server/identity/log';
import type { FacePool } from '../../server/identity/pool';
import { enrollFace, removeFace } from '../../server/identity/store';
import { openTestDb } from '../server/helpers';

/**
 * The face index (issue 44): the HNSW file answers as the exact scan; a second instance on the same
 * database sees an enrolment and a deletion within a second (awaiting its poll, no sleeps); a
 * missing, unreadable or stale file is rebuilt from the database.
 */
let db: Db;
let dir: string;
let next = 0;

/** Seeded normal deviates (mulberry32 + Box-Muller). */
function gaussian(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u() + 1e-12)) * Math.cos(2 * Math.PI * u());
}
const unitOf = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
};
const randomUnit = (g: () => number) => unitOf(Array.from({ length: 1024 }, g));
/** A person: a shared mean, one of 8 groups, their own direction (bench/gallery-scale.ts's model). */
const g0 = gaussian(1);
const mean = randomUnit(g0);
const groups = Array.from({ length: 8 }, () => randomUnit(g0));
function person(seed: number): number[] {
  const own = randomUnit(gaussian(seed * 7919));
  const grp = groups[seed % groups.length]!;
  return unitOf(own.map((x, j) => 0.55 * mean[j]! + 0.45 * grp[j]! + 0.7 * x));
}
/** A capture of a person: the centre plus noise of norm `sigma`. */
function capture(centre: number[], seed: number, sigma = 0.45): number[] {
  const w = randomUnit(gaussian(seed * 104729 + 17));
  return unitOf(centre.map((x, j) => x + sigma * w[j]!));
}

async function patient(): Promise<string> {
  next++;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
    [String(8_000_000 + next)],
  );
  return rows[0]!.id;
}

const settings = (over: Partial<FaceIndexConfig> = {}): FaceIndexConfig => ({
  ...loadFaceIndexConfig({}),
  dir,
  minRows: 0,
  connectivity: 16,
  efAdd: 64,
  efSearch: 64,
  ...over,
});
const identification = (
  faceIndex: FaceIndex | null,
  exact: FlatSearch | null = null,
  env: Record<string, string> = {},
) =>
  createIdentification({
    config: loadIdentityConfig({ IDENTITY_POOL_SIZE: '1', ...env }),
    pool: {} as FacePool,
    limits: {} as never,
    log: silentLog,
    faceIndex,
    exact,
  });

/** The next sync of `index` for which `done` holds; how long after the call it came. */
function syncWhere(
  index: FaceIndex,
  done: (s: FaceIndexStats) => boolean,
): Promise<{ ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const off = index.onSync((s) => {
      if (!done(s)) return;
      off();
      resolve({ ms: performance.now() - t0 });
    });
  });
}

const people: { id: string; centre: number[] }[] = [];
const opened: FaceIndex[] = [];
const open = (over: Partial<FaceIndexConfig> = {}) => {
  const index = createFaceIndex({ config: settings(over), log: silentLog });
  opened.push(index);
  return index;
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'face-index-test-'));
  db = await openTestDb();
  for (let i = 0; i < 300; i++) {
    const centre = person(i + 1);
    const id = await patient();
    await enrollFace(db, id, capture(centre, i + 1));
    people.push({ id, centre });
  }
}, 60_000);
afterAll(async () => {
  for (const i of opened) i.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('face index', () => {
  it('answers the same match as the exact scan (300 enrolled, 60 other captures); the graph alone the same best for nearly all', async () => {
    const index = open();
    const viaIndex = identification(index);
    const exact = identification(null);
    // As the product wires it: under the threshold the exact flat file answers too.
    const flat = createFlatSearch({
      config: { ...loadDuplicateSearchConfig({}), dir: path.join(dir, 'flat-same'), minRows: 100 },
      log: silentLog,
    });
    const product = identification(index, flat);
    try {
      const stats = await viaIndex.refreshGallery(db);
      expect(stats).toMatchObject({ enrolled: 300, full: true });
      expect(readdirSync(dir).filter((f) => f.endsWith('.usearch'))).toHaveLength(1);
      let matched = 0;
      let sameBest = 0;
      for (let i = 0; i < 60; i++) {
        const probe = { embedding: capture(people[i * 5]!.centre, 10_000 + i) };
        const [a, b, c] = await Promise.all([
          viaIndex.identify(db, probe),
          exact.identify(db, probe),
          product.identify(db, probe),
        ]);
        expect(c.match).toEqual(b.match);
        if (JSON.stringify(a.best) === JSON.stringify(b.best)) sameBest++;
        if (c.match?.patientId === people[i * 5]!.id) matched++;
      }
      // The graph is approximate and built with a thread per core, so it differs between runs: on
      // one CI run (2026-11-29) it missed one face of the 60 (best 0.46 against the true 0.83),
      // which the flat file then found.
      expect(sameBest).toBeGreaterThanOrEqual(58);
      // Captures of one person at this noise are 0.83 alike on average: most pass 0.70.
      expect(matched).toBeGreaterThan(50);
    } finally {
      await flat.close();
    }
  });

  it('a second instance sees a new enrolment and a deletion within a second', async () => {
    const a = identification(open());
    const bIndex = open();
    const b = identification(bIndex);
    await a.refreshGallery(db);
    await b.refreshGallery(db);
    // A new patient, enrolled through the database (as registration does on another process).
    const centre = person(5000);
    const id = await patient();
    const seen = syncWhere(bIndex, () =>
      bIndex.candidates(new Float32Array(centre), 1).some((c) => c.patientId === id),
    );
    const tEnrol = performance.now();
    await enrollFace(db, id, capture(centre, 5000));
    await seen;
    expect(performance.now() - tEnrol).toBeLessThan(1000);
    expect((await b.identify(db, { embedding: capture(centre, 5001) })).match?.patientId).toBe(id);

    // A patient in the file deleted (ON DELETE CASCADE), the new one's face withdrawn (removeFace).
    const old = people[10]!;
    const gone = syncWhere(bIndex, () => {
      const ids = [
        ...bIndex.candidates(new Float32Array(old.centre), 5),
        ...bIndex.candidates(new Float32Array(centre), 5),
      ].map((c) => c.patientId);
      return !ids.includes(old.id) && !ids.includes(id);
    });
    const tDelete = performance.now();
    await db.query('DELETE FROM patients WHERE id = $1', [old.id]);
    expect(await removeFace(db, id)).toBe(true);
    await gone;
    expect(performance.now() - tDelete).toBeLessThan(1000);
    for (const p of [old.centre, centre]) {
      const r = await b.identify(db, { embedding: capture(p, 7) });
      expect([old.id, id]).not.toContain(r.best?.patientId);
    }
    expect(bIndex.size).toBe(299);
  });

  it('a face the graph does not reach is found by the exact flat file, under the threshold only', async () => {
    const target = people[42]!;
    const index = open();
    // The graph without the target's row: what 5.6% of the rows of a 1M graph built with M 32 are
    // (unreachable even from their own vector, docs/measurements.md).
    const blind: FaceIndex = {
      sync: (d) => index.sync(d),
      candidates: (p, k) => index.candidates(p, k).filter((c) => c.patientId !== target.id),
      onSync: (listener) => index.onSync(listener),
      get size() {
        return index.size;
      },
      close: () => index.close(),
    };
    const exact = createFlatSearch({
      config: { ...loadDuplicateSearchConfig({}), dir: path.join(dir, 'flat'), minRows: 100 },
      log: silentLog,
    });
    try {
      const probe = { embedding: capture(target.centre, 20_000) };
      expect((await identification(blind).identify(db, probe)).match).toBeNull();
      const found = await identification(blind, exact).identify(db, probe);
      expect(found.match?.patientId).toBe(target.id);
      expect(found.match!.similarity).toBeGreaterThanOrEqual(found.threshold);
      // Turned off, the index alone answers.
      const off = identification(blind, exact, { IDENTITY_FACE_INDEX_EXACT_BELOW_THRESHOLD: 'no' });
      expect((await off.identify(db, probe)).match).toBeNull();
      // Someone never enrolled: no match through either (the exact search adds no false accept).
      const stranger = { embedding: capture(person(7777), 1) };
      expect((await identification(blind, exact).identify(db, stranger)).match).toBeNull();
    } finally {
      await exact.close();
    }
  });

  it('a flat search that does not answer in time, or fails, leaves the index its answer', async () => {
    const index = open();
    // A face this graph finds by itself (the graph is approximate and built with a thread per core,
    // so which faces it misses differs between runs: rarely one of these 300).
    const alone = identification(index);
    let target = people[43]!;
    let probe = { embedding: capture(target.centre, 20_001) };
    for (let k = 44; (await alone.identify(db, probe)).match?.patientId !== target.id; k++) {
      target = people[k]!;
      probe = { embedding: capture(target.centre, 20_001 + k) };
    }
    let asked = 0;
    const never: FlatSearch = {
      search: () => (asked++, new Promise(() => {})),
      close: async () => {},
    };
    const broken: FlatSearch = {
      search: () => (asked++, Promise.reject(new Error('flat face worker exited (1)'))),
      close: async () => {},
    };
    const env = { IDENTITY_FACE_INDEX_EXACT_TIMEOUT_MS: '100' };
    const stranger = { embedding: capture(person(7778), 1) };
    for (const exact of [never, broken]) {
      const t0 = performance.now();
      expect((await identification(index, exact, env).identify(db, stranger)).match).toBeNull();
      expect(performance.now() - t0).toBeLessThan(2_000);
      // A face the index finds never waits for the flat file.
      expect((await identification(index, exact, env).identify(db, probe)).match?.patientId).toBe(
        target.id,
      );
    }
    expect(asked).toBe(2);
    // A search still running (timed out for its caller, not settled): the next stranger is
    // answered from the index alone, no second scan queued behind it.
    const kiosk = identification(index, never, env);
    expect((await kiosk.identify(db, stranger)).match).toBeNull();
    expect(asked).toBe(3);
    const others = await Promise.all(
      [7779, 7780].map((p) => kiosk.identify(db, { embedding: capture(person(p), 1) })),
    );
    expect(others.map((o) => o.match)).toEqual([null, null]);
    expect(asked).toBe(3);
    // A search that settled (failed at once) frees its place.
    const again = identification(index, broken, env);
    await again.identify(db, stranger);
    await again.identify(db, stranger);
    expect(asked).toBe(5);
  });

  it('a missing, unreadable or stale file is rebuilt from the database', async () => {
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.usearch'));
    await open().sync(db);
    // Missing: deleted under a new process.
    for (const f of files()) rmSync(path.join(dir, f));
    const fresh = open();
    expect(await fresh.sync(db)).toMatchObject({ full: true, file: true, enrolled: 299 });
    expect(files()).toHaveLength(1);
    // Unreadable: garbage in its place (renamed over it, as files are never written in place: a
    // process mapping it would fault).
    writeFileSync(path.join(dir, 'garbage'), 'not an index');
    renameSync(path.join(dir, 'garbage'), path.join(dir, files()[0]!));
    const again = open();
    expect(await again.sync(db)).toMatchObject({ full: true, file: true, enrolled: 299 });
    // It answers from the database's rows: 40 people's own faces come first for nearly all. The
    // graph is approximate and built with a thread per core (on one CI run, stop 63, it missed
    // people[20], the one face this asked): a few misses are allowed; a file of other rows finds
    // none, one of half the rows about 20.
    const asked = people.slice(20, 60);
    const found = asked.filter(
      (p) => again.candidates(new Float32Array(p.centre), 1)[0]?.patientId === p.id,
    );
    expect(found.length).toBeGreaterThanOrEqual(36);
    // Stale: the table emptied and refilled (TRUNCATE gives the database a new identity): a live
    // instance and a new one both rebuild, the old file is not used.
    const before = files()[0]!;
    const onlyOne = person(9000);
    const id = await patient();
    const rebuilt = syncWhere(again, (s) => s.full && s.enrolled === 1);
    await db.query('TRUNCATE face_enrollments');
    await enrollFace(db, id, capture(onlyOne, 9000));
    await rebuilt;
    expect(again.candidates(new Float32Array(onlyOne), 5).map((c) => c.patientId)).toEqual([id]);
    expect(files().filter((f) => f !== before)).toHaveLength(1);
  });
});
