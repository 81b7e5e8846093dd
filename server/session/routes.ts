import type { FastifyInstance } from 'fastify';
import type { SessionResponse } from '../../contract/session';
import type { AppContext } from '../context';
import { messages } from '../http/messages';
import { endSession, SESSION_COOKIE, touchSession } from './service';

/** The patient's session: who is signed in (GET /session) and signing out (POST /logout). */
export async function sessionRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  const { ctx } = opts;

  app.post('/logout', async (request, reply) => {
    await endSession(ctx, request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true as const, message: messages.logoutOk };
  });

  app.get('/session', async (request, reply): Promise<SessionResponse> => {
    const session = await touchSession(ctx, request.cookies[SESSION_COOKIE]);
    if (!session) {
      if (request.cookies[SESSION_COOKIE]) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { authenticated: false };
    }
    return {
      authenticated: true,
      patient: { nombre: session.nombre, apellido: session.apellido },
      expiresAt: session.expiresAt.toISOString(),
    };
  });
}
