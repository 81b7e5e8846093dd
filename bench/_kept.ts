import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { FACE_DIM as D } from '../server/identity/face-index';

/*
 * A folder kept by bench/gallery-scale-kept.ts (its HNSW file, faces.f32: 4 KiB a row, gallery.json),
 * read by the benches that measure on it (gallery-scale-kept.ts, face-index-reach.ts,
 * face-index-exact-fallback.ts).
 */
/** Bytes of one row of faces.f32 (float32). */
export const FACE_ROW_BYTES = D * 4;
const ROW = FACE_ROW_BYTES;
/** The database identity the kept folder's files are made for (face_index_identity). */
export const KEPT_DATABASE = '00000000-0000-0000-0000-000000000044';
/** Rows read from faces.f32 at a time when a file is built from it. */
export const KEPT_PAGE = 2_000;

/** How many people the folder's gallery holds. */
export function peopleOf(dir: string): number {
  return JSON.parse(readFileSync(path.join(dir, 'gallery.json'), 'utf8')).people as number;
}

/**
 * DIR/faces.f32 read row by row: `row(r)` (into `out`), `rows(at, count)` (rows at..at+count-1 in
 * one array), and `best(ids, probe)`, the best of those
 * patients (row = id - 1) by exact cosine, as the server re-scores candidates from the database.
 */
export function faceRows(dir: string) {
  const fd = openSync(path.join(dir, 'faces.f32'), 'r');
  const row = (r: number, out = new Float32Array(D)) => {
    readSync(fd, new Uint8Array(out.buffer, out.byteOffset, out.byteLength), 0, ROW, r * ROW);
    return out;
  };
  const scratch = new Float32Array(D);
  return {
    row,
    rows(at: number, count: number) {
      const unit = new Float32Array(count * D);
      readSync(fd, new Uint8Array(unit.buffer), 0, count * ROW, at * ROW);
      return unit;
    },
    best(ids: Iterable<string>, probe: Float32Array) {
      let best = { row: -1, similarity: -Infinity };
      for (const id of ids) {
        const r = Number(id) - 1;
        const v = row(r, scratch);
        let dot = 0;
        for (let j = 0; j < D; j++) dot += v[j]! * probe[j]!;
        if (dot > best.similarity) best = { row: r, similarity: dot };
      }
      return best;
    },
    close: () => closeSync(fd),
  };
}
