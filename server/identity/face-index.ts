import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Usearch from 'usearch';
import type { Index, ScalarKind } from 'usearch';
import type { FaceIndexConfig } from './config-face-index';
import { spawnTsWorker } from './worker/spawn';

/*
 * usearch's CommonJS build, here and in the build worker alike: its ES module build finds its
 * binary from the caller's stack, and in a worker thread started from evaluated code (spawnTsWorker)
 * that import never settles (seen on Node.js 20: the worker hangs).
 */
const usearch = createRequire(import.meta.url)('usearch') as typeof Usearch;

/**
 * The face index's file (issue 44): an HNSW graph of enrolled unit vectors (usearch, Apache-2.0;
 * its linux-x64 binary ships in the npm package) saved under the configured folder and
 * memory-mapped (`view`) by every process, so they share one copy through the page cache. A file
 * is immutable: face-index-sync.ts keeps what changed since it was built beside it and rebuilds it.
 * Its name says which database (face_index_identity, migration 031), which settings and which
 * snapshot (the xmin from which later changes must be read) it was built from. usearch crashes the
 * process (SIGSEGV) when it maps a file that is not an index, so each file has a seal beside it
 * (`.seal`: its length and a SHA-256 of its first and last 64 KiB) checked before it is mapped; a
 * file is never changed in place (written under a temporary name, then renamed), since a process
 * mapping it would fault on a page that changed length.
 */
export const FACE_DIM = 1024;

export type HnswSettings = Pick<
  FaceIndexConfig,
  'quantization' | 'connectivity' | 'efAdd' | 'efSearch'
>;

export type FaceIndexFile = {
  path: string;
  /** The snapshot xmin it was built from: changes at or after it are not in the file. */
  since: string;
  size: number;
  index: Index;
};

const QUANT: Record<HnswSettings['quantization'], ScalarKind> = {
  f32: usearch.ScalarKind.F32,
  f16: usearch.ScalarKind.F16,
  i8: usearch.ScalarKind.I8,
};

/** An empty in-memory index with these settings (cosine distance: 1 - similarity). */
export function newIndex(s: HnswSettings): Index {
  return new usearch.Index({
    dimensions: FACE_DIM,
    metric: usearch.MetricKind.Cos,
    quantization: QUANT[s.quantization],
    connectivity: s.connectivity,
    expansion_add: s.efAdd,
    expansion_search: s.efSearch,
    multi: false,
  });
}

/** What a file's graph depends on (the search width is a run-time setting). */
const tagOf = (s: HnswSettings) => `${s.quantization}-m${s.connectivity}-ef${s.efAdd}`;

const FILE = /^([0-9a-f-]{36})\.([a-z0-9-]+)\.(\d+)\.usearch$/;

/** The newest file of this database built with these settings, if any. */
export function latestFile(
  dir: string,
  databaseId: string,
  s: HnswSettings,
): { path: string; since: string } | null {
  let best: { path: string; since: string } | null = null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    const m = FILE.exec(name);
    if (!m || m[1] !== databaseId || m[2] !== tagOf(s)) continue;
    if (!best || BigInt(m[3]!) > BigInt(best.since))
      best = { path: path.join(dir, name), since: m[3]! };
  }
  return best;
}

/** Length and SHA-256 of the first and last 64 KiB of a file. */
export function sealOf(p: string): string {
  const bytes = statSync(p).size;
  const fd = openSync(p, 'r');
  try {
    const h = createHash('sha256');
    const chunk = Buffer.alloc(Math.min(65_536, bytes));
    readSync(fd, chunk, 0, chunk.length, 0);
    h.update(chunk);
    readSync(fd, chunk, 0, chunk.length, bytes - chunk.length);
    h.update(chunk);
    return `${bytes}:${h.digest('hex')}`;
  } finally {
    closeSync(fd);
  }
}

/** Throws when a file's seal is missing or does not match it (the flat file's too). */
export function checkSeal(p: string): void {
  let seal: string;
  try {
    seal = readFileSync(`${p}.seal`, 'utf8').trim();
  } catch {
    throw new Error(`${p}: no seal`);
  }
  if (seal !== sealOf(p)) throw new Error(`${p}: does not match its seal`);
}

/** Memory-maps a saved file (throws when its seal is missing or does not match). */
export function openFile(file: { path: string; since: string }, s: HnswSettings): FaceIndexFile {
  checkSeal(file.path);
  const index = newIndex(s);
  index.view(file.path);
  if (index.dimensions() !== FACE_DIM) throw new Error(`${file.path}: not a 1024-d face index`);
  return { ...file, size: index.size(), index };
}

/** Keys of usearch are the patients' ids (bigint). */
export const keysOf = (ids: string[]) => BigUint64Array.from(ids, (id) => BigInt(id));

/** How a build feeds usearch: rows per `add` call, and its threads (0: one per core). */
export type BuildOptions = { batch?: number; threads?: number };

/** The server's batch: 64 rows an `add` call (docs/measurements.md: what a batch blocks). */
export const SERVER_BATCH = 64;

/**
 * Builds a file from pages of enrolments (`next` returns the next page, or null at the end) in a
 * worker thread (face-index-build-worker.ts): this thread only reads the pages and hands each one
 * over (a copy, transferred), while the worker adds the previous one in `batch`-row calls (an `add`
 * blocks the thread that makes it until the batch is in: here never the serving event loop); the
 * worker saves the file under a temporary name, seals it and renames it (atomic: a process never
 * maps half a file); then this database's older files are removed (processes that map them keep
 * their pages until they move on).
 */
export async function buildFile(
  dir: string,
  databaseId: string,
  since: string,
  s: HnswSettings,
  next: () => Promise<{ ids: string[]; unit: Float32Array } | null>,
  opts: BuildOptions = {},
): Promise<{ path: string; since: string; size: number }> {
  const batch = opts.batch ?? SERVER_BATCH;
  const threads = opts.threads ?? 0;
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`buildFile: batch ${batch}`);
  mkdirSync(dir, { recursive: true });
  const name = `${databaseId}.${tagOf(s)}.${since}.usearch`;
  const tmp = path.join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
  const final = path.join(dir, name);
  const worker = buildWorker({ settings: pick(s), batch, threads });
  let size: number;
  try {
    // One page in the worker while the next is read.
    let adding: Promise<BuildDone> | null = null;
    for (let page = await next(); page; page = await next()) {
      if (adding) await adding;
      const keys = keysOf(page.ids);
      const unit = page.unit.slice(0, page.ids.length * FACE_DIM);
      adding = worker.ask({ type: 'page', keys, unit }, [keys.buffer, unit.buffer]);
      // Its failure is thrown where it is awaited, not reported unhandled while a page is read.
      adding.catch(() => {});
    }
    if (adding) await adding;
    size = (await worker.ask({ type: 'save', tmp, final })).size;
  } catch (err) {
    discardFile(tmp);
    throw err;
  } finally {
    await worker.close();
  }
  for (const old of readdirSync(dir)) {
    const m = FILE.exec(old);
    if (
      m &&
      m[1] === databaseId &&
      old !== name &&
      (m[2] !== tagOf(s) || BigInt(m[3]!) < BigInt(since))
    )
      discardFile(path.join(dir, old));
  }
  return { path: final, since, size };
}

const pick = (s: HnswSettings): HnswSettings => ({
  quantization: s.quantization,
  connectivity: s.connectivity,
  efAdd: s.efAdd,
  efSearch: s.efSearch,
});

/** The build worker's messages (face-index-build-worker.ts): its data, what it is asked, its answers. */
export type BuildWorkerData = { settings: HnswSettings; batch: number; threads: number };
export type BuildRequest =
  | { type: 'page'; keys: BigUint64Array; unit: Float32Array }
  | { type: 'save'; tmp: string; final: string };
export type BuildAnswer =
  | { type: 'added'; size: number }
  | { type: 'saved'; size: number }
  | { type: 'error'; error: string };

/** What the build worker answers when a request went well (an error rejects). */
type BuildDone = Exclude<BuildAnswer, { type: 'error' }>;

/** A build worker: one request at a time, its answer or its error. */
function buildWorker(data: BuildWorkerData) {
  const w = spawnTsWorker(new URL('./face-index-build-worker.ts', import.meta.url), data);
  let pending: { resolve: (a: BuildDone) => void; reject: (e: Error) => void } | null = null;
  let failed: Error | null = null;
  const fail = (err: Error) => {
    failed ??= err;
    pending?.reject(err);
    pending = null;
  };
  w.on('message', (a: BuildAnswer) => {
    const p = pending;
    pending = null;
    if (a.type === 'error') p?.reject(new Error(`face index build: ${a.error}`));
    else p?.resolve(a);
  });
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`face index build worker exited (${code})`)));
  return {
    ask(req: BuildRequest, transfer: ArrayBuffer[] = []): Promise<BuildDone> {
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        w.postMessage(req, transfer);
      });
    },
    async close() {
      failed ??= new Error('face index build worker closed');
      await w.terminate();
    },
  };
}

function unlinkQuiet(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // already gone (another process cleaned up)
  }
}

/** Deletes a file (and its seal): unreadable, stale or replaced. */
export function discardFile(p: string): void {
  unlinkQuiet(p);
  unlinkQuiet(`${p}.seal`);
}

/**
 * One builder per database across processes: a lock file made exclusively; a lock older than
 * `staleMs` (a builder that died) is taken over. Returns a release, or null when another holds it.
 */
export function tryLock(dir: string, databaseId: string, staleMs: number): (() => void) | null {
  mkdirSync(dir, { recursive: true });
  const p = path.join(dir, `${databaseId}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(p, 'wx'));
      return () => unlinkQuiet(p);
    } catch {
      try {
        if (Date.now() - statSync(p).mtimeMs < staleMs) return null;
        unlinkQuiet(p);
      } catch {
        // released meanwhile: try again
      }
    }
  }
  return null;
}

/** The file's `k` nearest vectors to a unit probe, as similarities. */
export function searchFile(
  file: FaceIndexFile,
  probe: Float32Array,
  k: number,
): { patientId: string; similarity: number }[] {
  if (!file.size) return [];
  const m = file.index.search(probe, Math.min(k, file.size), 1);
  const out: { patientId: string; similarity: number }[] = [];
  for (let i = 0; i < m.keys.length; i++)
    out.push({ patientId: String(m.keys[i]), similarity: 1 - m.distances[i]! });
  return out;
}
