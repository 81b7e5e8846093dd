import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The dev route's path (under /api/dev). */
export const devKycExpirePath = (sessionId: string) =>
  `/api/dev/kyc-sessions/${encodeURIComponent(sessionId)}/expire`;

/**
 * Development only (app.ts never registers it in production): expires one identity (KYC) session
 * now, as IDENTITY_SESSION_MINUTES would later, so the browser's 'La sesión expiró' path can be
 * tried without waiting. POST /api/dev/kyc-sessions/:id/expire -> { success: true }, 404 unknown.
 */
export async function devKycRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { db } = opts.ctx;
  app.post<{ Params: { id: string } }>('/kyc-sessions/:id/expire', async (request) => {
    const { id } = request.params;
    if (!UUID.test(id)) throw new HttpError(400, 'Indicá el identificador de una sesión.');
    const { rows } = await db.query(
      `UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1 RETURNING id`,
      [id],
    );
    if (!rows.length) throw new HttpError(404, 'No existe esa sesión.');
    return { success: true };
  });
}
