/**
 * Issue 7: a replayed liveness frame is found however many frames are stored. The candidates of the
 * fine comparison (at most CANDIDATE_LIMIT thumbnails) are the nearest by dHash, so a replay's source
 * cannot hide behind other sessions' band-matching frames, nor a frame sent again behind the
 * session's own later frames. Store and decision only (no models): crafted fingerprints on the real
 * database, PGlite or PostgreSQL (TEST_DATABASE_URL).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import {
  CANDIDATE_LIMIT,
  findReplay,
  findReplays,
  findSessionDuplicate,
  REPLAY_SCAN_PER_BAND,
} from '../../server/identity/duplicates';
import { FINGERPRINT_H, FINGERPRINT_W, fingerprintDistance } from '../../server/identity/image';
import * as store from '../../server/identity/store';
import { rng } from '../fixtures/cedula';
import { openTestDb } from './helpers';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db?.close();
});

const WINDOW = 72 * 3_600_000;
const opts = { windowMs: WINDOW, duplicateDistance: 0.7 };

/** A random 48x36 grey thumbnail (a new capture: far from any other). */
function thumb(seed: number): Buffer {
  const r = rng(seed);
  return Buffer.from(Array.from({ length: FINGERPRINT_W * FINGERPRINT_H }, () => r() * 256));
}
/** The same capture re-encoded: every pixel moved by at most 1 grey level. */
function reencoded(t: Buffer, seed: number): Buffer {
  const r = rng(seed);
  return Buffer.from(t.map((v) => Math.max(0, Math.min(255, v + Math.round(r() * 2 - 1)))));
}
/** `dhash` with the given bits (0 = the lowest) flipped. */
const flip = (dhash: bigint, ...bits: number[]) =>
  bits.reduce((h, b) => h ^ (1n << BigInt(b)), BigInt.asUintN(64, dhash));

async function session(): Promise<string> {
  const id = randomUUID();
  await store.insertSession(db, id, 'blink', {}, 30 * 60_000);
  return id;
}
/** Stores `n` frames spread over `sessions` new sessions (as many patients would). */
async function storeOthers(n: number, sessions: number, frame: (i: number) => [Buffer, bigint]) {
  const ids = await Promise.all(Array.from({ length: sessions }, session));
  for (let i = 0; i < n; i++) {
    const [t, h] = frame(i);
    await store.insertFrame(db, ids[i % sessions]!, Math.floor(i / sessions) + 1, t, h, true);
  }
}

describe('replays into a new session', () => {
  it('finds the source behind more than CANDIDATE_LIMIT band-matching frames of other sessions', async () => {
    const hash = 0x0123_4567_89ab_cdefn;
    const source = thumb(1);
    // 250 frames of other patients stored first, sharing the top 16-bit band with the source's
    // dHash and 2-8 bits from it (the search's radius), every one a different capture.
    await storeOthers(250, 25, (i) => [
      thumb(100 + i),
      flip(hash, ...[0, 17, 33, 5, 21, 37, 9, 25].slice(0, 2 + (i % 7))),
    ]);
    const src = await session();
    await store.insertFrame(db, src, 1, source, hash, true);
    const thief = await session();

    // Sent as it was, and re-encoded (the dHash moved one bit, the thumbnail by <= 1 level).
    const exact = await findReplay(db, thief, source, hash, opts);
    expect(exact).toMatchObject({ dup: true, replay: true, distance: 0 });
    const recoded = reencoded(source, 2);
    expect(fingerprintDistance(source, recoded)).toBeLessThanOrEqual(0.7);
    const moved = await findReplay(db, thief, recoded, flip(hash, 40), opts);
    expect(moved).toMatchObject({ dup: true, replay: true });
    // A new capture with the same dHash is not a replay; nor is the source within its own session.
    expect(await findReplay(db, thief, thumb(3), hash, opts)).toMatchObject({ dup: false });
    expect(await findReplay(db, src, source, hash, opts)).toMatchObject({ dup: false });
  });

  it('finds an exact replay even when later frames of other sessions carry the same dHash', async () => {
    const hash = 0x7edc_ba98_7654_3210n;
    const source = thumb(4);
    const src = await session();
    await store.insertFrame(db, src, 1, source, hash, true);
    // An attacker stores CANDIDATE_LIMIT + 50 other frames with the source's very dHash after it.
    await storeOthers(CANDIDATE_LIMIT + 50, 10, (i) => [thumb(1000 + i), hash]);
    const thief = await session();
    expect(await findReplay(db, thief, source, hash, opts)).toMatchObject({
      dup: true,
      replay: true,
      distance: 0,
    });
  });

  it('compares at most CANDIDATE_LIMIT thumbnails per frame, the nearest first', async () => {
    const hash = 0x5555_aaaa_5555_aaaan;
    await storeOthers(CANDIDATE_LIMIT + 40, 8, (i) => [thumb(5000 + i), flip(hash, i % 48)]);
    const me = await session();
    const rows = await store.replayCandidates(db, me, hash, WINDOW, {
      maxHamming: 8,
      limit: CANDIDATE_LIMIT,
      scanPerBand: REPLAY_SCAN_PER_BAND,
    });
    expect(rows).toHaveLength(CANDIDATE_LIMIT);
    const d = rows.map((r) => r.distance);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(d.every((x) => x === 1)).toBe(true);
  });

  it('reads a bounded number of rows per band: the oldest and the newest of other sessions', async () => {
    const scanPerBand = 20;
    const small = { ...opts, scanPerBand };
    const hash = 0x2468_1357_aaaa_0f0fn;
    const near = (i: number) => flip(hash, i % 16) as bigint; // shares the three upper bands
    const first = thumb(20);
    const src1 = await session();
    await store.insertFrame(db, src1, 1, first, hash, true);
    await storeOthers(3 * scanPerBand, 6, (i) => [thumb(20_000 + i), near(i)]);
    const last = thumb(21);
    const src2 = await session();
    await store.insertFrame(db, src2, 1, last, hash, true);
    // The replaying session's own frames (however many) never take another session's place.
    const thief = await session();
    for (let i = 0; i < 3 * scanPerBand; i++)
      await store.insertFrame(db, thief, i + 1, thumb(21_000 + i), near(i), true);
    expect(await findReplay(db, thief, first, hash, small)).toMatchObject({ dup: true });
    expect(await findReplay(db, thief, last, hash, small)).toMatchObject({ dup: true });
    const rows = await store.replayCandidates(db, thief, hash, WINDOW, {
      maxHamming: 8,
      limit: 1000,
      scanPerBand,
    });
    // 2 x 20 per shared band, overlapping: at most 8 x 20 rows, here the 2 x 20 of each side.
    expect(rows.length).toBeLessThanOrEqual(8 * scanPerBand);
    expect(rows.length).toBe(2 * scanPerBand);
    expect(rows.some((r) => r.session_id === thief)).toBe(false);
  });

  it('ignores frames past the replay window and frames farther than the radius', async () => {
    const hash = 0x0f0f_0f0f_0f0f_0f0fn;
    const source = thumb(6);
    const old = await session();
    await store.insertFrame(db, old, 1, source, hash, true);
    await db.query(
      `UPDATE liveness_frames SET created_at = now() - interval '73 hours' WHERE session_id = $1`,
      [old],
    );
    const thief = await session();
    expect(await findReplay(db, thief, source, hash, opts)).toMatchObject({ dup: false });
    const far = await session();
    await store.insertFrame(db, far, 1, source, flip(hash, 0, 1, 2, 3, 4, 5, 6, 7, 8), true);
    expect(await findReplay(db, thief, source, hash, opts)).toMatchObject({ dup: false });
  });

  it("searches a request's frames together: each frame is answered by its own candidates", async () => {
    // Two sources in two sessions, with dHashes sharing no band (one search scans both).
    const h1 = 0x1357_9bdf_2468_ace0n;
    const h2 = 0xeca8_6420_fdb9_7531n;
    const s1 = thumb(30);
    const s2 = thumb(31);
    await store.insertFrame(db, await session(), 1, s1, h1, true);
    await store.insertFrame(db, await session(), 1, s2, h2, true);
    const thief = await session();
    const answers = await findReplays(
      db,
      thief,
      [
        { thumb: thumb(32), dhash: h1 }, // a new capture with s1's dHash: not a replay
        { thumb: reencoded(s2, 33), dhash: flip(h2, 3) }, // s2 re-encoded
        { thumb: s1, dhash: h1 }, // s1 as sent
        { thumb: s2, dhash: h1 }, // s2's picture under s1's dHash: not s2's candidate set
      ],
      opts,
    );
    expect(answers.map((a) => a.dup)).toEqual([false, true, true, false]);
    expect(answers[2]).toMatchObject({ replay: true, distance: 0 });
    expect(await findReplays(db, thief, [], opts)).toEqual([]);
  });
});

describe('a replay raced against its source (PostgreSQL: concurrent transactions)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a transaction sharing a dHash band waits for the one holding it; others do not',
    async () => {
      const hash = 0x1111_2222_3333_4444n;
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const first = db.transaction(async (tx) => {
        await store.lockBands(tx, [hash]);
        locked();
        await held;
        order.push('first commits');
      });
      await isLocked;
      // One band in common (the lowest 16 bits differ): waits. No band in common: does not.
      const sharing = db.transaction(async (tx) => {
        await store.lockBands(tx, [flip(hash, 0, 1)]);
        order.push('sharing locked');
      });
      // Wait until it is queued on the lock (pg_locks: one band lock, class 7007, not granted).
      const waiting = async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 7007 AND objsubid = 2 AND NOT granted`,
          )
        ).rows[0]!.n;
      while ((await waiting()) < 1);
      await db.transaction(async (tx) => {
        await store.lockBands(tx, [~hash]);
        order.push('disjoint locked');
      });
      expect(await waiting()).toBe(1);
      release();
      await Promise.all([first, sharing]);
      expect(order).toEqual(['disjoint locked', 'first commits', 'sharing locked']);
    },
  );
});

describe('a frame sent again within its session', () => {
  it('is found behind more than CANDIDATE_LIMIT later frames of the session', async () => {
    const hash = 0x1357_9bdf_2468_ace0n;
    const closed = thumb(7);
    const sid = await session();
    await store.insertFrame(db, sid, 1, closed, hash, true);
    // The session then stores many new captures within the search's radius of that frame.
    for (let i = 0; i < CANDIDATE_LIMIT + 30; i++)
      await store.insertFrame(db, sid, i + 2, thumb(9000 + i), flip(hash, 2 + (i % 60)), true);
    expect(
      await findSessionDuplicate(db, sid, reencoded(closed, 8), hash, [], {
        duplicateDistance: 0.7,
      }),
    ).toMatchObject({ dup: true, replay: false });
    // A new capture is not a duplicate; a duplicate earlier in the same request is.
    expect(
      await findSessionDuplicate(db, sid, thumb(10), hash, [], { duplicateDistance: 0.7 }),
    ).toMatchObject({ dup: false });
    const t = thumb(11);
    expect(
      await findSessionDuplicate(db, sid, t, 0n, [thumb(12), t], { duplicateDistance: 0.7 }),
    ).toMatchObject({ dup: true, distance: 0 });
  });
});
