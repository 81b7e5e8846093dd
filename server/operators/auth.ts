import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import { isIP } from 'node:net';
import fp from 'fastify-plugin';
import {
  enrolOptionsRequest,
  enrolVerifyRequest,
  loginVerifyRequest,
  OPERATOR_HOST_IS_IP,
  type EnrolOptionsResponse,
  type LoginOptionsResponse,
  type OperatorRole,
  type SessionResponse,
} from '../../contract/operators';
import type { AppContext } from '../context';
import { HttpError, parseOr400 } from '../http/errors';
import { messages } from '../http/messages';
import { consumeLimits } from '../security/rate-limits';
import { operatorMessages } from './messages';
import {
  endOperatorSession,
  OPERATOR_API_PREFIX,
  OPERATOR_SESSION_COOKIE,
  startOperatorSession,
  touchOperatorSession,
  type OperatorIdentity,
} from './sessions';
import {
  enrolmentOptions,
  loginOptions,
  verifyEnrolment,
  verifyLogin,
  type RelyingParty,
} from './webauthn';

/**
 * The back office's authentication (issue 30, interface B): operators log in with a passkey only;
 * their session is the HttpOnly, SameSite=Strict cookie `operador_sesion` on /api/operador (never a
 * patient's `sid`); `requireOperator(roles)` guards every operator route.
 */

export { createOperator } from './accounts';
export { startOperatorSession, type OperatorIdentity } from './sessions';

/** The back office's guard for the given roles (both when none): an onRequest hook. */
export type RequireOperator = (roles?: readonly OperatorRole[]) => onRequestAsyncHookHandler;

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of the request's live session, set by requireOperator's hook (else null). */
    operator: OperatorIdentity | null;
  }
  interface FastifyInstance {
    /**
     * The back office's guard, decorated by operatorAuthPlugin (plugin 'operator-auth'): a plugin
     * that guards its routes with it names 'operator-auth' in its fastify-plugin dependencies.
     */
    requireOperator: RequireOperator;
  }
}

function requestOrigin(request: FastifyRequest): string {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    throw new HttpError(400, messages.badRequest); // a Host header that is no host
  }
}

/** The origin operators' pages are served from: the configured one, else the request's own. */
const expectedOrigin = (ctx: AppContext, request: FastifyRequest) =>
  ctx.operators.origin ?? requestOrigin(request);

function relyingParty(ctx: AppContext, request: FastifyRequest): RelyingParty {
  const { origin, rpId, requireConfiguredOrigin } = ctx.operators;
  if (!origin && requireConfiguredOrigin) {
    request.log.error({ event: 'operator_origin_unset' }, 'Set PUBLIC_URL or OPERATOR_ORIGIN');
    throw new HttpError(503, operatorMessages.notConfigured);
  }
  const id = rpId ?? request.hostname;
  // Browsers refuse passkeys for an IP address (WebAuthn's RP ID is a domain): say so at once.
  if (isIP(id.replace(/^\[|\]$/g, ''))) {
    request.log.error(
      { event: 'operator_rp_id_ip', rpId: id },
      'Passkeys need a host name: open the back office at localhost or set OPERATOR_RP_ID',
    );
    throw new HttpError(503, operatorMessages.hostIsIp, {}, OPERATOR_HOST_IS_IP);
  }
  return { rpId: id, origin: origin ?? requestOrigin(request) };
}

/**
 * A request that changes something must come from the back office's own pages: Sec-Fetch-Site
 * same-origin (or none: typed by the user) and Origin equal to the operators' origin. A browser
 * sends at least one of them on every POST; a request with neither is refused too.
 */
function refuseCrossSite(ctx: AppContext, request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const siteOk = site === 'same-origin' || site === 'none';
  if (typeof site === 'string' && !siteOk) throw new HttpError(403, operatorMessages.crossSite);
  if (typeof origin === 'string') {
    let same = false;
    try {
      same = new URL(origin).origin === expectedOrigin(ctx, request);
    } catch {
      same = false;
    }
    if (!same) throw new HttpError(403, operatorMessages.crossSite);
  } else if (!siteOk) throw new HttpError(403, operatorMessages.crossSite);
}

function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(OPERATOR_SESSION_COOKIE, { path: OPERATOR_API_PREFIX });
}

/**
 * 401 without a live operator session, 403 for another role, 403 cross-site on non-GET (Origin /
 * Sec-Fetch-Site); refreshes the idle limit. An onRequest hook: it reads only the headers and the
 * cookie, so nobody without a session gets a body read (issue 42 item 3).
 */
function operatorGuard(ctx: AppContext): RequireOperator {
  return (roles) => async (request, reply) => {
    refuseCrossSite(ctx, request);
    const token = request.cookies[OPERATOR_SESSION_COOKIE];
    const operator = await touchOperatorSession(ctx, token);
    if (!operator) {
      if (token) clearSessionCookie(reply);
      throw new HttpError(401, operatorMessages.sessionRequired);
    }
    if (roles && !roles.includes(operator.rol))
      throw new HttpError(403, operatorMessages.roleForbidden);
    request.operator = operator;
  };
}

/** The app's guard (`app.requireOperator`) for a route registered without a plugin of its own. */
export const requireOperator: RequireOperator = (roles) =>
  async function (request, reply) {
    await request.server.requireOperator(roles).call(this, request, reply);
  };

async function operatorAuthRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;
  // Per client address: enrolment and login calls (options and verify alike), operators' settings.
  const { enrol, login, windowMs } = ctx.operators.limits;
  const ENROL_LIMIT = { max: enrol, windowMs };
  const LOGIN_LIMIT = { max: login, windowMs };
  const limit = (request: FastifyRequest, bucket: string, l: typeof LOGIN_LIMIT) =>
    consumeLimits(ctx.db, [{ bucket, key: request.ip, limits: [l] }], ctx.clock.now());
  const logIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    done: { operatorId: string; operator: SessionResponse['operator'] },
    event: string,
  ): Promise<SessionResponse> => {
    const session = await startOperatorSession(ctx, done.operatorId);
    reply.setCookie(session.cookieName, session.value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.config.session.cookieSecure ?? request.protocol === 'https',
      path: OPERATOR_API_PREFIX,
      maxAge: Math.floor(ctx.operators.absoluteMs / 1000),
    });
    request.log.info({ event, operator: done.operatorId });
    return { success: true, operator: done.operator };
  };

  app.post('/alta/opciones', async (request): Promise<EnrolOptionsResponse> => {
    refuseCrossSite(ctx, request);
    await limit(request, 'operator_enrol', ENROL_LIMIT);
    const { token } = parseOr400(
      enrolOptionsRequest,
      request.body,
      operatorMessages.enrolLinkInvalid,
    );
    const { operator, options } = await enrolmentOptions(ctx, relyingParty(ctx, request), token);
    return { success: true, operator, options: { ...options } };
  });

  app.post('/alta/verificar', async (request, reply): Promise<SessionResponse> => {
    refuseCrossSite(ctx, request);
    await limit(request, 'operator_enrol', ENROL_LIMIT);
    const body = parseOr400(enrolVerifyRequest, request.body, operatorMessages.enrolFailed);
    const done = await verifyEnrolment(ctx, relyingParty(ctx, request), body.token, body.response);
    return logIn(request, reply, done, 'operator_enrolled');
  });

  app.post('/ingreso/opciones', async (request): Promise<LoginOptionsResponse> => {
    refuseCrossSite(ctx, request);
    await limit(request, 'operator_login', LOGIN_LIMIT);
    const { challengeId, options } = await loginOptions(ctx, relyingParty(ctx, request));
    return { success: true, challengeId, options: { ...options } };
  });

  app.post('/ingreso/verificar', async (request, reply): Promise<SessionResponse> => {
    refuseCrossSite(ctx, request);
    await limit(request, 'operator_login', LOGIN_LIMIT);
    const body = parseOr400(loginVerifyRequest, request.body, operatorMessages.loginFailed);
    const rp = relyingParty(ctx, request);
    try {
      const done = await verifyLogin(ctx, rp, body.challengeId, body.response);
      return await logIn(request, reply, done, 'operator_login');
    } catch (err) {
      if (err instanceof HttpError && err.status === 401)
        request.log.info({ event: 'operator_login_refused' });
      throw err;
    }
  });

  app.get(
    '/sesion',
    { onRequest: app.requireOperator() },
    async (request): Promise<SessionResponse> => {
      const { usuario, nombre, rol } = request.operator!;
      return { success: true, operator: { usuario, nombre, rol } };
    },
  );

  app.post('/salir', async (request, reply) => {
    refuseCrossSite(ctx, request);
    await endOperatorSession(ctx, request.cookies[OPERATOR_SESSION_COOKIE]);
    clearSessionCookie(reply);
    return { success: true as const, message: operatorMessages.loggedOut };
  });
}

/**
 * The routes /alta/*, /ingreso/*, /sesion, /salir and the decorations `app.requireOperator` and
 * `request.operator`, shared with every plugin registered after it (fastify-plugin: not
 * encapsulated). It reads the session cookie, so @fastify/cookie comes first.
 */
export const operatorAuthPlugin: FastifyPluginAsync<{ ctx: AppContext }> = fp(
  async (app: FastifyInstance, opts: { ctx: AppContext }) => {
    app.decorateRequest('operator', null);
    app.decorate('requireOperator', operatorGuard(opts.ctx));
    // Said at start, not first at an operator's passkey call (which then answers 503).
    if (opts.ctx.operators.requireConfiguredOrigin && !opts.ctx.operators.origin)
      app.log.warn(
        { event: 'operator_origin_unset' },
        'Set PUBLIC_URL or OPERATOR_ORIGIN: the back office refuses passkeys without it',
      );
    await app.register(operatorAuthRoutes, { prefix: OPERATOR_API_PREFIX, ctx: opts.ctx });
  },
  { name: 'operator-auth', fastify: '5.x', dependencies: ['@fastify/cookie'] },
);
