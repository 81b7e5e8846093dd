import { z } from 'zod';
import { int, parseEnv } from '../env';

/*
 * The exact duplicate search at registration (issue 44; server/identity/face-flat*.ts, figures in
 * docs/measurements.md 'Duplicates at national scale'): a flat int8 file of every enrolled face
 * beside the HNSW file, scanned in a worker thread, its best rows re-scored against the database.
 */
const schema = z.object({
  /** `flat` the flat file in a worker; `database` every enrolment read from the database per search. */
  IDENTITY_DUPLICATE_SEARCH: z.enum(['flat', 'database']).default('flat'),
  /** Where the file lives (the face index's folder: a cache, rebuilt from the database). */
  IDENTITY_FACE_INDEX_DIR: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  /** The file's best rows (int8 cosine) re-scored exactly against the database's vectors. */
  IDENTITY_DUPLICATE_CANDIDATES: int(32, 1, 1024),
  /** Rows the worker reads at a time (1 KiB each): its memory, whatever the number enrolled. */
  IDENTITY_DUPLICATE_CHUNK_ROWS: int(16_384, 256, 262_144),
  /** Changes kept in memory (exact float vectors, 4 KiB each) before the file is rebuilt. */
  IDENTITY_DUPLICATE_REBUILD_AFTER: int(5_000, 1),
  /** Below this many enrolments no file is made: the changes in memory are every face. */
  IDENTITY_DUPLICATE_MIN_ROWS: int(1_000, 0),
  /** Deadline of the worker's scan (ms): past it the search fails and registration searches. */
  IDENTITY_DUPLICATE_SCAN_TIMEOUT_MS: int(30_000, 100),
  /**
   * How long registration waits, before its transaction, for the session's duplicate search still
   * running (or for its own, when none finished) (ms): past it the patient is asked to try again.
   */
  IDENTITY_DUPLICATE_WAIT_MS: int(10_000, 100, 120_000),
  /** How long a search waits for another process's build of the file (ms). */
  IDENTITY_DUPLICATE_BUILD_WAIT_MS: int(600_000, 1_000),
});

export type DuplicateSearchConfig = {
  mode: 'flat' | 'database';
  dir: string;
  candidates: number;
  chunkRows: number;
  rebuildAfter: number;
  minRows: number;
  scanTimeoutMs: number;
  /** Registration's wait for the session's search (settleDuplicateCheck). */
  waitMs: number;
  buildWaitMs: number;
};

export function loadDuplicateSearchConfig(
  env: Record<string, string | undefined>,
): DuplicateSearchConfig {
  const c = parseEnv(schema, env);
  return {
    mode: c.IDENTITY_DUPLICATE_SEARCH,
    dir: c.IDENTITY_FACE_INDEX_DIR ?? `${c.DATA_DIR}/face-index`,
    candidates: c.IDENTITY_DUPLICATE_CANDIDATES,
    chunkRows: c.IDENTITY_DUPLICATE_CHUNK_ROWS,
    rebuildAfter: c.IDENTITY_DUPLICATE_REBUILD_AFTER,
    minRows: c.IDENTITY_DUPLICATE_MIN_ROWS,
    scanTimeoutMs: c.IDENTITY_DUPLICATE_SCAN_TIMEOUT_MS,
    waitMs: c.IDENTITY_DUPLICATE_WAIT_MS,
    buildWaitMs: c.IDENTITY_DUPLICATE_BUILD_WAIT_MS,
  };
}
