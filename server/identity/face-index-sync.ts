import type { Db } from '../db/client';
import type { FaceIndexConfig } from './config-face-index';
import {
  buildFile,
  discardFile,
  FACE_DIM,
  latestFile,
  openFile,
  searchFile,
  tryLock,
  type FaceIndexFile,
} from './face-index';
import { discardFlats } from './face-flat';
import { ms, type IdentityLog } from './log';
import * as store from './store';

/**
 * The live face index (issue 44): the newest HNSW file of the database (face-index.ts), mapped,
 * plus what changed since it was built, kept in memory: the current vector of each patient whose
 * enrolment changed (searched exactly) and the set of those patients, whose entries in the file
 * are ignored (a re-enrolled patient's old face, a deleted one). Every process polls the database
 * (`enrollmentChangesSince`, one small statement, every `pollMs`; PGlite and PostgreSQL alike), so
 * an enrolment or a deletion is seen within that time; the caller re-scores candidates against
 * the database, so a deleted enrolment is never answered even between polls. A missing, unreadable
 * or stale file (another database's, one from before a TRUNCATE, one too far behind) is rebuilt
 * from the database; when the changes in memory pass `rebuildAfter` one process rebuilds and the
 * others move to its file at their next poll.
 */
export type FaceIndexStats = {
  enrolled: number;
  /** A full load: the file opened or built again, the changes read from scratch. */
  full: boolean;
  /** Rows the poll read. */
  fetched: number;
  /** Whether a file is mapped (below `minRows` there is none: the changes alone are scanned). */
  file: boolean;
  ms: number;
};

export type FaceCandidate = { patientId: string; similarity: number };

export interface FaceIndex {
  /** Brings the index up to date with `db` (the first call opens or builds the file). */
  sync(db: Db): Promise<FaceIndexStats>;
  /** The best `k` candidates for a unit probe (approximate similarities: re-score them). */
  candidates(probe: Float32Array, k: number): FaceCandidate[];
  /** Called after every sync (the background poll's too); returns the unsubscribe. */
  onSync(listener: (stats: FaceIndexStats) => void): () => void;
  /** Enrolled faces as of the last sync. */
  readonly size: number;
  /** Stops the background poll (a later sync starts it again). */
  close(): void;
}

type State = {
  db: Db;
  databaseId: string;
  file: FaceIndexFile | null;
  /** Snapshot xmin of the last poll: the next reads changes from there. */
  since: string;
  /** Current unit vector of every patient enrolled or re-enrolled since the file. */
  delta: Map<string, Float32Array>;
  /** Patients changed or removed since the file: their entries in the file do not count. */
  masked: Set<string>;
  /** How many of `masked` the file holds. */
  maskedInFile: number;
  /** When a deletion of a patient the file holds was first seen: its vector must leave the file. */
  removedSince: number | null;
  enrolled: number;
  lastSync: number;
  /** When the folder was last looked at for a newer file. */
  lastLook: number;
};

const LOCK_STALE_MS = 30 * 60_000;
const LOOK_EVERY_MS = 2_000;
const PAGE = 2_000;

export function createFaceIndex(deps: { config: FaceIndexConfig; log: IdentityLog }): FaceIndex {
  const { config: cfg, log } = deps;
  let state: State | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let rebuilding: Promise<void> | null = null;
  /** The withdrawal (removedSince) whose flat files this process last discarded. */
  let flatsForgotten: number | null = null;
  let stopped = false;
  const listeners = new Set<(s: FaceIndexStats) => void>();

  /** Syncs run one after the other (an older snapshot applied after a newer one would undo it). */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => {});
    return next;
  };

  function apply(s: State, changed: Map<string, Float32Array | null>): void {
    for (const [id, v] of changed) {
      const inFile = Boolean(s.file && s.file.index.contains(BigInt(id)));
      if (!s.masked.has(id)) {
        s.masked.add(id);
        if (inFile) s.maskedInFile++;
      }
      if (!v && inFile) s.removedSince ??= Date.now();
      if (v) s.delta.set(id, v);
      else s.delta.delete(id);
    }
  }

  const countOf = (s: State) => (s.file?.size ?? 0) - s.maskedInFile + s.delta.size;

  /** Builds this database's file (or waits for the process that is building it). */
  async function build(db: Db, databaseId: string): Promise<void> {
    const release = tryLock(cfg.dir, databaseId, LOCK_STALE_MS);
    if (!release) {
      // Another process builds it: its file appears, or its lock goes away.
      const t0 = Date.now();
      while (Date.now() - t0 < LOCK_STALE_MS) {
        await new Promise((r) => setTimeout(r, 200));
        if (!tryLockProbe(databaseId)) return;
      }
      return;
    }
    try {
      const t0 = performance.now();
      // Changes from this snapshot on are read by the next poll, so a row written while the pages
      // are read is applied again over the file: harmless.
      const since = await store.snapshotXmin(db);
      let after: string | null = null;
      const built = await buildFile(cfg.dir, databaseId, since, cfg, async () => {
        const page = await store.readEnrollmentPage(db, after, PAGE);
        if (!page.ids.length) return null;
        after = page.ids[page.ids.length - 1]!;
        return page;
      });
      log.info({ event: 'face_index_built', size: built.size, ms: ms(t0) });
    } finally {
      release();
    }
  }

  /** True while another process holds the build lock. */
  function tryLockProbe(databaseId: string): boolean {
    const release = tryLock(cfg.dir, databaseId, LOCK_STALE_MS);
    if (release) {
      release();
      return false;
    }
    return true;
  }

  /** Opens the newest usable file (building one if needed) and reads what changed since it. */
  async function load(db: Db): Promise<State> {
    const databaseId = await store.faceIndexDatabaseId(db);
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = latestFile(cfg.dir, databaseId, cfg);
      let file: FaceIndexFile | null = null;
      if (found) {
        try {
          file = openFile(found, cfg);
        } catch (err) {
          log.warn({ event: 'face_index_unreadable', file: found.path, error: String(err) });
          discardFile(found.path);
        }
      }
      const since = file?.since ?? '0';
      // A file from a later snapshot than the database's now (a database restored from a backup)
      // would miss every change: stale.
      const now = await store.snapshotXmin(db);
      if (file && BigInt(file.since) > BigInt(now)) {
        log.warn({ event: 'face_index_stale', file: file.path, reason: 'ahead_of_database' });
        discardFile(file.path);
        file = null;
        continue;
      }
      const ch = await store.enrollmentChangesSince(db, since);
      if (ch.databaseId !== databaseId) return load(db);
      const s: State = {
        db,
        databaseId,
        file,
        since: ch.xmin,
        delta: new Map(),
        masked: new Set(),
        maskedInFile: 0,
        removedSince: null,
        enrolled: 0,
        lastSync: Date.now(),
        lastLook: Date.now(),
      };
      apply(s, ch.changed);
      s.enrolled = countOf(s);
      const tooFar = file ? s.masked.size > cfg.rebuildAfter : ch.total >= cfg.minRows;
      const wrong = countOf(s) !== ch.total;
      if ((tooFar || wrong) && ch.total >= Math.max(cfg.minRows, 1)) {
        if (wrong && file)
          log.warn({ event: 'face_index_stale', file: file.path, reason: 'count' });
        await build(db, databaseId);
        continue;
      }
      if (wrong) {
        // No file, or too small for one: the changes since 0 are every enrolment, read again.
        const all = await store.enrollmentChangesSince(db, '0');
        s.file = null;
        s.delta.clear();
        s.masked.clear();
        s.maskedInFile = 0;
        s.removedSince = null;
        apply(s, all.changed);
        s.since = all.xmin;
        s.enrolled = countOf(s);
      }
      return s;
    }
    throw new Error('face index: could not open or build a file');
  }

  async function syncNow(db: Db): Promise<FaceIndexStats> {
    const t0 = performance.now();
    let full = false;
    let fetched = 0;
    if (!state || state.db !== db) {
      state = await load(db);
      full = true;
      fetched = state.delta.size;
    } else {
      const s = state;
      const ch = await store.enrollmentChangesSince(db, s.since);
      fetched = ch.changed.size;
      if (ch.databaseId !== s.databaseId) {
        state = await load(db);
        full = true;
      } else {
        apply(s, ch.changed);
        s.since = ch.xmin;
        s.enrolled = countOf(s);
        if (s.enrolled !== ch.total) {
          log.warn({
            event: 'face_index_stale',
            reason: 'count',
            enrolled: s.enrolled,
            total: ch.total,
          });
          state = await load(db);
          full = true;
        } else if (Date.now() - s.lastLook > LOOK_EVERY_MS) {
          s.lastLook = Date.now();
          const newer = latestFile(cfg.dir, s.databaseId, cfg);
          if (newer && (!s.file || BigInt(newer.since) > BigInt(s.file.since))) {
            state = await load(db);
            full = true;
          }
        }
        // A withdrawn face's vector leaves the file within cfg.forgetMs (issue 45 item 4).
        const forget = s.removedSince !== null && Date.now() - s.removedSince >= cfg.forgetMs;
        // The duplicate search's flat file holds the same vectors: gone too (once a withdrawal:
        // a rebuild here may take minutes at scale), made again without them by its next search.
        if (forget && flatsForgotten !== s.removedSince) {
          discardFlats(cfg.dir, s.databaseId);
          flatsForgotten = s.removedSince;
        }
        const tooFar = s.masked.size > cfg.rebuildAfter && ch.total >= cfg.minRows;
        if (!full && forget && ch.total === 0 && s.file) {
          // Nobody enrolled any more: no file at all.
          discardFile(s.file.path);
          state = await load(db);
          full = true;
        } else if (!full && !rebuilding && (forget || tooFar)) {
          rebuilding = build(db, s.databaseId)
            .catch((err) => log.warn({ event: 'face_index_build_failed', error: String(err) }))
            .finally(() => {
              rebuilding = null;
              s.lastLook = 0; // the next poll moves to the new file
            });
        }
      }
    }
    state.lastSync = Date.now();
    const stats: FaceIndexStats = {
      enrolled: state.enrolled,
      full,
      fetched,
      file: Boolean(state.file),
      ms: ms(t0),
    };
    for (const l of listeners) l(stats);
    schedule(db);
    return stats;
  }

  function schedule(db: Db): void {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      serial(() => syncNow(db)).catch((err) => {
        // The database closed or failed: polling stops until the next sync.
        if (timer) clearTimeout(timer);
        timer = null;
        log.warn({ event: 'face_index_poll_failed', error: String(err) });
      });
    }, cfg.pollMs);
    timer.unref();
  }

  return {
    sync(db) {
      stopped = false;
      return serial(() => syncNow(db));
    },
    candidates(probe, k) {
      const s = state;
      if (!s) return [];
      const out: FaceCandidate[] = [];
      if (s.file) {
        const extra = Math.min(s.maskedInFile, 1_000);
        for (const c of searchFile(s.file, probe, k + extra))
          if (!s.masked.has(c.patientId)) out.push(c);
      }
      for (const [id, v] of s.delta) {
        let dot = 0;
        for (let j = 0; j < FACE_DIM; j++) dot += v[j]! * probe[j]!;
        out.push({ patientId: id, similarity: dot });
      }
      return out.sort((a, b) => b.similarity - a.similarity).slice(0, k);
    },
    onSync(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return state?.enrolled ?? 0;
    },
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      // A poll already queued would schedule again: forget the database.
      state = null;
    },
  };
}
