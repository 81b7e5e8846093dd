import type { Db } from '../../db/client';

/** `face_enrollments`: enrolled patients' face descriptions, and the in-memory 1:N gallery. */

export const EMBEDDING_MODEL = 'human-faceres-1024';

/** Enrolls (or replaces) a patient's face: the embedding only; a photo only if configuration asks. */
export async function enrollFace(
  db: Db,
  patientId: number | string | bigint,
  embedding: ArrayLike<number>,
  photo?: Uint8Array,
): Promise<void> {
  if (embedding.length !== 1024)
    throw new Error(`expected a 1024-d embedding, got ${embedding.length}`);
  await db.query(
    `INSERT INTO face_enrollments (patient_id, embedding, model, photo) VALUES ($1, $2, $3, $4)
     ON CONFLICT (patient_id) DO UPDATE SET embedding = EXCLUDED.embedding, model = EXCLUDED.model,
       photo = EXCLUDED.photo, updated_at = now()`,
    [String(patientId), Array.from(embedding), EMBEDDING_MODEL, photo ?? null],
  );
}

/** The enrolled faces as one matrix of unit vectors, for a fast 1:N scan. */
export type Gallery = {
  ids: string[];
  dim: number;
  /** Row i is ids[i]'s unit vector; the array may be longer than ids.length * dim (room to grow). */
  unit: Float32Array;
  /** The row of each patient id. */
  rows: Map<string, number>;
  /** The database it was read from: another one is read in full. */
  db: Db;
  /**
   * pg_snapshot_xmin of the last load's snapshot (xid8 as text): every write that load could not see
   * was made by this transaction or a later one, so the next load re-reads the rows whose
   * change_xid (migration 016) is at least this one.
   */
  since: string;
  /** What the last load did: a full read or only the changed rows, and how many rows it fetched. */
  last: { full: boolean; fetched: number };
};

const DIM = 1024;

type GalleryRow = {
  xmin: string;
  total: number;
  patient_id: string | null;
  model: string | null;
  embedding: string | null;
};

/**
 * Loads the gallery, or brings `cached` (updated in place) up to date with the rows written since it
 * was loaded: a re-enrolled patient's row is replaced, a new one appended. A removed enrolment is
 * seen as a count that no longer matches (read in the same snapshot) and costs a full reload.
 * Embeddings travel as base64 of array_send (binary float4s): about a third of the CPU of parsing
 * real[] text. Calls on the same gallery must not overlap (identification.ts chains them): an older
 * snapshot merged after a newer one would bring back an old embedding.
 */
export async function loadGallery(db: Db, cached: Gallery | null): Promise<Gallery> {
  const full = !cached || cached.db !== db;
  // One statement, one snapshot: the count, the snapshot's xmin and the rows agree.
  const { rows } = await db.query<GalleryRow>(
    `SELECT s.xmin, s.total, e.patient_id::text AS patient_id, e.model,
            encode(array_send(e.embedding), 'base64') AS embedding
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
                    (SELECT count(*) FROM face_enrollments WHERE model = $1)::int AS total) s
       LEFT JOIN face_enrollments e ON e.change_xid >= $2::xid8 ${full ? 'AND e.model = $1' : ''}`,
    [EMBEDDING_MODEL, full ? '0' : cached.since],
  );
  const head = rows[0]!;
  const g: Gallery = full
    ? {
        ids: [],
        dim: DIM,
        unit: new Float32Array(head.total * DIM),
        rows: new Map(),
        db,
        since: '0',
        last: { full, fetched: 0 },
      }
    : cached;
  let fetched = 0;
  for (const r of rows) {
    if (r.patient_id === null) continue;
    fetched++;
    if (r.model !== EMBEDDING_MODEL || r.embedding === null) removeRow(g, r.patient_id);
    else putRow(g, r.patient_id, Buffer.from(r.embedding, 'base64'));
  }
  g.since = head.xmin;
  g.last = { full, fetched };
  // Fewer rows than merged: some were deleted since (a patient removed).
  if (!full && g.ids.length !== head.total) return loadGallery(db, null);
  return g;
}

/** Writes a patient's unit vector from array_send's bytes (header, then length + float4 BE each). */
function putRow(g: Gallery, patientId: string, bytes: Buffer): void {
  let i = g.rows.get(patientId);
  if (i === undefined) {
    i = g.ids.length;
    if ((i + 1) * g.dim > g.unit.length) {
      const grown = new Float32Array(Math.max((i + 1) * g.dim, g.unit.length * 2));
      grown.set(g.unit.subarray(0, i * g.dim));
      g.unit = grown;
    }
    g.ids.push(patientId);
    g.rows.set(patientId, i);
  }
  const ndim = bytes.readInt32BE(0);
  const n = ndim === 1 ? bytes.readInt32BE(12) : 0;
  const off = i * g.dim;
  let p = 12 + ndim * 8;
  let sq = 0;
  for (let j = 0; j < g.dim; j++) {
    let x = 0;
    if (j < n) {
      const len = bytes.readInt32BE(p);
      if (len === 4) x = bytes.readFloatBE(p + 4);
      p += 4 + Math.max(len, 0);
    }
    g.unit[off + j] = x;
    sq += x * x;
  }
  const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let j = 0; j < g.dim; j++) g.unit[off + j]! *= inv;
}

/** Removes a patient's row (the last row moves into its place). */
function removeRow(g: Gallery, patientId: string): void {
  const i = g.rows.get(patientId);
  if (i === undefined) return;
  const last = g.ids.length - 1;
  if (i !== last) {
    g.unit.copyWithin(i * g.dim, last * g.dim, (last + 1) * g.dim);
    g.ids[i] = g.ids[last]!;
    g.rows.set(g.ids[i]!, i);
  }
  g.ids.pop();
  g.rows.delete(patientId);
}

/** Best cosine similarity of a probe against the gallery. */
export function searchGallery(
  g: Gallery,
  probe: ArrayLike<number>,
): { patientId: string; similarity: number } | null {
  let n = 0;
  for (let j = 0; j < g.dim; j++) n += probe[j]! * probe[j]!;
  if (!g.ids.length || n === 0) return null;
  const inv = 1 / Math.sqrt(n);
  let best = -Infinity;
  let bestI = -1;
  for (let i = 0; i < g.ids.length; i++) {
    let dot = 0;
    const off = i * g.dim;
    for (let j = 0; j < g.dim; j++) dot += g.unit[off + j]! * probe[j]!;
    if (dot > best) {
      best = dot;
      bestI = i;
    }
  }
  return { patientId: g.ids[bestI]!, similarity: best * inv };
}
