import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import {
  bindKycRequest,
  documentCheckRequest,
  forgetRegistrationRequest,
  onboardingPaths,
  openLinkRequest,
  REGISTRATION_COOKIE,
  registerRequest,
  registrationStatusRequest,
  resendOtpRequest,
  savePinRequest,
  sendLinkRequest,
  sendLinkResponse,
  startRequest,
  validateOtpRequest,
  type CurrentRegistrationResponse,
  type DocumentCheckResponse,
  type OpenLinkResponse,
  type RegisterResponse,
  type RegistrationStatusResponse,
  type ResendOtpResponse,
  type StartResponse,
  type ValidateOtpResponse,
} from '../../contract/onboarding';
import { REGISTRATION_TOKEN_PATTERN, type ResultResponse } from '../../contract/common';
import { normalizeParaguayPhone } from '../../contract/phone';
import type { AppContext } from '../context';
import { geoRoutes } from '../geo/routes';
import { HttpError, parseBody } from '../http/errors';
import { messages } from '../http/messages';
import { onboardingMessages as m } from './messages';
import { bindKycSession, isDocumentRegistered } from './draft-kyc';
import { savePin } from './drafts';
import { expireLinks, openLink, registrationStage, sendLink } from './registration';
import { currentRegistration, deviceTokenExpiry, forgetDevice } from './registration-device';
import {
  registerPatient,
  sendOnboardingCode,
  validateOnboardingCode,
  type SendOutcome,
} from './service';

/** The contract accepted the phone, so it normalises. */
const local = (phone: string) => normalizeParaguayPhone(phone) as string;
const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * POST /start, /validate-otp, /resend-otp, /register,
 * /registration/{pin,kyc,link,open,status,forget};
 * GET /registration/current, /departments, /cities/:departmentId.
 */
export async function onboardingRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  const { ctx } = opts;

  /**
   * The registration's device token, also as a cookie (issue 43 item 8): HttpOnly (no script reads
   * it), SameSite=Strict (no other site's page or link sends it), Secure as the session's, sent to
   * GET registration/current only (its path) and dying with the token. It is the same bearer token
   * the page holds, never a second credential: every other call still names the registration by
   * the token in its body, so a cookie alone changes nothing.
   */
  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.config.session.cookieSecure ?? request.protocol === 'https',
    path: onboardingPaths.current,
  });
  async function keepRegistration(request: FastifyRequest, reply: FastifyReply, token: string) {
    const expiresAt = await deviceTokenExpiry(ctx, token);
    if (!expiresAt) return;
    reply.setCookie(REGISTRATION_COOKIE, token, {
      ...cookieOptions(request),
      maxAge: Math.max(1, Math.floor((expiresAt.getTime() - ctx.clock.now()) / 1000)),
    });
  }
  /** The registration ended (completed, the patient exists) or its token is dead: the cookie goes. */
  const forgetRegistration = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(REGISTRATION_COOKIE, cookieOptions(request));

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

  app.post('/validate-otp', async (request, reply): Promise<ValidateOtpResponse> => {
    const body = parseBody(
      validateOtpRequest,
      request.body,
      { celular: m.badPhone, otp: m.badOtp },
      m.badOtp,
    );
    const registration = await validateOnboardingCode(ctx, {
      celular: local(body.celular),
      otp: body.otp,
      clientIp: request.ip,
    });
    request.log.info(
      { event: 'onboarding.otp', ok: registration !== null, resumeAt: registration?.resumeAt },
      'onboarding',
    );
    if (!registration) throw new HttpError(401, m.wrongOtp);
    await keepRegistration(request, reply, registration.token);
    return { success: true, message: m.otpOk, registration };
  });

  // Resuming and continuing on the phone (issue 18): every call names its registration by token.
  const tokenFields = { registrationToken: m.registrationGone };

  app.post('/registration/pin', async (request): Promise<ResultResponse> => {
    const body = parseBody(
      savePinRequest,
      request.body,
      { ...tokenFields, pin: m.badPin, email: m.badEmail },
      messages.badRequest,
    );
    await savePin(ctx, {
      token: body.registrationToken,
      pin: body.pin,
      email: body.email || null,
      termsVersion: body.termsVersion,
      privacyVersion: body.privacyVersion,
    });
    return { success: true };
  });

  app.post('/registration/kyc', async (request): Promise<ResultResponse> => {
    const body = parseBody(bindKycRequest, request.body, tokenFields, messages.badRequest);
    await bindKycSession(ctx, { token: body.registrationToken, sessionId: body.sessionId });
    return { success: true };
  });

  app.post('/registration/link', async (request): Promise<z.input<typeof sendLinkResponse>> => {
    const body = parseBody(sendLinkRequest, request.body, tokenFields, messages.badRequest);
    const sent = await sendLink(ctx, {
      token: body.registrationToken,
      clientIp: request.ip,
      // Without ONBOARDING_PUBLIC_URL: the address called, over HTTPS in production (a phone's
      // camera needs a secure context, and TLS may end at a proxy that does not say so).
      origin: `${ctx.config.env === 'production' ? 'https' : request.protocol}://${request.host}`,
    });
    request.log.info({ event: 'onboarding.link', outcome: 'sent' }, 'onboarding');
    // The link travels only in the SMS (issue 29 item 4): whoever holds the registration's token
    // on this device must not get the phone's one-time link with it.
    return {
      success: true,
      message: m.linkSent,
      expiresInSeconds: seconds(sent.expiresInMs),
      resendAfterSeconds: seconds(sent.resendAfterMs),
    };
  });

  app.post('/registration/open', async (request, reply): Promise<OpenLinkResponse> => {
    const body = parseBody(openLinkRequest, request.body, {}, m.badLink);
    const registration = await openLink(ctx, { linkToken: body.linkToken, clientIp: request.ip });
    request.log.info(
      { event: 'onboarding.link-open', resumeAt: registration.resumeAt },
      'onboarding',
    );
    await keepRegistration(request, reply, registration.token);
    return { success: true, registration };
  });

  // A reload (issue 43 item 8): the registration this browser's cookie names, where it continues.
  // Read-only, and the cookie is SameSite=Strict: no other site can make a browser send it. A dead
  // token (completed, expired, proved again elsewhere) answers none and the cookie goes.
  app.get('/registration/current', async (request, reply): Promise<CurrentRegistrationResponse> => {
    const token = request.cookies[REGISTRATION_COOKIE];
    if (token === undefined) return { success: true, registration: null };
    const current = REGISTRATION_TOKEN_PATTERN.test(token)
      ? await currentRegistration(ctx, token)
      : null;
    request.log.info(
      { event: 'onboarding.current', resumeAt: current?.registration.resumeAt ?? null },
      'onboarding',
    );
    if (!current) {
      forgetRegistration(request, reply);
      return { success: true, registration: null };
    }
    // The cookie lives as long as the token does (an open case extends both).
    await keepRegistration(request, reply, token);
    return { success: true, registration: current.registration };
  });

  app.post('/registration/document', async (request): Promise<DocumentCheckResponse> => {
    const body = parseBody(documentCheckRequest, request.body, tokenFields, messages.badRequest);
    const registered = await isDocumentRegistered(ctx, {
      token: body.registrationToken,
      sessionId: body.sessionId,
    });
    request.log.info({ event: 'onboarding.document-check', registered }, 'onboarding');
    return { success: true, registered };
  });

  // The patient left the wizard (a back or cancel home): on a shared computer the next person must
  // not find the registration here. The token in the body, never the cookie alone, names it.
  app.post('/registration/forget', async (request, reply): Promise<ResultResponse> => {
    const body = parseBody(
      forgetRegistrationRequest,
      request.body,
      tokenFields,
      messages.badRequest,
    );
    await forgetDevice(ctx, body.registrationToken);
    forgetRegistration(request, reply);
    request.log.info({ event: 'onboarding.forget' }, 'onboarding');
    return { success: true };
  });

  app.post('/registration/status', async (request, reply): Promise<RegistrationStatusResponse> => {
    const body = parseBody(
      registrationStatusRequest,
      request.body,
      tokenFields,
      m.registrationGone,
    );
    const stage = await registrationStage(ctx, body.registrationToken);
    // The phone finished it: this device (the one that followed it) holds nothing to continue.
    if (stage === 'completed') forgetRegistration(request, reply);
    return { success: true, stage };
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
        registrationToken: m.registrationGone,
      },
      messages.badRequest,
    );
    const outcome = await registerPatient(ctx, ctx.kyc, {
      token: body.registrationToken,
      celular: local(body.phone),
      email: body.email || null,
      pin: body.pin ?? null,
      sessionId: body.sessionId,
      supplementary: body.supplementaryData,
    });
    // The wizard ends either way: nothing for a reload to continue.
    forgetRegistration(request, reply);
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

/**
 * Development only (app.ts never registers it in production): POST
 * /api/dev/registration/expire-links {celular}: that mobile's registration links expire now (the
 * e2e's 'link after expiry').
 */
export async function devOnboardingRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  app.post<{ Body: { celular?: unknown } }>('/registration/expire-links', async (request) => {
    const raw = request.body?.celular;
    const celular = typeof raw === 'string' ? normalizeParaguayPhone(raw) : null;
    if (!celular) throw new HttpError(400, 'Indicá un número de celular válido.');
    await expireLinks(opts.ctx, celular);
    return { success: true };
  });
}
