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
 * since the file) are re-scored against the database's float vectors (`flatBestMatch`). Before its
 * transaction, registration settles the check (`settleDuplicateCheck`): it waits for the
 * background search running in this process (at most IDENTITY_DUPLICATE_WAIT_MS), or, when none
 * finished (it failed, it runs or died on another process), runs the flat search itself, so the
 * transaction reads only the rows since that search's snapshot, never every enrolment
 * (`requireCheck`). Past the wait the registration is refused for now (DuplicateCheckPending: the
 * patient is asked to try again), never passed unchecked.
 * No description is stored here: the best patient at or above the threshold, its similarity.
 */

const DIM = 1024;
/** Rows a page of the scan reads (array_send as base64: about 5.5 KB a row). */
const PAGE = 2_000;
/** pg_advisory_xact_lock's key: registrations' duplicate checks, one at a time (any process). */
const REGISTRATION_LOCK = 44_003;

export type FaceMatch = { patientId: string; similarity: number; threshold: number };

/** The session's duplicate check has not finished within the wait: no registration without it. */
export class DuplicateCheckPending extends Error {
  override readonly name = 'DuplicateCheckPending';
}

/** This process's running checks, by session (the background one, or registration's own). */
const running = new Map<string, Promise<unknown>>();
function track<T>(sessionId: string, work: Promise<T>): Promise<T> {
  const p = work.finally(() => {
    if (running.get(sessionId) === p) running.delete(sessionId);
  });
  running.set(sessionId, p);
  // Its callers handle the failure (the background's logs it; a registration past its wait is gone).
  p.catch(() => {});
  return p;
}

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
  exclude: readonly string[] = [],
): Promise<{ patientId: string; similarity: number } | null> {
  const probe = unitOf(embedding);
  if (!probe) return null;
  const { candidates } = await search.search(db, probe);
  const ids = new Set(candidates.map((c) => c.patientId));
  for (const id of exclude) ids.delete(id);
  const vectors = await enrolledVectors(db, [...ids]);
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
  const since = rows[0].since;
  await track(
    sessionId,
    (async () => {
      const match = search
        ? await flatBestMatch(db, search, kyc.embedding, threshold)
        : await exactBestMatch(db, kyc.embedding, threshold);
      await writeCheck(db, sessionId, threshold, since, match);
    })(),
  );
}

/**
 * A search's result with its own snapshot (a registration's search and a late background one may
 * both write: whichever is last, its rows since are its own).
 */
async function writeCheck(
  db: Db,
  sessionId: string,
  threshold: number,
  since: string,
  match: { patientId: string; similarity: number } | null,
): Promise<void> {
  await db.query(
    `INSERT INTO face_duplicate_checks
       (session_id, status, threshold, since_xid, patient_id, similarity, checked_at)
     VALUES ($1, $2, $3, $4::xid8, $5, $6, now())
     ON CONFLICT (session_id) DO UPDATE SET status = $2, threshold = $3, since_xid = $4::xid8,
       patient_id = $5, similarity = $6, checked_at = now()`,
    [
      sessionId,
      match ? 'match' : 'clear',
      threshold,
      since,
      match?.patientId ?? null,
      match?.similarity ?? null,
    ],
  );
}

type CheckRow = {
  status: string;
  since: string | null;
  patient_id: string | null;
  threshold: number;
};
const readCheck = async (db: Db, sessionId: string) =>
  (
    await db.query<CheckRow>(
      `SELECT status, since_xid::text AS since, patient_id::text AS patient_id, threshold
         FROM face_duplicate_checks WHERE session_id = $1`,
      [sessionId],
    )
  ).rows[0];
/** A finished check with this threshold, whose match (if any) is not one excluded since. */
const settled = (row: CheckRow | undefined, threshold: number, exclude: readonly string[]) =>
  !!row &&
  row.status !== 'pending' &&
  row.since !== null &&
  row.threshold === threshold &&
  !(row.status === 'match' && row.patient_id && exclude.includes(row.patient_id));

/** Whether `work` settled (either way) within `ms`; its timer never keeps the process alive. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Before registration's transaction (on PGlite it holds the only connection, so nothing is awaited
 * inside it): the session's check finished with this threshold. A search running in this process is
 * waited for, at most `waitMs`; when none finished (never started, failed, another process's still
 * 'pending' or dead, its match excluded since), and the flat file is at hand, the search runs here,
 * also within `waitMs` (it goes on afterwards and its result is kept: a try again waits for it).
 * Throws DuplicateCheckPending past the wait. Without the flat file (IDENTITY_DUPLICATE_SEARCH=
 * database) it only waits: the transaction reads every enrolment then, as it always did.
 */
export async function settleDuplicateCheck(
  db: Db,
  sessionId: string,
  embedding: ArrayLike<number>,
  threshold: number,
  opts: { search: FlatSearch | null; waitMs: number; exclude?: readonly string[] },
): Promise<void> {
  const exclude = opts.exclude ?? [];
  const deadline = Date.now() + opts.waitMs;
  const wait = async (work: Promise<unknown>) => {
    if (!(await within(work, Math.max(0, deadline - Date.now()))))
      throw new DuplicateCheckPending();
  };
  if (settled(await readCheck(db, sessionId), threshold, exclude)) return;
  // The search running here (the background's, or an earlier try's): waited for, either way.
  const live = running.get(sessionId);
  if (live) {
    await wait(live);
    if (settled(await readCheck(db, sessionId), threshold, exclude)) return;
  }
  const search = opts.search;
  if (!search) return;
  const own = track(
    sessionId,
    (async () => {
      const { rows } = await db.query<{ since: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS since',
      );
      const match = await flatBestMatch(db, search, embedding, threshold, exclude);
      await writeCheck(db, sessionId, threshold, rows[0]!.since, match);
    })(),
  );
  await wait(own);
  // A failed search (the worker's deadline, a file it could not build) is no pass either.
  await own.catch((err: unknown) => {
    throw Object.assign(new DuplicateCheckPending(), { cause: err });
  });
}

/**
 * Registration's search, inside its transaction (before the patient is created): the background
 * result when it finished with this threshold, plus an exact search of what was enrolled since;
 * else an exact search of every enrolment, or, with `requireCheck` (the flat file: registration
 * settled the check first, settleDuplicateCheck), DuplicateCheckPending. `exclude`: patients a
 * supervisor already decided this registration is not (an approved 'posible duplicado'). Null: no
 * enrolled face at or above it.
 */
export async function duplicateAtRegistration(
  tx: Db,
  sessionId: string,
  embedding: ArrayLike<number>,
  threshold: number,
  exclude: readonly string[] = [],
  opts: { requireCheck?: boolean } = {},
): Promise<FaceMatch | null> {
  // One registration at a time from here to its commit: the next one sees its enrolment.
  await tx.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
  const done = await readCheck(tx, sessionId);
  // Never every enrolment inside the transaction when the flat file answers (4 GB at 1M).
  if (opts.requireCheck && !settled(done, threshold, exclude)) throw new DuplicateCheckPending();
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
