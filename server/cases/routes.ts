import type { FastifyInstance } from 'fastify';
import {
  caseStatusRequest,
  openCaseRequest,
  type CaseStatusResponse,
  type CentresResponse,
  type OpenCaseResponse,
} from '../../contract/cases';
import type { AppContext } from '../context';
import { parseBody } from '../http/errors';
import { messages } from '../http/messages';
import { onboardingMessages } from '../onboarding/messages';
import { caseStatusOf, openCase } from './patient';
import { purgeCases } from './retention';

/**
 * The patient's side of assisted verification (issue 30), under /api/onboarding: POST
 * /registration/case, /registration/case/status; GET /centros. And the retention job: at start,
 * then every CASES_PURGE_MINUTES (each process runs it; it is idempotent).
 */
export async function caseRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const tokenFields = { registrationToken: onboardingMessages.registrationGone };

  app.post('/registration/case', async (request): Promise<OpenCaseResponse> => {
    const body = parseBody(openCaseRequest, request.body, tokenFields, messages.badRequest);
    const opened = await openCase(ctx, {
      token: body.registrationToken,
      kind: body.kind,
      trigger: body.trigger,
      step: body.step,
      clientIp: request.ip,
      claim: body.claim,
    });
    request.log.info(
      { event: 'cases.open', kind: opened.case.kind, trigger: opened.case.trigger },
      'cases',
    );
    return {
      success: true,
      case: opened.case,
      ...(opened.message ? { message: opened.message } : {}),
    };
  });

  app.post('/registration/case/status', async (request): Promise<CaseStatusResponse> => {
    const body = parseBody(caseStatusRequest, request.body, tokenFields, messages.badRequest);
    return { success: true, case: await caseStatusOf(ctx, body.registrationToken) };
  });

  app.get('/centros', async (): Promise<CentresResponse> => ctx.cases.centres);

  let interval: NodeJS.Timeout | null = null;
  const purge = () =>
    purgeCases(ctx)
      .then((outcome) => {
        if (outcome.expired || outcome.purged)
          app.log.info({ event: 'cases.purge', ...outcome }, 'cases');
      })
      .catch((err: unknown) => app.log.warn({ event: 'cases_purge_failed', error: String(err) }));
  app.addHook('onReady', async () => {
    void purge();
    interval = setInterval(() => void purge(), ctx.cases.purgeEveryMs).unref();
  });
  app.addHook('onClose', async () => {
    if (interval) clearInterval(interval);
  });
}
