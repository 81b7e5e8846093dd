import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  faceLoginFrameFields,
  faceLoginParts,
  faceLoginStartRequest,
  faceLoginStopRequest,
  KIOSK_DEVICE_COOKIE,
  kioskActivateRequest,
  type FaceLoginFrameResponse,
  type FaceLoginStartResponse,
  type FaceLoginStopResponse,
  type KioskActivateResponse,
} from '../../contract/face-login';
import type { AppContext } from '../context';
import { HttpError, parseOr400 } from '../http/errors';
import { messages } from '../http/messages';
import { identityMessages } from '../identity/errors';
import { identityOf } from '../identity/plugin';
import { answer } from '../identity/routes';
import { readUpload } from '../identity/upload';
import { consumeLimits } from '../security/rate-limits';
import type { FaceLoginConfig } from './config';
import { activateDevice, deviceOf } from './devices';
import { faceLoginMessages } from './messages';
import { createFaceLogin, type Caller } from './service';

type FaceLoginRoutesOptions = { ctx: AppContext; faceLogin: FaceLoginConfig };

const MINUTE = 60_000;

/** The operator's command that activates a kiosk (docs/operators.md, docs/face-login.md). */
export const KIOSK_ACTIVATION_COMMAND = 'npm run kiosk -- add "NOMBRE DEL DISPOSITIVO"';

/**
 * POST start, frame, stop under the configured prefix (default /api/liveness). Where a device
 * credential is required (production), only activated kiosk devices get in; limits are per device
 * (per client address without one).
 */
export async function faceLoginRoutes(app: FastifyInstance, opts: FaceLoginRoutesOptions) {
  const { ctx, faceLogin: cfg } = opts;
  // The app's identity engine (app.identity, decorated by identityPlugin): one model load per process.
  const engineOf = identityOf(app, 'faceLoginRoutes');
  await app.register(multipart, { limits: { fileSize: 32 * 1024 * 1024 } });
  const service = createFaceLogin({ db: ctx.db, engine: engineOf, config: cfg, log: app.log });

  const callers = new WeakMap<FastifyRequest, Caller>();
  app.addHook('preHandler', async (request) => {
    const device = await deviceOf(ctx.db, request.cookies[KIOSK_DEVICE_COOKIE]);
    if (!device && cfg.requireDevice) {
      // Patients read the answer ('Avisá al personal'); what the staff must do is in the log.
      request.log.warn(
        { event: 'kiosk_not_activated', fix: KIOSK_ACTIVATION_COMMAND },
        `face authentication refused: this device is not an activated kiosk; activate it with ${KIOSK_ACTIVATION_COMMAND} and open the printed link once in its browser`,
      );
      throw new HttpError(403, faceLoginMessages.deviceNotActivated);
    }
    callers.set(
      request,
      device
        ? { deviceId: device.id, key: `device:${device.id}` }
        : { deviceId: null, key: `ip:${request.ip}` },
    );
  });
  const callerOf = (request: FastifyRequest) => callers.get(request)!;
  const limit = (bucket: string, key: string, max: number) =>
    consumeLimits(ctx.db, [{ bucket, key, limits: [{ max, windowMs: MINUTE }] }], ctx.clock.now());

  app.post('/start', async (request): Promise<FaceLoginStartResponse> => {
    parseOr400(faceLoginStartRequest, request.body ?? {});
    const caller = callerOf(request);
    await limit('face_auth_start', caller.key, cfg.sessionsPerMinute);
    return answer(() => service.start(caller));
  });

  app.post('/frame', async (request): Promise<FaceLoginFrameResponse> => {
    const caller = callerOf(request);
    await limit('face_auth_frame', caller.key, cfg.framesPerMinute);
    const engine = await engineOf();
    const maxBytes = engine.config.maxUploadBytes;
    const upload = await readUpload(
      request,
      {
        [faceLoginParts.frame]: {
          max: 1,
          maxBytes,
          tooLarge: identityMessages.tooLarge.replace(
            '{mb}',
            String(Math.floor(maxBytes / (1024 * 1024)) || 1),
          ),
        },
      },
      messages.badRequest,
    );
    const fields = faceLoginFrameFields.safeParse(upload.fields);
    if (!fields.success) throw new HttpError(400, identityMessages.missingSession);
    const frame = upload.files[faceLoginParts.frame]?.[0];
    if (!frame?.length) throw new HttpError(400, identityMessages.missingFile);
    // The shared bounded queue of face work (server/identity/queue.ts): one device holds a bounded share.
    return answer(() =>
      engine.queues.face.run(() => service.frame(caller, fields.data.session_id, frame), {
        key: caller.key,
        priority: 'high',
      }),
    );
  });

  app.post('/stop', async (request): Promise<FaceLoginStopResponse> => {
    const body = parseOr400(faceLoginStopRequest, request.body);
    return service.stop(callerOf(request), body.session_id);
  });
}

/** POST /api/kiosk/activate { token }: spends a one-time activation link, sets the device cookie. */
export async function kioskRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext; faceLogin: FaceLoginConfig },
) {
  const { ctx, faceLogin: cfg } = opts;
  app.post('/activate', async (request, reply: FastifyReply): Promise<KioskActivateResponse> => {
    const { token } = parseOr400(
      kioskActivateRequest,
      request.body,
      faceLoginMessages.activationInvalid,
    );
    await consumeLimits(
      ctx.db,
      [{ bucket: 'kiosk_activate', key: request.ip, limits: [{ max: 10, windowMs: 10 * MINUTE }] }],
      ctx.clock.now(),
    );
    const done = await activateDevice(ctx.db, token);
    if (!done) throw new HttpError(400, faceLoginMessages.activationInvalid);
    reply.setCookie(KIOSK_DEVICE_COOKIE, done.deviceToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.config.session.cookieSecure ?? request.protocol === 'https',
      path: '/',
      maxAge: cfg.deviceCookieMaxAgeS,
    });
    request.log.info({ event: 'kiosk_activated', device: done.device.id });
    return { success: true, message: faceLoginMessages.activated, device: done.device.name };
  });
}
