import type { FastifyInstance } from 'fastify';
import { normalizeParaguayPhone } from '../../contract/phone';
import {
  RECOVERY_GRANT_COOKIE,
  sendPinOtpRequest,
  setNewPinRequest,
  validatePinOtpRequest,
  type SendPinOtpResponse,
  type SetNewPinResponse,
  type ValidatePinOtpResponse,
} from '../../contract/recovery';
import type { AppContext } from '../context';
import { HttpError, parseBody } from '../http/errors';
import { recoveryMessages as m } from './messages';
import {
  recoveryIdle,
  requestRecoveryCode,
  setRecoveredPin,
  validateRecoveryCode,
} from './service';

/** The contract accepted the mobile, so it normalises (9XXXXXXXX becomes 09XXXXXXXX). */
const local = (celular: string) => normalizeParaguayPhone(celular) as string;
const COOKIE_PATH = '/api/auth';

/**
 * POST /send-pin-otp, /validate-pin-otp, /set-new-pin under /api/auth (spec 7, issue 8).
 * Step 1's resend is send-pin-otp again with the same document and mobile.
 */
export async function recoveryRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  const { ctx } = opts;
  const secure = (protocol: string) => ctx.config.session.cookieSecure ?? protocol === 'https';
  const fields = { numero_documento: m.badDocument, celular: m.badCelular };

  // A closing server first hands over the SMS it promised.
  app.addHook('onClose', async () => recoveryIdle(ctx));

  app.post('/send-pin-otp', async (request, reply): Promise<SendPinOtpResponse> => {
    const body = parseBody(sendPinOtpRequest, request.body, fields, m.badDocument);
    const { resendAfterMs, afterAnswer } = await requestRecoveryCode(ctx, request.log, {
      documento: body.numero_documento,
      celular: local(body.celular),
      clientIp: request.ip,
    });
    // The same task for every input, some time after this answer has left (requestRecoveryCode).
    afterAnswer(
      new Promise<void>((resolve) => {
        const gone = () => setImmediate(resolve);
        reply.raw.once('finish', gone);
        reply.raw.once('close', gone);
      }),
    );
    // One answer for every document and mobile: nothing here says whether they matched.
    request.log.info({ event: 'recovery.send' }, 'recovery');
    return {
      success: true,
      message: m.codeSent,
      resendAfterSeconds: Math.ceil(resendAfterMs / 1000),
    };
  });

  app.post('/validate-pin-otp', async (request, reply): Promise<ValidatePinOtpResponse> => {
    const body = parseBody(
      validatePinOtpRequest,
      request.body,
      { ...fields, otp: m.badOtp },
      m.badOtp,
    );
    const granted = await validateRecoveryCode(ctx, {
      documento: body.numero_documento,
      celular: local(body.celular),
      otp: body.otp,
      clientIp: request.ip,
    });
    request.log.info({ event: 'recovery.validate', ok: granted !== null }, 'recovery');
    if (!granted) throw new HttpError(401, m.wrongOtp);
    reply.setCookie(RECOVERY_GRANT_COOKIE, granted.grant, {
      httpOnly: true,
      sameSite: 'strict',
      secure: secure(request.protocol),
      path: COOKIE_PATH,
      maxAge: Math.floor(ctx.recovery.grantTtlMs / 1000),
    });
    return { success: true, message: m.otpOk };
  });

  app.post('/set-new-pin', async (request, reply): Promise<SetNewPinResponse> => {
    const body = parseBody(
      setNewPinRequest,
      request.body,
      { numero_documento: m.badDocument, pin: m.badPin },
      m.badPin,
    );
    const { patientId } = await setRecoveredPin(ctx, request.log, {
      documento: body.numero_documento,
      pin: body.pin,
      grant: request.cookies[RECOVERY_GRANT_COOKIE],
    });
    reply.clearCookie(RECOVERY_GRANT_COOKIE, { path: COOKIE_PATH });
    request.log.info({ event: 'recovery.pin_changed', patientId }, 'recovery');
    return { success: true, message: m.pinChanged };
  });
}
