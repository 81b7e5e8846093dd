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
export type Gallery = { version: string; ids: string[]; dim: number; unit: Float32Array };

/**
 * Loads the gallery, or returns `cached` when the table has not changed since (count and last
 * update): parsing every embedding for each identification would dominate its latency.
 */
export async function loadGallery(db: Db, cached: Gallery | null): Promise<Gallery> {
  const { rows: v } = await db.query<{ version: string }>(
    `SELECT count(*)::text || ':' || coalesce(max(updated_at)::text, '') AS version FROM face_enrollments WHERE model = $1`,
    [EMBEDDING_MODEL],
  );
  const version = v[0]!.version;
  if (cached && cached.version === version) return cached;
  const { rows } = await db.query<{ patient_id: string; embedding: number[] }>(
    'SELECT patient_id::text AS patient_id, embedding FROM face_enrollments WHERE model = $1 ORDER BY patient_id',
    [EMBEDDING_MODEL],
  );
  const dim = 1024;
  const unit = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    let n = 0;
    for (const x of r.embedding) n += Number(x) * Number(x);
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < dim; j++) unit[i * dim + j] = Number(r.embedding[j] ?? 0) * inv;
  });
  return { version, ids: rows.map((r) => r.patient_id), dim, unit };
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
