import type { FastifyInstance, FastifyReply } from 'fastify';
import { loginRequest, type LoginResponse } from '../../contract/login';
import type { AppContext } from '../context';
import { HttpError, parseOr400 } from '../http/errors';
import { messages } from '../http/messages';
import { createSession, SESSION_COOKIE, SessionPatientGone } from '../session/service';
import { login } from './service';

export async function loginRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
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
    const { token } = await createSession(ctx, patientId).catch((err: unknown) => {
      // Deleted since its PIN was checked (issue 45 item 6): as for an unknown document.
      if (err instanceof SessionPatientGone) throw new HttpError(401, messages.loginBadCredentials);
      throw err;
    });
    setCookie(reply, token, secureCookie(request.protocol));
    request.log.info({ event: 'login.success', patientId }, 'login');
    return { success: true, message: messages.loginOk };
  });
}
