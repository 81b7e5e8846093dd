import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { loadDuplicateSearchConfig } from '../../server/identity/config-duplicates';
import {
  duplicateAtRegistration,
  DuplicateCheckPending,
  settleDuplicateCheck,
  startDuplicateCheck,
} from '../../server/identity/duplicates-face';
import { createFlatSearch, type FlatSearch } from '../../server/identity/face-flat-search';
import { silentLog } from '../../server/identity/log';
import { enrollFace } from '../../server/identity/store';
import { openTestDb } from '../server/helpers';
import { passedSession as benchSession } from '../../bench/duplicate-wait';
import { syntheticFaces } from '../../bench/gallery-scale';

/**
 * Issue 44: the register transaction no longer reads every enrolment when the background duplicate
 * search has not finished. Registration waits for the search running in this process (at most
 * IDENTITY_DUPLICATE_WAIT_MS), or runs one through the flat file when none finished; inside the
 * transaction only the rows enrolled since that search's snapshot are read, and a check not
 * finished in time refuses the registration for now (DuplicateCheckPending), never passes it.
 * The slow background search is simulated at the seam face-flat.test.ts uses: the FlatSearch that
 * startDuplicateCheck is given, here one that waits for the test's word before scanning.
 */
const T = 0.7;
const faces = syntheticFaces(44);
const capture = (person: number, seed: number) =>
  Array.from(faces.capture(faces.centre(person), seed, seed % 97));

let db: Db;
let dir: string;
let real: FlatSearch;
let scans = 0;
let next = 0;

/** The real flat search, counting its searches. */
const counted = (): FlatSearch => ({
  search: (on, probe) => (scans++, real.search(on, probe)),
  close: () => real.close(),
});

/** A background search that starts (`entered`) and then waits for `release()` (or fails). */
function slowSearch() {
  let release!: (fail?: boolean) => void;
  let entered!: () => void;
  const started = new Promise<void>((r) => (entered = r));
  const gate = new Promise<boolean>((r) => (release = (fail = false) => r(fail)));
  const search: FlatSearch = {
    async search(on, probe) {
      entered();
      if (await gate) throw new Error('flat face scan: no answer in 30000 ms');
      return counted().search(on, probe);
    },
    close: async () => {},
  };
  return { search, started, release };
}

/** The SQL a transaction ran, to see which enrolments it read. */
function spied(tx: Db, seen: string[]): Db {
  return { ...tx, query: (sql, params) => (seen.push(sql), tx.query(sql, params)) } as Db;
}
const scansTable = (q: string) => /FROM face_enrollments/.test(q) && !/patient_id = \$1/.test(q);
/** Every enrolment (the 4 GB read at 1M), or only those since a snapshot (one patient's: neither). */
const readsAll = (seen: string[]) => seen.some((q) => scansTable(q) && !/change_xid >=/.test(q));
const readsSince = (seen: string[]) => seen.some((q) => scansTable(q) && /change_xid >=/.test(q));

async function enrolled(person: number, seed: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
     VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
    [String(8_400_000 + ++next)],
  );
  await enrollFace(db, rows[0]!.id, capture(person, seed));
  return rows[0]!.id;
}

const passedSession = (embedding: number[]) => benchSession(db, embedding);

const register = (session: string, embedding: number[], seen: string[], exclude: string[] = []) =>
  db.transaction((tx) =>
    duplicateAtRegistration(spied(tx, seen), session, embedding, T, exclude, {
      requireCheck: true,
    }),
  );
const statusOf = async (session: string) =>
  (
    await db.query<{ status: string }>(
      'SELECT status FROM face_duplicate_checks WHERE session_id = $1',
      [session],
    )
  ).rows[0]?.status;

let known: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dup-wait-'));
  db = await openTestDb();
  for (let p = 0; p < 120; p++) await enrolled(p, p);
  known = await enrolled(500, 1);
  real = createFlatSearch({
    config: { ...loadDuplicateSearchConfig({}), dir, minRows: 50, chunkRows: 256 },
    log: silentLog,
  });
}, 60_000);
afterAll(async () => {
  await real.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  scans = 0;
});

describe('the setting', () => {
  it('IDENTITY_DUPLICATE_WAIT_MS: 10 s by default, bounded', () => {
    expect(loadDuplicateSearchConfig({}).waitMs).toBe(10_000);
    expect(loadDuplicateSearchConfig({ IDENTITY_DUPLICATE_WAIT_MS: '2500' }).waitMs).toBe(2_500);
    expect(() => loadDuplicateSearchConfig({ IDENTITY_DUPLICATE_WAIT_MS: '5' })).toThrow();
  });
});

describe('registration and the background search', () => {
  it('waits for the search still running, then reads only what was enrolled since it', async () => {
    const probe = capture(500, 2);
    const session = await passedSession(probe);
    const slow = slowSearch();
    const background = startDuplicateCheck(db, session, T, slow.search);
    await slow.started;
    expect(await statusOf(session)).toBe('pending');

    const settling = settleDuplicateCheck(db, session, probe, T, {
      search: counted(),
      waitMs: 30_000,
    });
    slow.release();
    await Promise.all([background, settling]);
    // One scan of the file: the background's, waited for (registration did not run its own).
    expect(scans).toBe(1);
    expect(await statusOf(session)).toBe('match');

    // Enrolled after the search: found by the transaction's read of the rows since.
    const late = await enrolled(500, 3);
    const seen: string[] = [];
    const found = await register(session, probe, seen);
    expect([known, late]).toContain(found?.patientId);
    expect(readsSince(seen)).toBe(true);
    expect(readsAll(seen)).toBe(false);
  });

  it('past the wait: refused for now (never passed, never every enrolment read), then found', async () => {
    const probe = capture(501, 2);
    const twin = await enrolled(501, 1);
    const session = await passedSession(probe);
    const slow = slowSearch();
    const background = startDuplicateCheck(db, session, T, slow.search);
    await slow.started;

    await expect(
      settleDuplicateCheck(db, session, probe, T, { search: counted(), waitMs: 150 }),
    ).rejects.toBeInstanceOf(DuplicateCheckPending);
    // A transaction reached anyway (another process's registration) refuses too, reading nothing.
    const seen: string[] = [];
    await expect(register(session, probe, seen)).rejects.toBeInstanceOf(DuplicateCheckPending);
    expect(readsAll(seen) || readsSince(seen)).toBe(false);
    expect(scans).toBe(0);

    // The patient tries again once the search finished: the duplicate is found.
    slow.release();
    await background;
    await settleDuplicateCheck(db, session, probe, T, { search: counted(), waitMs: 150 });
    expect((await register(session, probe, []))?.patientId).toBe(twin);
  });

  it('no search finished (failed, or pending on another process): it runs its own through the file', async () => {
    const probe = capture(502, 2);
    const twin = await enrolled(502, 1);
    // A background search that failed leaves its row pending.
    const failed = await passedSession(probe);
    const slow = slowSearch();
    const background = startDuplicateCheck(db, failed, T, slow.search);
    await slow.started;
    slow.release(true);
    await expect(background).rejects.toThrow(/no answer/);
    expect(await statusOf(failed)).toBe('pending');
    // Another process's row, pending, not running here.
    const elsewhere = await passedSession(probe);
    await db.query(
      `INSERT INTO face_duplicate_checks (session_id, status, threshold, since_xid)
       VALUES ($1, 'pending', $2, pg_snapshot_xmin(pg_current_snapshot()))`,
      [elsewhere, T],
    );

    for (const session of [failed, elsewhere]) {
      scans = 0;
      await settleDuplicateCheck(db, session, probe, T, { search: counted(), waitMs: 30_000 });
      expect(scans).toBe(1);
      const seen: string[] = [];
      expect((await register(session, probe, seen))?.patientId).toBe(twin);
      expect(readsAll(seen)).toBe(false);
    }
  });

  it('a match a supervisor excluded since is searched again through the file, not every row', async () => {
    const probe = capture(503, 2);
    const first = await enrolled(503, 1);
    const second = await enrolled(503, 4);
    const session = await passedSession(probe);
    await startDuplicateCheck(db, session, T, counted());
    const best = (await register(session, probe, []))!.patientId;
    const other = best === first ? second : first;

    scans = 0;
    await settleDuplicateCheck(db, session, probe, T, {
      search: counted(),
      waitMs: 30_000,
      exclude: [best],
    });
    expect(scans).toBe(1);
    const seen: string[] = [];
    expect((await register(session, probe, seen, [best]))?.patientId).toBe(other);
    expect(readsAll(seen)).toBe(false);
    await settleDuplicateCheck(db, session, probe, T, {
      search: counted(),
      waitMs: 30_000,
      exclude: [first, second],
    });
    expect(await register(session, probe, [], [first, second])).toBeNull();
  });
});
