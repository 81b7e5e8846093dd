import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { Db } from '../db/client';
import type { DuplicateSearchConfig } from './config-duplicates';
import {
  buildFlat,
  hasId,
  latestFlat,
  openFlat,
  quantise,
  readFlatIds,
  type FlatFile,
} from './face-flat';
import type { FlatAnswer, FlatRequest } from './face-flat-worker';
import { discardFile, FACE_DIM, tryLock } from './face-index';
import { ms, type IdentityLog } from './log';
import * as store from './store';
import { spawnTsWorker } from './worker/spawn';

/**
 * The exact duplicate search's live state (issue 44): the newest flat file of the database
 * (face-flat.ts), scanned by a worker thread, plus what changed since it was built, kept here as
 * face-index-sync.ts keeps it for the HNSW file: the exact float vector of each patient enrolled or
 * re-enrolled since (scanned exactly on this thread: at most `rebuildAfter` rows), and the sorted
 * ids of every patient changed or removed since, whose rows in the file are skipped. Each search
 * first reads what changed since the last one (one small statement), so it sees every enrolment
 * committed before it started; a missing, unreadable or stale file is rebuilt from the database (one
 * process at a time, a lock file beside it). The answers are candidates: the caller re-scores
 * them against the database (duplicates-face.ts), so the int8 rounding never decides alone.
 */
export type FlatCandidate = { patientId: string; similarity: number };
export type FlatSearchResult = {
  candidates: FlatCandidate[];
  /** Rows in the file, and changes held in memory. */
  fileRows: number;
  delta: number;
  /** The thread that scanned the file (0: the main thread, which never does), and how long. */
  thread: number | null;
  scanMs: number;
  rebuilt: boolean;
};

export interface FlatSearch {
  /** The file's best `candidates` rows and every change since it, for a unit probe. */
  search(db: Db, probe: Float32Array): Promise<FlatSearchResult>;
  /** Stops the worker (a later search starts another). */
  close(): Promise<void>;
}

type State = {
  db: Db;
  databaseId: string;
  file: FlatFile | null;
  /** The file's ids (sorted; 8 bytes a face): whether a changed patient is in the file. */
  fileIds: BigInt64Array;
  since: string;
  delta: Map<string, Float32Array>;
  masked: Set<string>;
  maskedInFile: number;
};

const PAGE = 2_000;
const LOCK_STALE_MS = 30 * 60_000;

export function createFlatSearch(deps: {
  config: DuplicateSearchConfig;
  log: IdentityLog;
}): FlatSearch {
  const { config: cfg, log } = deps;
  let state: State | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let rebuilt = false;
  const scanner = flatScanner(cfg);

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => {});
    return next;
  };

  function apply(s: State, changed: Map<string, Float32Array | null>): void {
    for (const [id, v] of changed) {
      if (!s.masked.has(id)) {
        s.masked.add(id);
        if (hasId(s.fileIds, BigInt(id))) s.maskedInFile++;
      }
      if (v) s.delta.set(id, v);
      else s.delta.delete(id);
    }
  }
  const countOf = (s: State) => (s.file?.rows ?? 0) - s.maskedInFile + s.delta.size;

  async function build(db: Db, databaseId: string): Promise<void> {
    const key = `${databaseId}.flat`;
    const release = tryLock(cfg.dir, key, LOCK_STALE_MS);
    if (!release) {
      // Another process builds it: wait for its lock to go, then read its file.
      const t0 = Date.now();
      while (Date.now() - t0 < cfg.buildWaitMs) {
        await new Promise((r) => setTimeout(r, 200));
        const probe = tryLock(cfg.dir, key, LOCK_STALE_MS);
        if (probe) return probe();
      }
      throw new Error('flat face file: another process is still building it');
    }
    try {
      const t0 = performance.now();
      const since = await store.snapshotXmin(db);
      let after: string | null = null;
      const built = await buildFlat(cfg.dir, databaseId, since, async () => {
        const page = await store.readEnrollmentPage(db, after, PAGE);
        if (!page.ids.length) return null;
        after = page.ids[page.ids.length - 1]!;
        return page;
      });
      rebuilt = true;
      log.info({ event: 'face_flat_built', rows: built.rows, ms: ms(t0) });
    } finally {
      release();
    }
  }

  async function load(db: Db): Promise<State> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const databaseId = await store.faceIndexDatabaseId(db);
      const found = latestFlat(cfg.dir, databaseId);
      let file: FlatFile | null = null;
      if (found) {
        try {
          file = openFlat(found);
        } catch (err) {
          log.warn({ event: 'face_flat_unreadable', file: found.path, error: String(err) });
          discardFile(found.path);
        }
      }
      if (file && BigInt(file.since) > BigInt(await store.snapshotXmin(db))) {
        log.warn({ event: 'face_flat_stale', file: file.path, reason: 'ahead_of_database' });
        discardFile(file.path);
        continue;
      }
      const ch = await store.enrollmentChangesSince(db, file?.since ?? '0');
      if (ch.databaseId !== databaseId) continue;
      const s: State = {
        db,
        databaseId,
        file,
        fileIds: file ? readFlatIds(file) : new BigInt64Array(0),
        since: ch.xmin,
        delta: new Map(),
        masked: new Set(),
        maskedInFile: 0,
      };
      apply(s, ch.changed);
      const wrong = countOf(s) !== ch.total;
      const tooFar = file ? s.masked.size > cfg.rebuildAfter : ch.total >= cfg.minRows;
      if ((tooFar || wrong) && ch.total >= Math.max(cfg.minRows, 1)) {
        if (wrong && file) log.warn({ event: 'face_flat_stale', file: file.path, reason: 'count' });
        await build(db, databaseId);
        continue;
      }
      if (wrong) {
        // Too few for a file: every enrolment is a change since 0, held here.
        const all = await store.enrollmentChangesSince(db, '0');
        Object.assign(s, { file: null, fileIds: new BigInt64Array(0), since: all.xmin });
        s.delta.clear();
        s.masked.clear();
        s.maskedInFile = 0;
        apply(s, all.changed);
      }
      return s;
    }
    throw new Error('flat face file: could not open or build one');
  }

  async function sync(db: Db): Promise<State> {
    if (!state || state.db !== db) return (state = await load(db));
    const s = state;
    const ch = await store.enrollmentChangesSince(db, s.since);
    if (ch.databaseId !== s.databaseId) return (state = await load(db));
    apply(s, ch.changed);
    s.since = ch.xmin;
    const newer = latestFlat(cfg.dir, s.databaseId);
    const moved = newer && (!s.file || BigInt(newer.since) > BigInt(s.file.since));
    // Discarded (a withdrawn face forgotten: face-flat.ts discardFlats): load, and build, again.
    if (s.file && !existsSync(s.file.path)) return (state = await load(db));
    if (countOf(s) !== ch.total || moved || s.masked.size > cfg.rebuildAfter) {
      if (countOf(s) !== ch.total)
        log.warn({ event: 'face_flat_stale', reason: 'count', total: ch.total });
      return (state = await load(db));
    }
    return s;
  }

  return {
    search(db, probe) {
      return serial(async () => {
        rebuilt = false;
        const s = await sync(db);
        const masked = BigInt64Array.from([...s.masked].map(BigInt)).sort();
        const scan = s.file
          ? await scanner.scan(s.file, quantise(probe), cfg.candidates, masked)
          : { hits: [], ms: 0, thread: null };
        const delta: FlatCandidate[] = [];
        for (const [id, v] of s.delta) {
          let dot = 0;
          for (let j = 0; j < FACE_DIM; j++) dot += v[j]! * probe[j]!;
          delta.push({ patientId: id, similarity: dot });
        }
        delta.sort((a, b) => b.similarity - a.similarity);
        return {
          candidates: [...scan.hits, ...delta.slice(0, cfg.candidates)],
          fileRows: s.file?.rows ?? 0,
          delta: s.delta.size,
          thread: scan.thread,
          scanMs: scan.ms,
          rebuilt,
        };
      });
    },
    async close() {
      state = null;
      await scanner.close();
    },
  };
}

/**
 * The worker that scans flat files (one per process, started at the first search, not keeping the
 * process alive): one request at a time, each with a deadline (`scanTimeoutMs`), past which the
 * worker is ended and the search fails; a worker that died is started again by the next search.
 */
export function flatScanner(cfg: Pick<DuplicateSearchConfig, 'chunkRows' | 'scanTimeoutMs'>) {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<
    number,
    { resolve: (a: FlatAnswer) => void; reject: (e: Error) => void }
  >();

  const fail = (w: Worker, err: Error) => {
    if (worker === w) worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  function start(): Worker {
    const w = spawnTsWorker(new URL('./face-flat-worker.ts', import.meta.url), {
      chunkRows: cfg.chunkRows,
    });
    w.unref();
    w.on('message', (a: FlatAnswer) => {
      const p = pending.get(a.id);
      pending.delete(a.id);
      p?.resolve(a);
    });
    w.on('error', (err) => fail(w, err));
    w.on('exit', (code) => fail(w, new Error(`flat face worker exited (${code})`)));
    return w;
  }

  return {
    async scan(file: FlatFile, probe: Int8Array, k: number, masked: BigInt64Array) {
      const w = (worker ??= start());
      const id = ++nextId;
      const answer = await new Promise<FlatAnswer>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`flat face scan: no answer in ${cfg.scanTimeoutMs} ms`));
          void w.terminate();
        }, cfg.scanTimeoutMs);
        pending.set(id, {
          resolve: (a) => (clearTimeout(timer), resolve(a)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        w.postMessage({ id, file, probe, k, masked } satisfies FlatRequest);
      });
      if ('error' in answer) throw new Error(answer.error);
      return { hits: answer.hits, ms: answer.ms, thread: answer.thread };
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
