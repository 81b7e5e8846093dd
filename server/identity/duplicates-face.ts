import type { Db } from '../db/client';
import type { FlatSearch } from './face-flat-search';
import { decodeUnit, EMBEDDING_MODEL, enrolledVectors, getCompletedKyc } from './store';

/**
 * Duplicates at registration (issue 44 item 3): is a verified selfie's face an enrolled patient's?
 * The search is exact (every enrolled description, never the HNSW index's candidates: a missed
 * duplicate is a second identity), and it runs twice:
 * - in the background once the KYC session passes (`startDuplicateCheck`, from scan-id), its result
 *   kept in `face_duplicate_checks` (migration 032; this module is its only writer), so the patient's
 *   next step (the complementary data) waits for nothing;
 * - at registration, inside its transaction (`duplicateAtRegistration`): after a lock that one
 *   registration at a time holds, the enrolments the background search could not see (written by
 *   transactions at or after its snapshot's xmin, migration 016's change_xid) are searched again,
 *   and so are all of them when the background search had not finished (or never ran). Two
 *   registrations of one face at once: the second waits for the first's commit and finds it.
 * With the flat file (face-flat-search.ts, IDENTITY_DUPLICATE_SEARCH=flat) the background search
 * reads no table: a worker scans every enrolled face quantised, and its best rows (and every change
 * since the file) are re-scored against the database's float vectors (`flatBestMatch`). The search
 * inside the register transaction stays the database's: the rows since the background snapshot.
 * No description is stored here: the best patient at or above the threshold, its similarity.
 */

const DIM = 1024;
/** Rows a page of the scan reads (array_send as base64: about 5.5 KB a row). */
const PAGE = 2_000;
/** pg_advisory_xact_lock's key: registrations' duplicate checks, one at a time (any process). */
const REGISTRATION_LOCK = 44_003;

export type FaceMatch = { patientId: string; similarity: number; threshold: number };

/** A probe as a unit vector (1024-d), or null when it has no direction. */
function unitOf(embedding: ArrayLike<number>): Float32Array | null {
  if (embedding.length !== DIM) return null;
  const out = new Float32Array(DIM);
  let sq = 0;
  for (let j = 0; j < DIM; j++) {
    out[j] = embedding[j]!;
    sq += out[j]! * out[j]!;
  }
  if (!sq) return null;
  const inv = 1 / Math.sqrt(sq);
  for (let j = 0; j < DIM; j++) out[j]! *= inv;
  return out;
}

/**
 * The best enrolled face at or above `threshold` (exact cosine), among every enrolment (or those
 * written at or after `sinceXid`), leaving out `exclude`; null when none. Pages in patient id order.
 */
export async function exactBestMatch(
  db: Db,
  embedding: ArrayLike<number>,
  threshold: number,
  opts: { sinceXid?: string | null; exclude?: readonly string[] } = {},
): Promise<{ patientId: string; similarity: number } | null> {
  const probe = unitOf(embedding);
  if (!probe) return null;
  const exclude = new Set(opts.exclude ?? []);
  const row = new Float32Array(DIM);
  let best: { patientId: string; similarity: number } | null = null;
  let after = '-1';
  for (;;) {
    const { rows } = await db.query<{ patient_id: string; embedding: string }>(
      `SELECT patient_id::text AS patient_id, encode(array_send(embedding), 'base64') AS embedding
         FROM face_enrollments
        WHERE model = $1 AND patient_id > $2::bigint
          ${opts.sinceXid ? 'AND change_xid >= $4::xid8' : ''}
        ORDER BY patient_id LIMIT $3`,
      opts.sinceXid
        ? [EMBEDDING_MODEL, after, PAGE, opts.sinceXid]
        : [EMBEDDING_MODEL, after, PAGE],
    );
    for (const r of rows) {
      if (exclude.has(r.patient_id)) continue;
      decodeUnit(Buffer.from(r.embedding, 'base64'), row);
      let dot = 0;
      for (let j = 0; j < DIM; j++) dot += row[j]! * probe[j]!;
      if (dot >= threshold && (!best || dot > best.similarity))
        best = { patientId: r.patient_id, similarity: dot };
    }
    if (rows.length < PAGE) return best;
    after = rows[rows.length - 1]!.patient_id;
  }
}

/**
 * exactBestMatch through the flat file: its best rows by int8 cosine and every enrolment since it,
 * re-scored exactly against the enrolled vectors now (a patient deleted meanwhile is not answered).
 */
export async function flatBestMatch(
  db: Db,
  search: FlatSearch,
  embedding: ArrayLike<number>,
  threshold: number,
): Promise<{ patientId: string; similarity: number } | null> {
  const probe = unitOf(embedding);
  if (!probe) return null;
  const { candidates } = await search.search(db, probe);
  const vectors = await enrolledVectors(db, [...new Set(candidates.map((c) => c.patientId))]);
  let best: { patientId: string; similarity: number } | null = null;
  for (const [patientId, row] of vectors) {
    let dot = 0;
    for (let j = 0; j < DIM; j++) dot += row[j]! * probe[j]!;
    if (dot >= threshold && (!best || dot > best.similarity)) best = { patientId, similarity: dot };
  }
  return best;
}

/**
 * The background search of a session that just passed (scan-id's `kyc_complete`): one row per
 * session ('pending' while it runs), the snapshot's xmin taken before the scan. A second call for
 * the session does nothing. Failures are the caller's to log: registration searches anyway.
 */
export async function startDuplicateCheck(
  db: Db,
  sessionId: string,
  threshold: number,
  /** The flat file's search (none: every enrolment read from the database). */
  search: FlatSearch | null = null,
): Promise<void> {
  const kyc = await getCompletedKyc(db, sessionId);
  // An approval's session keeps its face sealed (evidence.ts): registration searches it then.
  if (!kyc || kyc.embedding.length !== DIM) return;
  const { rows } = await db.query<{ since: string }>(
    `INSERT INTO face_duplicate_checks (session_id, status, threshold, since_xid)
     VALUES ($1, 'pending', $2, pg_snapshot_xmin(pg_current_snapshot()))
     ON CONFLICT (session_id) DO NOTHING
     RETURNING since_xid::text AS since`,
    [sessionId, threshold],
  );
  if (!rows[0]) return;
  const match = search
    ? await flatBestMatch(db, search, kyc.embedding, threshold)
    : await exactBestMatch(db, kyc.embedding, threshold);
  await db.query(
    `UPDATE face_duplicate_checks SET status = $2, patient_id = $3, similarity = $4, checked_at = now()
      WHERE session_id = $1`,
    [sessionId, match ? 'match' : 'clear', match?.patientId ?? null, match?.similarity ?? null],
  );
}

/**
 * Registration's search, inside its transaction (before the patient is created): the background
 * result when it finished with this threshold, plus an exact search of what was enrolled since;
 * else an exact search of every enrolment. `exclude`: patients a supervisor already decided this
 * registration is not (an approved 'posible duplicado'). Null: no enrolled face at or above it.
 */
export async function duplicateAtRegistration(
  tx: Db,
  sessionId: string,
  embedding: ArrayLike<number>,
  threshold: number,
  exclude: readonly string[] = [],
): Promise<FaceMatch | null> {
  // One registration at a time from here to its commit: the next one sees its enrolment.
  await tx.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
  const { rows } = await tx.query<{
    status: string;
    since: string | null;
    patient_id: string | null;
    similarity: number | null;
    threshold: number;
  }>(
    `SELECT status, since_xid::text AS since, patient_id::text AS patient_id, similarity, threshold
       FROM face_duplicate_checks WHERE session_id = $1`,
    [sessionId],
  );
  const done = rows[0];
  const usable =
    done && done.status !== 'pending' && done.since !== null && done.threshold === threshold;
  // The background's match may be a patient excluded since, or re-enrolled: searched again below.
  const kept =
    usable && done.status === 'match' && done.patient_id && !exclude.includes(done.patient_id)
      ? done.patient_id
      : null;
  const best = await exactBestMatch(tx, embedding, threshold, {
    sinceXid: usable && (done.status === 'clear' || kept) ? done.since : null,
    exclude,
  });
  let found = best;
  if (kept && (!best || best.patientId !== kept)) {
    // Still enrolled, and still this close (not re-enrolled with another face)?
    const still = await enrolledSimilarity(tx, kept, embedding);
    if (still !== null && still >= threshold && (!found || still > found.similarity))
      found = { patientId: kept, similarity: still };
  }
  return found && { ...found, threshold };
}

/** The exact similarity of `embedding` to a patient's enrolled face, or null when not enrolled. */
export async function enrolledSimilarity(
  db: Db,
  patientId: string,
  embedding: ArrayLike<number>,
): Promise<number | null> {
  const probe = unitOf(embedding);
  if (!probe) return null;
  const { rows } = await db.query<{ embedding: string }>(
    `SELECT encode(array_send(embedding), 'base64') AS embedding FROM face_enrollments
      WHERE patient_id = $1::bigint AND model = $2`,
    [patientId, EMBEDDING_MODEL],
  );
  if (!rows[0]) return null;
  const row = decodeUnit(Buffer.from(rows[0].embedding, 'base64'));
  let dot = 0;
  for (let j = 0; j < DIM; j++) dot += row[j]! * probe[j]!;
  return dot;
}
