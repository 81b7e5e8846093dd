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

/**
 * Removes a patient's enrolled face (face consent withdrawn; a deleted patient's goes by ON DELETE
 * CASCADE). Migration 031's trigger records it, so every process's face index drops it at its next
 * poll. True when there was one.
 */
export async function removeFace(db: Db, patientId: number | string | bigint): Promise<boolean> {
  const { rows } = await db.query(
    'DELETE FROM face_enrollments WHERE patient_id = $1 RETURNING 1',
    [String(patientId)],
  );
  return rows.length > 0;
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

/** Writes a patient's unit vector from array_send's bytes. */
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
  decodeUnit(bytes, g.unit.subarray(i * g.dim, (i + 1) * g.dim));
}

/**
 * Decodes array_send's bytes of a real[] (header, then length + float4 BE each) into `out` as a unit
 * vector (missing values are 0; an all-zero vector stays zero).
 */
export function decodeUnit(bytes: Buffer, out: Float32Array = new Float32Array(DIM)): Float32Array {
  const dim = out.length;
  const ndim = bytes.readInt32BE(0);
  const n = ndim === 1 ? bytes.readInt32BE(12) : 0;
  let p = 12 + ndim * 8;
  let sq = 0;
  for (let j = 0; j < dim; j++) {
    let x = 0;
    if (j < n) {
      const len = bytes.readInt32BE(p);
      if (len === 4) x = bytes.readFloatBE(p + 4);
      p += 4 + Math.max(len, 0);
    }
    out[j] = x;
    sq += x * x;
  }
  const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let j = 0; j < dim; j++) out[j]! *= inv;
  return out;
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

/*
 * The face index's reads (server/identity/face-index.ts): the database it was built from, every
 * enrolment in pages for a build, what changed since a load (migrations 016 and 031), and the
 * enrolled vectors of a few patients for the exact re-score of the index's candidates.
 */

/** The database's face-index identity (migration 031), made again if the table was emptied. */
export async function faceIndexDatabaseId(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH made AS (INSERT INTO face_index_identity DEFAULT VALUES ON CONFLICT (id) DO NOTHING
                   RETURNING database_id::text AS id)
     SELECT id FROM made UNION ALL SELECT database_id::text FROM face_index_identity`,
  );
  return rows[0]!.id;
}

/** pg_snapshot_xmin of a fresh snapshot: every write not yet visible has this xid or a later one. */
export async function snapshotXmin(db: Db): Promise<string> {
  const { rows } = await db.query<{ xmin: string }>(
    'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
  );
  return rows[0]!.xmin;
}

/** One page of the current model's enrolments after `afterId`, in patient id order, as unit vectors. */
export async function readEnrollmentPage(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<{ ids: string[]; unit: Float32Array }> {
  const { rows } = await db.query<{ patient_id: string; embedding: string }>(
    `SELECT e.patient_id::text AS patient_id, encode(array_send(e.embedding), 'base64') AS embedding
       FROM face_enrollments e WHERE e.model = $1 AND e.patient_id > $2::bigint
      ORDER BY e.patient_id LIMIT $3`,
    [EMBEDDING_MODEL, afterId ?? '-1', limit],
  );
  const unit = new Float32Array(rows.length * DIM);
  rows.forEach((r, i) =>
    decodeUnit(Buffer.from(r.embedding, 'base64'), unit.subarray(i * DIM, (i + 1) * DIM)),
  );
  return { ids: rows.map((r) => r.patient_id), unit };
}

export type EnrollmentChanges = {
  /** The snapshot's xmin: the next call passes it as `since`. */
  xmin: string;
  /** Enrolments of the current model in the same snapshot. */
  total: number;
  /** The database's face-index identity (a new one after a TRUNCATE: only a rebuild is right). */
  databaseId: string | null;
  /** Each patient whose enrolment changed: its unit vector now, or null when it is gone. */
  changed: Map<string, Float32Array | null>;
};

/**
 * What changed since `since` (a previous snapshot's xmin), in one statement and so one snapshot:
 * rows written by transactions at or after it (a re-enrolment, a new one, a model change) and
 * deletions recorded by migration 031's trigger. Applying it twice is harmless.
 */
export async function enrollmentChangesSince(db: Db, since: string): Promise<EnrollmentChanges> {
  const { rows } = await db.query<{
    xmin: string;
    total: number;
    database_id: string | null;
    patient_id: string | null;
    gone: boolean | null;
    embedding: string | null;
  }>(
    `SELECT s.xmin, s.total, s.database_id, c.patient_id, c.gone, c.embedding
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin,
                    (SELECT count(*) FROM face_enrollments WHERE model = $1)::int AS total,
                    (SELECT database_id::text FROM face_index_identity) AS database_id) s
       LEFT JOIN (
         SELECT e.patient_id::text AS patient_id, e.model <> $1 AS gone,
                CASE WHEN e.model = $1 THEN encode(array_send(e.embedding), 'base64') END AS embedding
           FROM face_enrollments e WHERE e.change_xid >= $2::xid8
         UNION ALL
         SELECT d.patient_id::text, true, NULL FROM face_enrollment_deletions d
          WHERE d.change_xid >= $2::xid8
            AND NOT EXISTS (SELECT 1 FROM face_enrollments e WHERE e.patient_id = d.patient_id)
       ) c ON true`,
    [EMBEDDING_MODEL, since],
  );
  const head = rows[0]!;
  const changed = new Map<string, Float32Array | null>();
  for (const r of rows) {
    if (r.gone === null || r.patient_id === null) continue;
    if (r.gone || r.embedding === null) changed.set(r.patient_id, null);
    else changed.set(r.patient_id, decodeUnit(Buffer.from(r.embedding, 'base64')));
  }
  return { xmin: head.xmin, total: head.total, databaseId: head.database_id, changed };
}

/** The enrolled unit vectors of these patients now (a patient no longer enrolled is absent). */
export async function enrolledVectors(
  db: Db,
  patientIds: string[],
): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (!patientIds.length) return out;
  const { rows } = await db.query<{ patient_id: string; embedding: string }>(
    `SELECT patient_id::text AS patient_id, encode(array_send(embedding), 'base64') AS embedding
       FROM face_enrollments WHERE model = $1 AND patient_id = ANY($2::bigint[])`,
    [EMBEDDING_MODEL, patientIds],
  );
  for (const r of rows) out.set(r.patient_id, decodeUnit(Buffer.from(r.embedding, 'base64')));
  return out;
}
