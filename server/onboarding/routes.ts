import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  registerRequest,
  resendOtpRequest,
  startRequest,
  validateOtpRequest,
  type RegisterResponse,
  type ResendOtpResponse,
  type StartResponse,
  type ValidateOtpResponse,
} from '../../contract/onboarding';
import { normalizeParaguayPhone } from '../../contract/phone';
import type { AppContext } from '../context';
import { geoRoutes } from '../geo/routes';
import { HttpError } from '../http/errors';
import { messages } from '../http/messages';
import { onboardingMessages as m } from './messages';
import {
  registerPatient,
  sendOnboardingCode,
  validateOnboardingCode,
  type SendOutcome,
} from './service';

type Schema<T> = {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[] }[] } };
};

/** Validates a body against its contract schema; the 400's message names the first bad field. */
export function parseBody<T>(
  schema: Schema<T>,
  body: unknown,
  byField: Record<string, string>,
  fallback: string,
): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const field = r.error.issues[0]?.path[0];
  throw new HttpError(400, (typeof field === 'string' && byField[field]) || fallback);
}

/** The contract accepted the phone, so it normalises. */
const local = (phone: string) => normalizeParaguayPhone(phone) as string;
const seconds = (ms: number) => Math.ceil(ms / 1000);

/** POST /start, /validate-otp, /resend-otp, /register; GET /departments, /cities/:departmentId. */
export async function onboardingRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  const { ctx } = opts;

  function answerSend(reply: FastifyReply, outcome: SendOutcome, sent: string, failed: string) {
    if (outcome.kind === 'exists') {
      return reply
        .status(409)
        .send({ success: false, message: m.phoneExists, onboardingComplete: true });
    }
    if (outcome.kind === 'failed')
      return reply.status(502).send({ success: false, message: failed });
    return { success: true, message: sent, resendAfterSeconds: seconds(outcome.resendAfterMs) };
  }

  app.post('/start', async (request, reply): Promise<StartResponse> => {
    const body = parseBody(
      startRequest,
      request.body,
      { phone: m.badPhone, email: m.badEmail },
      m.badPhone,
    );
    const outcome = await sendOnboardingCode(ctx, {
      celular: local(body.phone),
      clientIp: request.ip,
    });
    request.log.info({ event: 'onboarding.start', outcome: outcome.kind }, 'onboarding');
    return answerSend(reply, outcome, m.codeSent, m.sendFailed);
  });

  app.post('/resend-otp', async (request, reply): Promise<ResendOtpResponse> => {
    const body = parseBody(resendOtpRequest, request.body, {}, m.badPhone);
    const outcome = await sendOnboardingCode(ctx, {
      celular: local(body.celular),
      clientIp: request.ip,
    });
    request.log.info({ event: 'onboarding.resend', outcome: outcome.kind }, 'onboarding');
    return answerSend(reply, outcome, m.codeResent, m.resendFailed);
  });

  app.post('/validate-otp', async (request): Promise<ValidateOtpResponse> => {
    const body = parseBody(
      validateOtpRequest,
      request.body,
      { celular: m.badPhone, otp: m.badOtp },
      m.badOtp,
    );
    const ok = await validateOnboardingCode(ctx, { celular: local(body.celular), otp: body.otp });
    request.log.info({ event: 'onboarding.otp', ok }, 'onboarding');
    if (!ok) throw new HttpError(401, m.wrongOtp);
    return { success: true, message: m.otpOk };
  });

  app.post('/register', async (request, reply): Promise<RegisterResponse> => {
    const body = parseBody(
      registerRequest,
      request.body,
      {
        phone: m.badPhone,
        email: m.badEmail,
        pin: m.badPin,
        supplementaryData: m.badSupplementary,
      },
      messages.badRequest,
    );
    const outcome = await registerPatient(ctx, ctx.kyc, {
      celular: local(body.phone),
      email: body.email || null,
      pin: body.pin,
      sessionId: body.sessionId,
      supplementary: body.supplementaryData,
    });
    if (outcome.kind === 'exists') {
      request.log.info({ event: 'onboarding.register', outcome: 'exists' }, 'onboarding');
      return reply
        .status(409)
        .send({ success: false, message: m.documentExists, onboardingComplete: true });
    }
    request.log.info(
      { event: 'onboarding.register', patientId: outcome.patientId, repeated: outcome.repeated },
      'onboarding',
    );
    return { success: true, message: m.registered };
  });

  await app.register(geoRoutes, { ctx });
}
