import type { OperatorRole } from '../../contract/operators';
import type { AppContext } from '../context';
import { hashToken, newToken } from './tokens';

/**
 * Operator sessions (issue 30): their own cookie and table, never a patient's. Idle limit
 * OPERATOR_SESSION_IDLE_MINUTES (refreshed by each authenticated request), absolute limit
 * OPERATOR_SESSION_HOURS; a revoked operator's sessions end at once.
 */

export const OPERATOR_SESSION_COOKIE = 'operador_sesion';
export { OPERATOR_API_PREFIX } from '../../contract/operators';

export type OperatorIdentity = { id: string; usuario: string; nombre: string; rol: OperatorRole };

/** Starts a session for an operator: the Set-Cookie value (used by login, enrolment and tests). */
export async function startOperatorSession(
  ctx: AppContext,
  operatorId: string,
): Promise<{ cookieName: string; value: string }> {
  const value = newToken();
  const now = ctx.clock.now();
  // Housekeeping: sessions past their absolute limit are of no use.
  await ctx.db.query('DELETE FROM operator_sessions WHERE expires_at < $1', [new Date(now)]);
  await ctx.db.query(
    `INSERT INTO operator_sessions (id_hash, operator_id, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $3, $4)`,
    [hashToken(value), operatorId, new Date(now), new Date(now + ctx.operators.absoluteMs)],
  );
  return { cookieName: OPERATOR_SESSION_COOKIE, value };
}

/** The operator of a live session (within both limits, not revoked); refreshes its idle limit. */
export async function touchOperatorSession(
  ctx: AppContext,
  token: string | undefined,
): Promise<OperatorIdentity | null> {
  if (!token || token.length > 64) return null;
  const now = new Date(ctx.clock.now());
  const idleCutoff = new Date(now.getTime() - ctx.operators.idleMs);
  const { rows } = await ctx.db.query<OperatorIdentity>(
    `UPDATE operator_sessions s SET last_seen_at = $2
       FROM operators o
      WHERE s.id_hash = $1 AND o.id = s.operator_id AND o.revoked_at IS NULL
        AND s.ended_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3
      RETURNING o.id::text AS id, o.usuario, o.nombre, o.rol`,
    [hashToken(token), now, idleCutoff],
  );
  return rows[0] ?? null;
}

export async function endOperatorSession(ctx: AppContext, token: string | undefined) {
  if (!token || token.length > 64) return;
  await ctx.db.query(
    'UPDATE operator_sessions SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL',
    [hashToken(token), new Date(ctx.clock.now())],
  );
}
