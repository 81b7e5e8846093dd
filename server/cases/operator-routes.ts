import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  codeLookupRequest,
  CORRECTABLE_FIELDS,
  correctFieldRequest,
  decisionRequest,
  type ClaimResponse,
  type CorrectFieldRequest,
  type QueueResponse,
} from '../../contract/operators';
import type { ResultResponse } from '../../contract/common';
import type { AppContext } from '../context';
import { HttpError, parseBody } from '../http/errors';
import type { IdentityEngine } from '../identity/engine';
import { identityOf } from '../identity/plugin';
import { caseMessages as m } from './messages';
import {
  caseDetail,
  caseImage,
  claimNext,
  correctField,
  decide,
  deskPhoto,
  lookupCode,
  queue,
  releaseCase,
  type CaseOperator,
} from './operator';

type Options = {
  ctx: AppContext;
  /** The identity engine for the desk photo (default: the app's, app.identity). */
  engine?: () => Promise<Pick<IdentityEngine, 'analyze' | 'config'>>;
};

/** The operator requireOperator let through (request.operator, decorated by operatorAuthPlugin). */
function operatorOf(request: FastifyRequest): CaseOperator {
  if (!request.operator) throw new HttpError(401, m.loginRequired);
  return request.operator;
}

type IdParams = { Params: { id: string } };

/**
 * A correction by its field's schema (contract/case-fields.ts): a value its field's rule refuses
 * says which rule (400); no field, an unknown one or no reason, the general sentence.
 */
function parseCorrection(body: unknown): CorrectFieldRequest {
  const parsed = correctFieldRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const field = (body as { field?: unknown } | null)?.field;
  const onlyValue = parsed.error.issues.every((i) => i.path[0] === 'value');
  if (onlyValue && (CORRECTABLE_FIELDS as readonly unknown[]).includes(field))
    throw new HttpError(400, m.badValue[field as CorrectFieldRequest['field']]);
  throw new HttpError(400, m.badField);
}

/**
 * The back office's case routes (issue 30), under /api/operador: GET /casos, POST /casos/tomar,
 * GET /casos/:id, GET /casos/:id/imagen/:image, POST /casos/:id/campos, /casos/:id/decision,
 * /casos/:id/soltar, /casos/:id/foto (image/jpeg), /codigos. Every route runs the app's
 * requireOperator (both roles; the supervisor rules are the case's own).
 */
async function caseRoutesForOperators(app: FastifyInstance, opts: Options): Promise<void> {
  const { ctx } = opts;
  const engine = opts.engine ?? identityOf(app, 'operatorCaseRoutes');
  // The session is checked on the request's headers, before any body is read or parsed: nobody
  // without one gets a JSON body or an 8 MB desk photo read (issue 42 item 3).
  app.addHook('onRequest', app.requireOperator());
  app.addContentTypeParser(
    'image/jpeg',
    { parseAs: 'buffer', bodyLimit: ctx.identitySettings.maxUploadBytes },
    (_request, body, done) => done(null, body),
  );
  // Nothing a case route answers may be kept by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/casos', async (request): Promise<QueueResponse> => queue(ctx, operatorOf(request)));

  app.post('/casos/tomar', async (request): Promise<ClaimResponse> => {
    const caseId = await claimNext(ctx, operatorOf(request));
    request.log.info({ event: 'cases.claim', caseId }, 'cases');
    return { success: true, caseId };
  });

  app.get<IdParams>('/casos/:id', async (request) => ({
    success: true as const,
    case: await caseDetail(ctx, operatorOf(request), request.params.id),
  }));

  app.get<{ Params: { id: string; image: string } }>(
    '/casos/:id/imagen/:image',
    async (request, reply) => {
      const bytes = await caseImage(
        ctx,
        operatorOf(request),
        request.params.id,
        request.params.image,
      );
      return reply.type('image/jpeg').send(bytes);
    },
  );

  app.post<IdParams>('/casos/:id/campos', async (request): Promise<ResultResponse> => {
    const body = parseCorrection(request.body);
    await correctField(ctx, operatorOf(request), request.params.id, body);
    return { success: true };
  });

  app.post<IdParams>('/casos/:id/decision', async (request) => {
    const body = parseBody(decisionRequest, request.body, {}, m.badDecision);
    const outcome = await decide(ctx, operatorOf(request), request.params.id, body, {
      origin: `${ctx.config.env === 'production' ? 'https' : request.protocol}://${request.host}`,
      clientIp: request.ip,
    });
    request.log.info({ event: 'cases.decision', caseId: request.params.id, outcome }, 'cases');
    return { success: true as const, outcome };
  });

  app.post<IdParams>('/casos/:id/soltar', async (request): Promise<ResultResponse> => {
    await releaseCase(ctx, operatorOf(request), request.params.id);
    return { success: true };
  });

  app.post('/codigos', async (request) => {
    const body = parseBody(codeLookupRequest, request.body, { code: m.badCode }, m.badCode);
    const caseId = await lookupCode(ctx, operatorOf(request), body.code);
    return { success: true as const, caseId };
  });

  app.post<IdParams>('/casos/:id/foto', async (request) => {
    if (!Buffer.isBuffer(request.body)) throw new HttpError(415, m.deskNotJpeg);
    return deskPhoto(ctx, operatorOf(request), request.params.id, request.body, engine);
  });
}

/**
 * The case routes as a plugin of their own (encapsulated: their hooks and JPEG parser stay under
 * their prefix) that needs operatorAuthPlugin's decorations, checked by fastify-plugin at start.
 */
export const operatorCaseRoutes = fp(caseRoutesForOperators, {
  name: 'operator-cases',
  fastify: '5.x',
  dependencies: ['operator-auth'],
  decorators: { fastify: ['requireOperator'], request: ['operator'] },
  encapsulate: true,
});
