import type { Db } from '../../db/client';
import { purgeOldFrames } from './frames';
import { purgeExpiredSessions } from './sessions';

/**
 * Database access of the identity engine (PGlite or PostgreSQL through the app's Db), one module per
 * table: sessions.ts is the only code that reads or writes `kyc_sessions`, frames.ts
 * `liveness_frames`, enrollments.ts `face_enrollments`, evidence.ts `kyc_evidence`.
 */
export * from './enrollments';
export * from './evidence';
export * from './frames';
export * from './sessions';

/** Deletes sessions and fingerprints past their retention. */
export async function purgeExpired(db: Db, replayWindowMs: number): Promise<void> {
  await purgeExpiredSessions(db, replayWindowMs);
  await purgeOldFrames(db, replayWindowMs);
}
