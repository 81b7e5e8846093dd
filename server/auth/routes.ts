import type { FastifyInstance, FastifyReply } from 'fastify';
import { loginRequest, type LoginResponse, type SessionResponse } from '../../contract/auth';
import type { AppContext } from '../context';
import { parseOr400 } from '../http/errors';
import { messages } from '../http/messages';
import { login } from './login';
import { createSession, endSession, SESSION_COOKIE, touchSession } from './sessions';

export async function authRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const secureCookie = (protocol: string) =>
    ctx.config.session.cookieSecure ?? protocol === 'https';
  const setCookie = (reply: FastifyReply, token: string, secure: boolean) =>
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      maxAge: Math.floor(ctx.config.session.absoluteMs / 1000),
    });

  app.post('/login', async (request, reply): Promise<LoginResponse> => {
    const body = parseOr400(loginRequest, request.body, messages.loginBadInput);
    const { patientId } = await login(ctx, { ...body, clientIp: request.ip });
    const { token } = await createSession(ctx, patientId);
    setCookie(reply, token, secureCookie(request.protocol));
    request.log.info({ event: 'login.success', patientId }, 'login');
    return { success: true, message: messages.loginOk };
  });

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
