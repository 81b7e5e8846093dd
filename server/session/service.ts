import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context';

export const SESSION_COOKIE = 'sid';

/** The patient was deleted between the check of their PIN and the session (issue 45 item 6). */
export class SessionPatientGone extends Error {
  constructor() {
    super('session: the patient is gone');
    this.name = 'SessionPatientGone';
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(
  ctx: AppContext,
  patientId: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now + ctx.config.session.absoluteMs);
  // The patient may have been deleted since the PIN was checked (issue 45 item 6): no session
  // then, answered as an unknown document (SessionPatientGone), never a foreign-key 500.
  let created: unknown[];
  try {
    ({ rows: created } = await ctx.db.query(
      `INSERT INTO sessions (id_hash, patient_id, created_at, last_seen_at, expires_at)
       SELECT $1, id, $3, $3, $4 FROM patients WHERE id = $2 RETURNING 1`,
      [hashToken(token), patientId, new Date(now), expiresAt],
    ));
  } catch (err) {
    if ((err as { code?: string }).code !== '23503') throw err;
    created = [];
  }
  if (!created.length) throw new SessionPatientGone();
  return { token, expiresAt };
}

type LiveSession = { patientId: string; nombre: string; apellido: string; expiresAt: Date };

/** Finds a live session (not ended, within idle and absolute expiry) and refreshes its idle timer. */
export async function touchSession(
  ctx: AppContext,
  token: string | undefined,
): Promise<LiveSession | null> {
  if (!token) return null;
  const now = new Date(ctx.clock.now());
  const idleCutoff = new Date(now.getTime() - ctx.config.session.idleMs);
  const { rows } = await ctx.db.query<{
    patient_id: string;
    nombre: string;
    apellido: string;
    expires_at: Date;
  }>(
    `UPDATE sessions s SET last_seen_at = $2
       FROM patients p
      WHERE s.id_hash = $1 AND p.id = s.patient_id AND s.ended_at IS NULL
        AND s.expires_at > $2 AND s.last_seen_at > $3
      RETURNING s.patient_id::text AS patient_id, p.nombre, p.apellido, s.expires_at`,
    [hashToken(token), now, idleCutoff],
  );
  const row = rows[0];
  if (!row) return null;
  const idleExpiry = new Date(now.getTime() + ctx.config.session.idleMs);
  const absolute = new Date(row.expires_at);
  return {
    patientId: row.patient_id,
    nombre: row.nombre,
    apellido: row.apellido,
    expiresAt: idleExpiry < absolute ? idleExpiry : absolute,
  };
}

export async function endSession(ctx: AppContext, token: string | undefined): Promise<void> {
  if (!token) return;
  await ctx.db.query('UPDATE sessions SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL', [
    hashToken(token),
    new Date(ctx.clock.now()),
  ]);
}

/** Ends every open session of a patient (a PIN change signs every device out). */
export async function endPatientSessions(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  patientId: string,
): Promise<number> {
  const { rows } = await ctx.db.query(
    'UPDATE sessions SET ended_at = $2 WHERE patient_id = $1 AND ended_at IS NULL RETURNING 1',
    [patientId, new Date(ctx.clock.now())],
  );
  return rows.length;
}
