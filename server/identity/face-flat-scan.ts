import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The flat face file's format and its scan (face-flat.ts writes it): what the worker thread
 * (face-flat-worker.ts) loads, so nothing here imports the ES module build of usearch: that build
 * finds its binary from a stack trace, which in a worker thread started through tsx ends the thread
 * (exit code 1, no error; seen here). The CommonJS build loads the same binary.
 */
const { exactSearch, MetricKind } = createRequire(import.meta.url)(
  'usearch',
) as typeof import('usearch');

export const FLAT_MAGIC = 'FACEFLT1';
export const FLAT_HEADER = 64;
const FACE_DIM = 1024;

export type FlatFile = { path: string; since: string; rows: number };

export type FlatHit = { patientId: string; similarity: number };

/**
 * The `k` rows of a flat file most like a probe (cosine of the int8 rows, usearch's SIMD exact
 * search, one thread), leaving out `masked` (sorted patient ids), reading `chunkRows` rows at a
 * time into two reused buffers: the memory is the chunk's, whatever the file's size. Runs in the
 * worker (face-flat-worker.ts); exported for the tests and the bench.
 */
export function scanFlat(
  file: FlatFile,
  probe: Int8Array,
  k: number,
  masked: BigInt64Array,
  chunkRows: number,
  buffers: { vectors: Buffer; ids: Buffer } = {
    vectors: Buffer.alloc(chunkRows * FACE_DIM),
    ids: Buffer.alloc(chunkRows * 8),
  },
): FlatHit[] {
  const best: FlatHit[] = [];
  if (!file.rows) return best;
  const fd = openSync(file.path, 'r');
  try {
    for (let start = 0; start < file.rows; start += chunkRows) {
      const rows = Math.min(chunkRows, file.rows - start);
      readSync(fd, buffers.vectors, 0, rows * FACE_DIM, FLAT_HEADER + start * FACE_DIM);
      readSync(fd, buffers.ids, 0, rows * 8, FLAT_HEADER + file.rows * FACE_DIM + start * 8);
      const ids = new BigInt64Array(buffers.ids.buffer, buffers.ids.byteOffset, rows);
      const hidden = countBetween(masked, ids[0]!, ids[rows - 1]!);
      const data = new Int8Array(
        buffers.vectors.buffer,
        buffers.vectors.byteOffset,
        rows * FACE_DIM,
      );
      const m = exactSearch(data, probe, FACE_DIM, Math.min(rows, k + hidden), MetricKind.Cos, 1);
      for (let i = 0; i < m.keys.length; i++) {
        const id = ids[Number(m.keys[i])]!;
        if (hidden && countBetween(masked, id, id)) continue;
        const similarity = 1 - (m.distances[i] as number);
        if (best.length === k && similarity <= best[k - 1]!.similarity) continue;
        best.push({ patientId: String(id), similarity });
        best.sort((a, b) => b.similarity - a.similarity);
        if (best.length > k) best.pop();
      }
    }
  } finally {
    closeSync(fd);
  }
  return best;
}

/** How many of the sorted `ids` lie in [lo, hi]. */
function countBetween(ids: BigInt64Array, lo: bigint, hi: bigint): number {
  const first = (x: bigint, strict: boolean) => {
    let a = 0;
    let b = ids.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (ids[mid]! < x || (strict && ids[mid] === x)) a = mid + 1;
      else b = mid;
    }
    return a;
  };
  return first(hi, true) - first(lo, false);
}

/** Whether the sorted `ids` hold `id`. */
export const hasId = (ids: BigInt64Array, id: bigint) => countBetween(ids, id, id) > 0;
