import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { checkSeal, discardFile, FACE_DIM, sealOf } from './face-index';
import { FLAT_HEADER, FLAT_MAGIC, type FlatFile } from './face-flat-scan';

export { hasId, scanFlat, type FlatFile, type FlatHit } from './face-flat-scan';

/**
 * The flat face file (issue 44: the duplicate search at registration, exact over every enrolled
 * face at national scale). Every enrolled unit vector quantised to int8 (each row scaled so its
 * largest component is 127: the cosine of two rows is the cosine of their floats within the
 * rounding, measured in docs/measurements.md), in patient id order, with the ids after them:
 *   header (64 bytes: 'FACEFLT1', dim u32, rows u32) | rows x 1024 int8 | rows x int64 ids
 * 1 KiB a face (about 1 GB at 1M). It lives beside the HNSW file (IDENTITY_FACE_INDEX_DIR), is
 * never changed in place (written under a temporary name, sealed as face-index.ts seals its files,
 * renamed), and is READ in chunks by a worker thread (face-flat-worker.ts), never held in a heap:
 * the pages are the page cache's, shared by every process. face-flat-search.ts keeps what changed
 * since it was built beside it, as face-index-sync.ts does for the HNSW file. The format and the
 * scan are face-flat-scan.ts's.
 */
const FILE = /^([0-9a-f-]{36})\.flat-i8\.(\d+)\.faces$/;

/** A unit (or any) float vector as int8, scaled so its largest component is +-127. */
export function quantise(v: ArrayLike<number>, out = new Int8Array(v.length)): Int8Array {
  let max = 0;
  for (let j = 0; j < v.length; j++) max = Math.max(max, Math.abs(v[j]!));
  const s = max > 0 ? 127 / max : 0;
  for (let j = 0; j < v.length; j++) out[j] = Math.round(v[j]! * s);
  return out;
}

const flatName = (databaseId: string, since: string) => `${databaseId}.flat-i8.${since}.faces`;

/** The newest flat file of this database, if any. */
export function latestFlat(
  dir: string,
  databaseId: string,
): { path: string; since: string } | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  let best: { path: string; since: string } | null = null;
  for (const name of names) {
    const m = FILE.exec(name);
    if (!m || m[1] !== databaseId) continue;
    if (!best || BigInt(m[2]!) > BigInt(best.since))
      best = { path: path.join(dir, name), since: m[2]! };
  }
  return best;
}

/**
 * Deletes every flat file of this database (issue 45 item 4): a withdrawn face's or a deleted
 * account's row is masked at once, but its bytes stay in the file until it is made again; the
 * face index's poll (face-index-sync.ts) calls this when it forgets such a face, and the next
 * search builds the file from the database without it. A worker reading a deleted file keeps its
 * open descriptor (Linux); the next search sees the file gone and loads again.
 */
export function discardFlats(dir: string, databaseId: string): void {
  for (let f = latestFlat(dir, databaseId); f; f = latestFlat(dir, databaseId)) discardFile(f.path);
}

/** Checks a file's seal and header (throws when either is wrong): its row count. */
export function openFlat(file: { path: string; since: string }): FlatFile {
  checkSeal(file.path);
  const fd = openSync(file.path, 'r');
  try {
    const head = Buffer.alloc(FLAT_HEADER);
    readSync(fd, head, 0, FLAT_HEADER, 0);
    const rows = head.readUInt32LE(12);
    if (head.toString('latin1', 0, 8) !== FLAT_MAGIC || head.readUInt32LE(8) !== FACE_DIM)
      throw new Error(`${file.path}: not a flat face file`);
    if (fstatSync(fd).size !== FLAT_HEADER + rows * (FACE_DIM + 8))
      throw new Error(`${file.path}: wrong length`);
    return { ...file, rows };
  } finally {
    closeSync(fd);
  }
}

/** The file's patient ids (sorted: the file is written in patient id order). */
export function readFlatIds(file: FlatFile): BigInt64Array {
  const ids = new BigInt64Array(file.rows);
  const fd = openSync(file.path, 'r');
  try {
    readSync(fd, new Uint8Array(ids.buffer), 0, ids.byteLength, FLAT_HEADER + file.rows * FACE_DIM);
  } finally {
    closeSync(fd);
  }
  return ids;
}

/**
 * Writes a flat file from pages of unit vectors in patient id order (`next` returns the next page,
 * or null), the event loop free between pages; renames it into place sealed and removes this
 * database's older flat files (a worker reading one keeps its descriptor until the search ends).
 */
export async function buildFlat(
  dir: string,
  databaseId: string,
  since: string,
  next: () => Promise<{ ids: string[]; unit: Float32Array } | null>,
): Promise<FlatFile> {
  mkdirSync(dir, { recursive: true });
  const name = flatName(databaseId, since);
  const tmp = path.join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, 'w');
  const ids: bigint[] = [];
  try {
    writeSync(fd, Buffer.alloc(FLAT_HEADER), 0, FLAT_HEADER, 0);
    let at = FLAT_HEADER;
    for (let page = await next(); page; page = await next()) {
      const q = new Int8Array(page.ids.length * FACE_DIM);
      for (let i = 0; i < page.ids.length; i++) {
        quantise(
          page.unit.subarray(i * FACE_DIM, (i + 1) * FACE_DIM),
          q.subarray(i * FACE_DIM, (i + 1) * FACE_DIM),
        );
        ids.push(BigInt(page.ids[i]!));
      }
      writeSync(fd, q, 0, q.length, at);
      at += q.length;
    }
    const idBytes = new Uint8Array(BigInt64Array.from(ids).buffer);
    writeSync(fd, idBytes, 0, idBytes.length, at);
    const head = Buffer.alloc(FLAT_HEADER);
    head.write(FLAT_MAGIC, 0, 'latin1');
    head.writeUInt32LE(FACE_DIM, 8);
    head.writeUInt32LE(ids.length, 12);
    writeSync(fd, head, 0, FLAT_HEADER, 0);
  } finally {
    closeSync(fd);
  }
  const final = path.join(dir, name);
  writeFileSync(`${tmp}.seal`, sealOf(tmp));
  renameSync(`${tmp}.seal`, `${final}.seal`);
  renameSync(tmp, final);
  for (const old of readdirSync(dir)) {
    const m = FILE.exec(old);
    if (m && m[1] === databaseId && old !== name) discardFile(path.join(dir, old));
  }
  return { path: final, since, rows: ids.length };
}
