import { z } from 'zod';
import { bool, int, parseEnv } from '../env';

/*
 * The 1:N face index (issue 44; server/identity/face-index.ts, figures in docs/measurements.md
 * 'Face index'): an HNSW file per database under IDENTITY_FACE_INDEX_DIR, memory-mapped by every
 * process, kept up to date by polling what changed in face_enrollments. Search widths and the
 * number of candidates re-scored exactly come from bench/face-index-recall.ts.
 */
const faceIndexSchema = z.object({
  /** `hnsw` the index; `scan` today's linear scan of an in-memory gallery per process. */
  IDENTITY_FACE_INDEX: z.enum(['hnsw', 'scan']).default('hnsw'),
  /** Where the index files live (a cache: deleted, they are rebuilt from the database). */
  IDENTITY_FACE_INDEX_DIR: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  /** How the file stores each vector: f16 (2 KiB a face), i8 (1 KiB) or f32 (4 KiB). */
  IDENTITY_FACE_INDEX_QUANTIZATION: z.enum(['f32', 'f16', 'i8']).default('f16'),
  /**
   * HNSW links per node (M) and the build's and the search's candidate lists (ef). M 48: at
   * 200,000 half the rows M 32 leaves unreachable, in the same build time (docs/measurements.md
   * 'Which build settings reach every row').
   */
  IDENTITY_FACE_INDEX_CONNECTIVITY: int(48, 4, 256),
  IDENTITY_FACE_INDEX_EF_ADD: int(128, 8, 4096),
  IDENTITY_FACE_INDEX_EF_SEARCH: int(1024, 8, 4096),
  /** The index's best candidates re-scored exactly against the database's vectors. */
  IDENTITY_FACE_INDEX_CANDIDATES: int(10, 1, 256),
  /**
   * When the index's best candidate is under the match threshold, the exact flat file of the
   * duplicate search (face-flat-search.ts) is searched too: a face the graph does not reach is
   * found (at 1,000,000 the M 32 graph left 5.6% of its rows unreachable: recall@1 93.8%), at the
   * flat scan's cost (0.4-0.9 s p50 at 1,000,000) for a face nobody enrolled. Off: the index alone.
   */
  IDENTITY_FACE_INDEX_EXACT_BELOW_THRESHOLD: bool.default(true),
  /**
   * How long identify waits for that search (ms): past it, or when it fails (its file being built
   * at a process's start, another process's build), the index's answer stands and the log says so.
   */
  IDENTITY_FACE_INDEX_EXACT_TIMEOUT_MS: int(2_000, 50, 60_000),
  /** How often each process asks the database what changed (ms). */
  IDENTITY_FACE_INDEX_POLL_MS: int(250, 20, 1000),
  /** Changes kept in memory beside the file before a process rebuilds it. */
  IDENTITY_FACE_INDEX_REBUILD_AFTER: int(20_000, 1),
  /** Below this many enrolments no file is made: the changes in memory are scanned exactly. */
  IDENTITY_FACE_INDEX_MIN_ROWS: int(1_000, 0),
  /**
   * A face withdrawn (issue 45 item 4) is ignored at once, but the file still holds its vector:
   * the file is rebuilt without it at most this long after a process saw the deletion (seconds).
   */
  IDENTITY_FACE_INDEX_FORGET_SECONDS: int(3_600, 1, 86_400),
});

export type FaceIndexConfig = {
  mode: 'hnsw' | 'scan';
  dir: string;
  quantization: 'f32' | 'f16' | 'i8';
  connectivity: number;
  efAdd: number;
  efSearch: number;
  candidates: number;
  /** IDENTITY_FACE_INDEX_EXACT_BELOW_THRESHOLD: the exact flat search behind an unmatched answer. */
  exactBelowThreshold: boolean;
  /** IDENTITY_FACE_INDEX_EXACT_TIMEOUT_MS. */
  exactTimeoutMs: number;
  pollMs: number;
  rebuildAfter: number;
  minRows: number;
  /** A deleted enrolment's vector leaves the file (a rebuild) within this long (ms). */
  forgetMs: number;
};

export function loadFaceIndexConfig(env: Record<string, string | undefined>): FaceIndexConfig {
  const c = parseEnv(faceIndexSchema, env);
  return {
    mode: c.IDENTITY_FACE_INDEX,
    dir: c.IDENTITY_FACE_INDEX_DIR ?? `${c.DATA_DIR}/face-index`,
    quantization: c.IDENTITY_FACE_INDEX_QUANTIZATION,
    connectivity: c.IDENTITY_FACE_INDEX_CONNECTIVITY,
    efAdd: c.IDENTITY_FACE_INDEX_EF_ADD,
    efSearch: c.IDENTITY_FACE_INDEX_EF_SEARCH,
    candidates: c.IDENTITY_FACE_INDEX_CANDIDATES,
    exactBelowThreshold: c.IDENTITY_FACE_INDEX_EXACT_BELOW_THRESHOLD,
    exactTimeoutMs: c.IDENTITY_FACE_INDEX_EXACT_TIMEOUT_MS,
    pollMs: c.IDENTITY_FACE_INDEX_POLL_MS,
    rebuildAfter: c.IDENTITY_FACE_INDEX_REBUILD_AFTER,
    minRows: c.IDENTITY_FACE_INDEX_MIN_ROWS,
    forgetMs: c.IDENTITY_FACE_INDEX_FORGET_SECONDS * 1000,
  };
}
