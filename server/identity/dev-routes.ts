import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { expireSession, isSessionId } from './store';

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
    if (!isSessionId(id)) throw new HttpError(400, 'Indicá el identificador de una sesión.');
    if (!(await expireSession(db, id))) throw new HttpError(404, 'No existe esa sesión.');
    return { success: true };
  });
}
