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
import { loadIdentityConfig } from '../../server/identity/config';
import {
  CANDIDATE_LIMIT,
  findReplay,
  findReplays,
  findSessionDuplicate,
  findSessionDuplicates,
  REPLAY_SCAN_PER_BAND,
  SESSION_MAX_HAMMING,
} from '../../server/identity/duplicates';
import { hints } from '../../server/identity/hints';
import {
  FINGERPRINT_H,
  FINGERPRINT_W,
  fingerprintDistance,
  hamming64,
} from '../../server/identity/image';
import { blinkDecider, type LivenessDecider } from '../../server/identity/liveness';
import { decideFrames } from '../../server/identity/liveness-decision';
import * as store from '../../server/identity/store';
import type { FrameAnalysis } from '../../server/identity/types';
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
    const rows = (
      await store.replayCandidatesMany(db, me, [hash], WINDOW, {
        maxHamming: 8,
        limit: CANDIDATE_LIMIT,
        scanPerBand: REPLAY_SCAN_PER_BAND,
      })
    )[0]!;
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
    const rows = (
      await store.replayCandidatesMany(db, thief, [hash], WINDOW, {
        maxHamming: 8,
        limit: 1000,
        scanPerBand,
      })
    )[0]!;
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

/** `inner` with every statement's text pushed to `log` (also inside its transactions). */
function logging(inner: Db, log: string[]): Db {
  return {
    kind: inner.kind,
    query<T>(sql: string, params?: unknown[]) {
      log.push(sql);
      return inner.query<T>(sql, params);
    },
    transaction: (fn) => inner.transaction((tx) => fn(logging(tx, log))),
    close: () => inner.close(),
  };
}

/** Stores frames as one other session, all created `hoursAgo`. */
async function storeGroup(hoursAgo: number, frames: Array<[Buffer, bigint]>): Promise<string> {
  const id = await session();
  await store.insertFrames(
    db,
    id,
    frames.map(([t, h], i) => ({ seq: i + 1, thumb: t, dhash: h, counted: true })),
  );
  await db.query(
    `UPDATE liveness_frames SET created_at = now() - ($2::float8 * interval '1 hour') WHERE session_id = $1`,
    [id, hoursAgo],
  );
  return id;
}

describe('the frames of one request, searched together', () => {
  it('gives every frame its own nearest stored frames of the session, in one query', async () => {
    const a = 0x0f1e_2d3c_4b5a_6978n;
    const b = 0xf0e1_d2c3_b4a5_9687n; // no band in common with a, 64 bits away
    const x = thumb(40);
    const y = thumb(41);
    const sid = await session();
    let seq = 0;
    await store.insertFrame(db, sid, ++seq, x, a, true);
    for (let i = 0; i < 30; i++)
      await store.insertFrame(db, sid, ++seq, thumb(4000 + i), flip(a, i % 8, 8 + (i % 5)), true);
    await store.insertFrame(db, sid, ++seq, y, b, true);
    for (let i = 0; i < 30; i++)
      await store.insertFrame(db, sid, ++seq, thumb(4100 + i), flip(b, 20 + (i % 9)), true);
    const limit = 10;
    const probes = [a, flip(a, 3), b, flip(b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), b];
    const lists = await store.sessionFramesMany(db, sid, probes, {
      maxHamming: SESSION_MAX_HAMMING,
      limit,
    });
    // What each frame alone must get: its nearest `limit` within the radius, then the newest.
    const { rows } = await db.query<{ seq: number; dhash: string }>(
      'SELECT seq, dhash::text AS dhash FROM liveness_frames WHERE session_id = $1',
      [sid],
    );
    for (const [i, probe] of probes.entries()) {
      const expected = rows
        .map((r) => ({ seq: r.seq, d: hamming64(probe, BigInt(r.dhash)) }))
        .filter((r) => r.d <= SESSION_MAX_HAMMING)
        .sort((p, q) => p.d - q.d || q.seq - p.seq)
        .slice(0, limit)
        .map((r) => r.seq);
      expect(lists[i]!.map((r) => r.seq)).toEqual(expected);
    }
    expect(lists[3]).toEqual([]); // 13 bits from b: outside the radius
    expect(lists[0]![0]!.seq).toBe(1);
    expect(Buffer.from(lists[0]![0]!.thumb).equals(x)).toBe(true);

    const answers = await findSessionDuplicates(
      db,
      sid,
      [
        { thumb: reencoded(x, 45), dhash: b }, // x's picture under y's dHash: not among b's frames
        { thumb: thumb(42), dhash: a }, // a new capture under x's dHash
        { thumb: reencoded(x, 43), dhash: flip(a, 5) }, // x sent again
        { thumb: reencoded(y, 44), dhash: b }, // y sent again
        { thumb: thumb(46), dhash: b }, // a new capture
        { thumb: reencoded(thumb(46), 47), dhash: flip(b, 60) }, // the previous frame again
      ],
      { duplicateDistance: 0.7, limit },
    );
    expect(answers.map((r) => r.dup)).toEqual([false, false, true, true, false, true]);
    expect(answers.every((r) => !r.replay)).toBe(true);
    expect(await findSessionDuplicates(db, sid, [], { duplicateDistance: 0.7 })).toEqual([]);
  });

  it('finds, for every frame of an 8-frame request, a source reachable through one band walk only', async () => {
    const scanPerBand = 10;
    const crowd = scanPerBand + 2;
    const r = rng(77);
    const word = () => BigInt(Math.floor(r() * 2 ** 32));
    const sources: Array<{ t: Buffer; h: bigint }> = [];
    let seed = 60_000;
    const group = (h: bigint) =>
      Array.from({ length: crowd }, (): [Buffer, bigint] => [thumb(seed++), h]);
    for (let k = 0; k < 8; k++) {
      const h = (word() << 32n) | word();
      const t = thumb(700 + k);
      sources.push({ t, h });
      // Every crowd frame is one bit from the source (bit 0: band 3; 20: band 2; 40: band 0). In
      // bands 0, 1 and 3 the source has more than scanPerBand frames of other sessions on both
      // sides; in band 2 only on one side, so a single walk reaches it: from the oldest for even k
      // (the frames sharing band 2 came after it), from the newest for odd k.
      const [early, late] = k % 2 ? [[0, 40], [20]] : [[20], [0, 40]];
      for (const bit of early) await storeGroup(3, group(flip(h, bit)));
      await storeGroup(2, [[t, h]]);
      for (const bit of late) await storeGroup(1, group(flip(h, bit)));
    }
    const thief = await session();
    const frames = sources.map((s, k) => ({ thumb: reencoded(s.t, 800 + k), dhash: s.h }));
    const small = { ...opts, scanPerBand, limit: 5 };
    expect((await findReplays(db, thief, frames, small)).map((a) => a.dup)).toEqual(
      Array(8).fill(true),
    );
    // Each frame: at most `limit` candidates, the nearest first (the source, 0 bits away).
    const lists = await store.replayCandidatesMany(
      db,
      thief,
      frames.map((f) => f.dhash),
      WINDOW,
      { maxHamming: 8, limit: 5, scanPerBand },
    );
    for (const [k, list] of lists.entries()) {
      expect(list.length).toBeLessThanOrEqual(5);
      expect(list[0]!.distance).toBe(0);
      expect(Buffer.from(list[0]!.thumb).equals(sources[k]!.t)).toBe(true);
      expect(list.map((c) => c.distance)).toEqual(list.map((c) => c.distance).sort());
    }
    // Buried in every band (frames sharing band 2 before it as well), a source is out of reach:
    // the search's bound, as documented.
    await storeGroup(2.5, group(flip(sources[0]!.h, 63)));
    expect((await findReplays(db, thief, frames.slice(0, 1), small))[0]!.dup).toBe(false);
  });

  it("gives every frame its own nearest replay candidates (the database's order, ties included)", async () => {
    const h = 0x6a09_e667_f3bc_c908n;
    const r = rng(88);
    // Six other sessions, 40 frames each stored in one statement (one created_at: ties broken by
    // session and sequence), 0-10 bits from h, some with the very same dHash.
    for (let s = 0; s < 6; s++)
      await storeGroup(
        1 + s / 10,
        Array.from({ length: 40 }, (_, i): [Buffer, bigint] => [
          thumb(30_000 + s * 100 + i),
          flip(h, ...Array.from({ length: i % 11 }, () => Math.floor(r() * 64))),
        ]),
      );
    const thief = await session();
    const probes = [h, flip(h, 3, 20), flip(h, 40, 50, 60), flip(h, 1, 17, 33, 49), 0x1n];
    const limit = 15;
    const search = (on: Db) =>
      store.replayCandidatesMany(on, thief, probes, WINDOW, {
        maxHamming: 8,
        limit,
        scanPerBand: REPLAY_SCAN_PER_BAND,
      });
    const lists = await search(db);
    // The lists do not depend on the order the rows arrive in (the query does not sort them).
    const reversing = (inner: Db): Db => ({
      kind: inner.kind,
      async query<T>(sql: string, params?: unknown[]) {
        const res = await inner.query<T>(sql, params);
        return /^\s*WITH probes/.test(sql) ? { rows: [...res.rows].reverse() } : res;
      },
      transaction: (fn) => inner.transaction((tx) => fn(reversing(tx))),
      close: () => inner.close(),
    });
    const keys = (ls: store.ReplayCandidate[][]) =>
      ls.map((l) => l.map((c) => `${c.session_id}/${c.seq}/${c.distance}`));
    expect(keys(await search(reversing(db)))).toEqual(keys(lists));
    for (const [i, probe] of probes.entries()) {
      // Brute force: every counted frame of another session in the window sharing a band.
      const b = store.bands(probe);
      const { rows } = await db.query<{ session_id: string; seq: number; d: number }>(
        `SELECT session_id, seq, bit_count((dhash # $2::bigint)::bit(64))::int AS d
           FROM liveness_frames
          WHERE counted AND session_id <> $1 AND created_at > now() - interval '72 hours'
            AND (b0 = $3 OR b1 = $4 OR b2 = $5 OR b3 = $6)
            AND bit_count((dhash # $2::bigint)::bit(64)) <= 8
          ORDER BY d, created_at, session_id, seq LIMIT $7`,
        [thief, BigInt.asIntN(64, probe).toString(), ...b, limit],
      );
      expect(lists[i]!.map((c) => [c.session_id, c.seq, c.distance])).toEqual(
        rows.map((row) => [row.session_id, row.seq, row.d]),
      );
    }
    expect(lists[0]).toHaveLength(limit);
    expect(lists[4]).toEqual([]);
  });

  it('answers two frames of a request replaying one source (its thumbnail travels once)', async () => {
    const h = 0x3141_5926_5358_9793n;
    const t = thumb(90);
    await store.insertFrame(db, await session(), 1, t, h, true);
    const thief = await session();
    const answers = await findReplays(
      db,
      thief,
      [
        { thumb: reencoded(t, 91), dhash: h },
        { thumb: thumb(92), dhash: h },
        { thumb: reencoded(t, 93), dhash: flip(h, 7) },
      ],
      opts,
    );
    expect(answers.map((a) => a.dup)).toEqual([true, false, true]);
  });

  it('walks the (band, created_at) indexes: no bitmap or sequential scan of the frames', async () => {
    const h = 0x2718_2818_2845_9045n;
    // Statistics taken before plenty of band-matching frames arrive (stale, as after a flood):
    // without the planner settings, the thumbnails' lookup then goes through a bitmap.
    await db.query('ANALYZE liveness_frames');
    for (let s = 0; s < 4; s++)
      await storeGroup(
        1,
        Array.from({ length: 60 }, (_, i): [Buffer, bigint] => [thumb(9_500 + i), flip(h, i)]),
      );
    const plans: string[] = [];
    const explaining = (inner: Db): Db => ({
      kind: inner.kind,
      async query<T>(sql: string, params?: unknown[]) {
        if (/^\s*WITH probes/.test(sql)) {
          const { rows } = await inner.query<Record<string, string>>(
            `EXPLAIN (ANALYZE, COSTS OFF) ${sql}`,
            params,
          );
          plans.push(rows.map((row) => Object.values(row)[0]).join('\n'));
        }
        return inner.query<T>(sql, params);
      },
      transaction: (fn) => inner.transaction((tx) => fn(explaining(tx))),
      close: () => inner.close(),
    });
    const me = await session();
    await db.transaction((tx) =>
      store.replayCandidatesMany(explaining(tx), me, [h, flip(h, 5), ~h], WINDOW, {
        maxHamming: 8,
        limit: CANDIDATE_LIMIT,
        scanPerBand: 20,
      }),
    );
    expect(plans).toHaveLength(1);
    const plan = plans[0]!;
    expect(plan).not.toMatch(/Bitmap Heap Scan on liveness_frames|Seq Scan on liveness_frames/);
    for (const b of [0, 1, 2, 3]) {
      expect(plan).toMatch(new RegExp(`Index Scan using liveness_frames_b${b}_time_idx`));
      expect(plan).toMatch(new RegExp(`Index Scan Backward using liveness_frames_b${b}_time_idx`));
    }
    // Every walk stops at scanPerBand rows.
    const walked = [...plan.matchAll(/Limit \(actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+)/g)];
    expect(walked.length).toBe(8);
    expect(walked.every((m) => Number(m[1]) <= 20)).toBe(true);
  });

  it("stores a request's frames in one statement: bands as bands(), thumbnails and flags kept", async () => {
    const sid = await session();
    const frames = [
      { seq: 1, thumb: thumb(95), dhash: 0xfedc_ba98_7654_3210n, counted: true },
      { seq: 2, thumb: thumb(96), dhash: 0x8000_0000_0000_0001n, counted: false },
      { seq: 3, thumb: thumb(97), dhash: 0x0000_ffff_0000_ffffn, counted: true },
    ];
    const log: string[] = [];
    await store.insertFrames(logging(db, log), sid, frames);
    expect(log).toHaveLength(1);
    await store.insertFrames(logging(db, log), sid, []);
    expect(log).toHaveLength(1);
    const { rows } = await db.query<{
      seq: number;
      thumb: string;
      dhash: string;
      b: number[];
      counted: boolean;
    }>(
      `SELECT seq, encode(thumb, 'base64') AS thumb, dhash::text AS dhash, ARRAY[b0, b1, b2, b3] AS b, counted
         FROM liveness_frames WHERE session_id = $1 ORDER BY seq`,
      [sid],
    );
    // (PostgreSQL's base64 breaks lines every 76 characters.)
    expect(rows.map((r) => ({ ...r, thumb: r.thumb.replace(/\n/g, '') }))).toEqual(
      frames.map((f) => ({
        seq: f.seq,
        thumb: f.thumb.toString('base64'),
        dhash: BigInt.asIntN(64, f.dhash).toString(),
        b: store.bands(f.dhash),
        counted: f.counted,
      })),
    );
  });
});

describe('a request decided in its transaction (decideFrames)', () => {
  const config = loadIdentityConfig({});
  const decider = blinkDecider({
    ...config.liveness,
    continuityThreshold: config.continuityThreshold,
  }) as LivenessDecider<unknown>;
  const embedding = Array.from({ length: 1024 }, (_, i) => Math.sin(i));
  /** A usable frame: one centred open-eyed face, its fingerprint as the worker reports it. */
  const frame = (t: Buffer, dhash: bigint): FrameAnalysis => ({
    width: 400,
    height: 450,
    luminance: 120,
    faces: [
      {
        box: [130, 145, 140, 160],
        score: 0.9,
        ear: { left: 0.3, right: 0.3, mean: 0.3 },
        luminance: 120,
        embedding,
      },
    ],
    fingerprint: { thumb: t.toString('base64'), dhash: BigInt.asUintN(64, dhash).toString() },
    timings: { decodeMs: 0, detectMs: 0 },
  });
  async function kycSession() {
    const id = randomUUID();
    await store.insertSession(db, id, decider.name, decider.initial(), 30 * 60_000);
    return id;
  }
  const decide = (sid: string, frames: FrameAnalysis[], log: string[] = []) =>
    db.transaction((tx) =>
      decideFrames(logging(tx, log), {
        sessionId: sid,
        images: frames.map(() => new Uint8Array(1)),
        frames,
        anchor: { bytes: null, afterSeq: 0 },
        decider,
        keepPhoto: false,
        config,
        now: () => Date.now(),
      }),
    );
  const storedSeqs = async (sid: string) =>
    (
      await db.query<{ seq: number }>(
        'SELECT seq FROM liveness_frames WHERE session_id = $1 ORDER BY seq',
        [sid],
      )
    ).rows.map((r) => r.seq);

  it("refuses a request's 3rd frame that repeats a stored frame of the session, that frame only", async () => {
    const h = 0x1234_5678_9abc_def0n;
    const sid = await kycSession();
    const first = [0, 1, 2, 3, 4].map((i) => ({ t: thumb(300 + i), h: flip(h, i) }));
    const one = await decide(
      sid,
      first.map((f) => frame(f.t, f.h)),
    );
    expect(one.steps.map((s) => s.duplicate)).toEqual([false, false, false, false, false]);
    expect(await storedSeqs(sid)).toEqual([1, 2, 3, 4, 5]);

    const second = [
      frame(thumb(310), flip(h, 10)),
      frame(thumb(311), flip(h, 11)),
      frame(reencoded(first[1]!.t, 312), flip(h, 1, 30)), // the first request's 2nd frame again
      frame(thumb(313), flip(h, 13)),
      frame(thumb(314), flip(h, 14)),
    ];
    const two = await decide(sid, second);
    expect(two.steps.map((s) => s.duplicate)).toEqual([false, false, true, false, false]);
    expect(two.steps[2]).toMatchObject({ counted: false, replay: false });
    expect(two.feedback).toContain(hints.duplicate);
    // The duplicate is not stored; the others are, in order, and the session's sequence follows.
    expect(await storedSeqs(sid)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const saved = await store.loadSession(db, sid);
    expect(saved.frame_seq).toBe(9);

    // Within one request: a frame repeating an earlier frame of the same request (not stored yet).
    const t = thumb(320);
    const three = await decide(sid, [
      frame(t, flip(h, 20)),
      frame(thumb(321), flip(h, 21)),
      frame(reencoded(t, 322), flip(h, 20)),
    ]);
    expect(three.steps.map((s) => s.duplicate)).toEqual([false, false, true]);
    expect(await storedSeqs(sid)).toHaveLength(11);
  });

  it("logs a skipped frame that repeats a stored one as skipped and a duplicate, never as 'no_face' (it was not analysed)", async () => {
    const h = 0x0fed_cba9_8765_4321n;
    const sid = await kycSession();
    const t = thumb(400);
    await decide(sid, [frame(t, flip(h, 0)), frame(thumb(401), flip(h, 1))]);
    // The worker skips a frame whose eyes did not change: no face looked for, none reported.
    const skipped = {
      ...frame(reencoded(t, 402), flip(h, 0)),
      faces: [],
      skipped: { of: 0, change: 1 },
    };
    const two = await decide(sid, [skipped]);
    expect(two.steps[0]).toMatchObject({
      skipped: skipped.skipped,
      duplicate: true,
      counted: false,
    });
    expect(two.steps[0]).not.toHaveProperty('gates');
    expect(two.steps[0]).not.toHaveProperty('faces');
  });

  it("holds a face the decider says is framed down to TOO_FAR_HOLD of the least size (issue 41: no 'too far' flicker at the limit)", async () => {
    const h = 0x0a0b_0c0d_0e0f_1011n;
    // An 85 px box: under the 90 px limit, over 90% of it (81 px).
    const small = (i: number): FrameAnalysis => {
      const f = frame(thumb(360 + i), flip(h, i * 5));
      return { ...f, faces: [{ ...f.faces[0]!, box: [157, 182, 85, 85] }] };
    };
    const gatesFor = async (framed: boolean) => {
      const sid = await kycSession();
      const answer = await db.transaction((tx) =>
        decideFrames(tx, {
          sessionId: sid,
          images: [new Uint8Array(1)],
          frames: [small(framed ? 1 : 0)],
          anchor: { bytes: null, afterSeq: 0 },
          decider: { ...decider, framed: () => framed },
          keepPhoto: false,
          config,
          now: () => Date.now(),
        }),
      );
      return answer.steps[0]!.gates;
    };
    expect(await gatesFor(false)).toEqual(['too_far']);
    expect(await gatesFor(true)).toEqual([]);
  });

  it('costs the same statements for one frame as for eight', async () => {
    const h = 0x0bad_cafe_dead_beefn;
    const one: string[] = [];
    await decide(await kycSession(), [frame(thumb(330), h)], one);
    const eight: string[] = [];
    await decide(
      await kycSession(),
      Array.from({ length: 8 }, (_, i) => frame(thumb(340 + i), flip(h, i * 7))),
      eight,
    );
    // The row lock, [the band locks,] the planner settings, the replay search, the session's
    // duplicate search, the frames stored, the progress saved.
    expect(one).toHaveLength(db.kind === 'postgres' ? 7 : 6);
    expect(eight).toHaveLength(one.length);
  });
});
