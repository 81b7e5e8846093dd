/**
 * Duplicates at registration (issue 44 item 3), the identity engine's side
 * (server/identity/duplicates-face.ts): the exact search over every enrolled face, the background
 * check kept per KYC session, and registration's search inside its transaction, which sees what
 * was enrolled since and what a concurrent registration committed. On PGlite, and on PostgreSQL in
 * `npm test`'s PostgreSQL tier (TEST_DATABASE_URL), where two transactions really run at once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { DUPLICATE_FACE_THRESHOLD, loadIdentityConfig } from '../../server/identity/config';
import {
  duplicateAtRegistration,
  enrolledSimilarity,
  exactBestMatch,
  startDuplicateCheck,
} from '../../server/identity/duplicates-face';
import { enrollFace } from '../../server/identity/store';
import { passedSession as benchSession } from '../../bench/duplicate-wait';
import { openTestDb } from './helpers';

const T = DUPLICATE_FACE_THRESHOLD;
let db: Db;
let next = 0;

/** A random-looking 1024-d face description, distinct per seed. */
function face(seed: number): number[] {
  let s = seed * 2654435761;
  return Array.from({ length: 1024 }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648 - 0.5;
  });
}

/** Another capture of `base`'s face at about `similarity` (a unit mix with an unrelated face). */
function capture(base: number[], similarity: number, seed: number): number[] {
  const norm = (v: number[]) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  const other = face(seed);
  const b = norm(base);
  const o = norm(other);
  const k = Math.sqrt(1 - similarity * similarity);
  return base.map((x, i) => (similarity * x) / b + (k * other[i]!) / o);
}

async function patient(on: Db = db): Promise<string> {
  next++;
  const { rows } = await on.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
     VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
    [String(7_000_000 + next)],
  );
  return rows[0]!.id;
}

async function enrolled(embedding: number[]): Promise<string> {
  const id = await patient();
  await enrollFace(db, id, embedding);
  return id;
}

/** A completed KYC session with this selfie face, as scan-id leaves it (the bench's own). */
const passedSession = (embedding: number[]) => benchSession(db, embedding);

const checkOf = async (sessionId: string) =>
  (
    await db.query<{ status: string; patient_id: string | null; similarity: number | null }>(
      `SELECT status, patient_id::text AS patient_id, similarity FROM face_duplicate_checks
        WHERE session_id = $1`,
      [sessionId],
    )
  ).rows[0];

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.query('DELETE FROM face_duplicate_checks');
  await db.query('DELETE FROM face_enrollments');
});

describe('the duplicate threshold', () => {
  it('is a setting (IDENTITY_DUPLICATE_FACE_THRESHOLD), 0.70 by default', () => {
    expect(loadIdentityConfig({}).duplicateFaceThreshold).toBe(0.7);
    expect(
      loadIdentityConfig({ IDENTITY_DUPLICATE_FACE_THRESHOLD: '0.8' }).duplicateFaceThreshold,
    ).toBe(0.8);
    expect(() => loadIdentityConfig({ IDENTITY_DUPLICATE_FACE_THRESHOLD: '2' })).toThrow();
  });
});

describe('exact search', () => {
  it('finds the best enrolled face at or above the threshold, exactly, among every row', async () => {
    const a = face(1);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await enrolled(face(100 + i)));
    const near = await enrolled(capture(a, 0.75, 7));
    const nearer = await enrolled(capture(a, 0.9, 8));
    const best = await exactBestMatch(db, a, T);
    expect(best?.patientId).toBe(nearer);
    expect(best!.similarity).toBeCloseTo(0.9, 1);
    // Leaving the best out: the next one above the threshold.
    expect((await exactBestMatch(db, a, T, { exclude: [nearer] }))?.patientId).toBe(near);
    expect(await exactBestMatch(db, a, T, { exclude: [near, nearer] })).toBeNull();
    // Below the threshold is no duplicate.
    expect(await exactBestMatch(db, capture(a, 0.6, 9), 0.95)).toBeNull();
    expect(await enrolledSimilarity(db, near, a)).toBeCloseTo(0.75, 1);
    expect(await enrolledSimilarity(db, ids[0]!, face(1))).toBeLessThan(0.2);
  });

  it('pages through more rows than one page (2,000)', async () => {
    const a = face(2);
    // Inserted in one statement: the gallery of a real service, cheaply.
    await db.query(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
       SELECT 'bulk' || g, 'P', 'Q', 'x' FROM generate_series(1, 2100) g`,
    );
    await db.query(
      `INSERT INTO face_enrollments (patient_id, embedding, model)
       SELECT id, array_fill(0.001::real, ARRAY[1024]), 'human-faceres-1024'
         FROM patients WHERE numero_documento LIKE 'bulk%'`,
    );
    const last = await enrolled(capture(a, 0.8, 3));
    expect((await exactBestMatch(db, a, T))?.patientId).toBe(last);
    await db.query(`DELETE FROM patients WHERE numero_documento LIKE 'bulk%' OR id = $1::bigint`, [
      last,
    ]);
  });
});

describe('the background check and the check at registration', () => {
  it('keeps one result per session (pending, then clear or match), no description', async () => {
    const a = face(3);
    const other = await enrolled(capture(a, 0.85, 4));
    const session = await passedSession(a);
    await startDuplicateCheck(db, session, T);
    expect(await checkOf(session)).toEqual({
      status: 'match',
      patient_id: other,
      similarity: expect.closeTo(0.85, 1),
    });
    // Again: nothing new.
    await startDuplicateCheck(db, session, T);
    const clear = await passedSession(face(5));
    await startDuplicateCheck(db, clear, T);
    expect((await checkOf(clear))?.status).toBe('clear');
    const { rows } = await db.query(
      `SELECT column_name FROM information_schema.columns
        WHERE table_name = 'face_duplicate_checks' AND data_type IN ('ARRAY', 'bytea')`,
    );
    expect(rows).toEqual([]);
  });

  it('registration finds what was enrolled after the background check said clear', async () => {
    const a = face(6);
    const session = await passedSession(a);
    await startDuplicateCheck(db, session, T);
    expect((await checkOf(session))?.status).toBe('clear');
    const later = await enrolled(capture(a, 0.8, 10));
    const found = await db.transaction((tx) => duplicateAtRegistration(tx, session, a, T));
    expect(found).toEqual({ patientId: later, similarity: expect.closeTo(0.8, 1), threshold: T });
  });

  it('registration searches everything when the background check never ran or is pending', async () => {
    const a = face(11);
    const other = await enrolled(capture(a, 0.78, 12));
    const never = await passedSession(a);
    expect(
      (await db.transaction((tx) => duplicateAtRegistration(tx, never, a, T)))?.patientId,
    ).toBe(other);
    const pending = await passedSession(a);
    await db.query(
      `INSERT INTO face_duplicate_checks (session_id, status, threshold) VALUES ($1, 'pending', $2)`,
      [pending, T],
    );
    expect(
      (await db.transaction((tx) => duplicateAtRegistration(tx, pending, a, T)))?.patientId,
    ).toBe(other);
  });

  it('a match the background found is checked again (re-enrolled with another face: none)', async () => {
    const a = face(13);
    const other = await enrolled(capture(a, 0.9, 14));
    const session = await passedSession(a);
    await startDuplicateCheck(db, session, T);
    expect((await checkOf(session))?.patient_id).toBe(other);
    await enrollFace(db, other, face(15));
    expect(await db.transaction((tx) => duplicateAtRegistration(tx, session, a, T))).toBeNull();
  });

  it('leaves out the patients a supervisor decided this registration is not', async () => {
    const a = face(16);
    const first = await enrolled(capture(a, 0.9, 17));
    const second = await enrolled(capture(a, 0.8, 18));
    const session = await passedSession(a);
    await startDuplicateCheck(db, session, T);
    const found = await db.transaction((tx) => duplicateAtRegistration(tx, session, a, T, [first]));
    expect(found?.patientId).toBe(second);
    expect(
      await db.transaction((tx) => duplicateAtRegistration(tx, session, a, T, [first, second])),
    ).toBeNull();
  });

  it('two registrations of one face at once: the second finds the first', async () => {
    const a = face(19);
    const s1 = await passedSession(a);
    const s2 = await passedSession(capture(a, 0.95, 20));
    // Both background checks ran before either registered: both clear.
    await startDuplicateCheck(db, s1, T);
    await startDuplicateCheck(db, s2, T);
    expect((await checkOf(s1))?.status).toBe('clear');
    expect((await checkOf(s2))?.status).toBe('clear');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstChecked!: () => void;
    const checked = new Promise<void>((r) => (firstChecked = r));
    const register = (session: string, embedding: number[], hold: boolean) =>
      db.transaction(async (tx) => {
        const found = await duplicateAtRegistration(tx, session, embedding, T);
        if (found) return { found };
        const id = await patient(tx);
        if (hold) {
          firstChecked();
          await held;
        }
        await enrollFace(tx, id, embedding);
        return { registered: id };
      });
    const one = register(s1, a, true);
    await checked;
    // The second starts while the first holds its transaction open (PostgreSQL: it waits for the
    // first's lock; PGlite: transactions run one after the other).
    const two = register(s2, capture(a, 0.95, 20), false);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const [first, second] = await Promise.all([one, two]);
    expect(first).toEqual({ registered: expect.any(String) });
    expect(second).toEqual({
      found: {
        patientId: (first as { registered: string }).registered,
        similarity: expect.closeTo(0.95, 1),
        threshold: T,
      },
    });
  });
});
