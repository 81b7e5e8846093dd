import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { FACE_DIM as D } from '../server/identity/face-index';

/*
 * A folder kept by bench/gallery-scale-kept.ts (its HNSW file, faces.f32: 4 KiB a row, gallery.json),
 * read by the benches that measure on it (gallery-scale-kept.ts, face-index-reach.ts,
 * face-index-exact-fallback.ts).
 */
const ROW = D * 4;

/** How many people the folder's gallery holds. */
export function peopleOf(dir: string): number {
  return JSON.parse(readFileSync(path.join(dir, 'gallery.json'), 'utf8')).people as number;
}

/**
 * DIR/faces.f32 read row by row: `row(r)` (into `out`), and `best(ids, probe)`, the best of those
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
