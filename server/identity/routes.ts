import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  identityParts,
  kycRejectRequest,
  livenessFields,
  livenessMeta,
  scanIdFields,
  type LivenessMeta,
  type KycRejectResponse,
  type LivenessResponse,
  type ScanIdResponse,
  type StartKycResponse,
} from '../../contract/identity';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { messages } from '../http/messages';
import { IdentityError, identityMessages } from './errors';
import { startDuplicateCheck } from './duplicates-face';
import { withFraming } from './gates';
import { identityOf } from './plugin';
import { QueueFullError } from './queue';
import { readUpload } from './upload';
import { consumeLimits } from '../security/rate-limits';

type IdentityRoutesOptions = { ctx: { db: Db } };

/**
 * IdentityError -> HttpError (status, Spanish message and, for a session refusal, its reason code); a full work queue -> 503 with Retry-After;
 * anything else propagates (500, logged).
 */
export async function answer<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof IdentityError) throw new HttpError(err.status, err.message, {}, err.reason);
    if (err instanceof QueueFullError)
      throw new HttpError(503, identityMessages.busy, {
        'retry-after': String(err.retryAfterSeconds),
      });
    throw err;
  }
}

/**
 * The /liveness `meta` field (issue 31): JSON of the frames' tags and the camera. Absent: null (the
 * engine refuses it for a challenge session); present but unreadable: 400.
 */
function parseMeta(raw: string | undefined): LivenessMeta | null {
  if (raw === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new HttpError(400, identityMessages.metaMissing);
  }
  const meta = livenessMeta.safeParse(json);
  if (!meta.success) throw new HttpError(400, identityMessages.metaMissing);
  return meta.data;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** GET /identity-status, POST /start-kyc, /liveness, /scan-id, /kyc-reject (prefix /api/onboarding). */
export async function identityRoutes(
  app: FastifyInstance,
  opts: IdentityRoutesOptions,
): Promise<void> {
  const { ctx } = opts;
  // The app's engine (app.identity, decorated by identityPlugin): shared with face authentication.
  const engineOf = identityOf(app, 'identityRoutes');
  await app.register(multipart, { limits: { fileSize: 32 * 1024 * 1024 } });

  // 200 once the engine answers, 503 'El servicio está iniciando' (Retry-After) while it warms up:
  // for readiness checks and the e2e server wait.
  app.get('/identity-status', async () => {
    await engineOf();
    return { success: true, ready: true };
  });

  app.post('/start-kyc', async (request): Promise<StartKycResponse> => {
    const e = await engineOf();
    const b = e.config.bounds;
    await consumeLimits(
      ctx.db,
      [
        {
          bucket: 'kyc-start',
          key: request.ip,
          limits: [
            { max: b.startPerAddressMinute, windowMs: MINUTE },
            { max: b.startPerAddressHour, windowMs: HOUR },
          ],
        },
      ],
      Date.now(),
    );
    const { sessionId } = await answer(() => e.startSession(ctx.db));
    return {
      success: true,
      session_id: sessionId,
      liveness_seconds: Math.round(e.config.liveness.timeLimitMs / 1000),
      challenge: e.config.liveness.challenge,
    };
  });

  app.post('/liveness', async (request): Promise<LivenessResponse> => {
    const engine = await engineOf();
    const { maxFrames, maxFrameBytes } = engine.config.liveness;
    const upload = await readUpload(
      request,
      {
        [identityParts.frame]: {
          max: maxFrames,
          maxBytes: maxFrameBytes,
          tooLarge: identityMessages.frameTooLarge.replace(
            '{kb}',
            String(Math.floor(maxFrameBytes / 1024)),
          ),
        },
      },
      identityMessages.tooManyFrames.replace('{n}', String(maxFrames)),
    );
    const fields = livenessFields.safeParse(upload.fields);
    if (!fields.success) throw new HttpError(400, identityMessages.missingSession);
    const frames = upload.files[identityParts.frame] ?? [];
    if (!frames.length || frames.some((f) => !f.length))
      throw new HttpError(400, identityMessages.missingFile);
    const meta = parseMeta(fields.data.meta);
    // A patient already in a session: high priority; one address holds a bounded share of the
    // workers and a frame budget per minute (keyed like face authentication's, `ip:`).
    const result = await answer(() =>
      engine.queues.face.run(
        () => engine.livenessFrames(ctx.db, fields.data.session_id, frames, { meta }),
        {
          key: `ip:${request.ip}`,
          priority: 'high',
          cost: frames.length,
        },
      ),
    );
    // The gates the last frame failed go by code (issue 41): the page says them on the oval.
    return withFraming(result);
  });

  app.post('/scan-id', async (request): Promise<ScanIdResponse> => {
    const engine = await engineOf();
    // Counted before the upload is read: a flood is refused before it costs parsing or OCR.
    await consumeLimits(
      ctx.db,
      [
        {
          bucket: 'kyc-scan',
          key: request.ip,
          limits: [{ max: engine.config.bounds.scanPerAddressHour, windowMs: HOUR }],
        },
      ],
      Date.now(),
    );
    const maxBytes = engine.config.maxUploadBytes;
    const image = {
      max: 1,
      maxBytes,
      tooLarge: identityMessages.tooLarge.replace(
        '{mb}',
        String(Math.floor(maxBytes / (1024 * 1024)) || 1),
      ),
    };
    const upload = await readUpload(
      request,
      { [identityParts.front]: image, [identityParts.back]: image },
      messages.badRequest,
    );
    const fields = scanIdFields.safeParse(upload.fields);
    if (!fields.success) throw new HttpError(400, identityMessages.missingSession);
    // Both sides, or only the one repeated on a session that keeps the other (issue 30): the
    // engine says 'Falta la imagen' when the front is neither sent nor kept.
    const front = upload.files[identityParts.front]?.[0];
    const back = upload.files[identityParts.back]?.[0];
    if (!front?.length && !back?.length) throw new HttpError(400, identityMessages.missingFile);
    // celular and pin are accepted (the browser sends them) but not used or stored here:
    // registration takes them in its own call.
    return answer(async () => {
      try {
        // The session is checked (and a second scan of it refused) before the queue: only the
        // portrait and the OCR wait for the document reader.
        const scanned = await engine.scanDocument(
          ctx.db,
          fields.data.session_id,
          { front: front?.length ? front : undefined, back: back?.length ? back : undefined },
          { run: (task) => engine.queues.document.run(task, { key: request.ip }) },
        );
        // The session passed: its face is searched among the enrolled ones in the background
        // (issue 44 item 3); registration reads the result and searches what came after.
        if (scanned.kyc_complete)
          void startDuplicateCheck(
            ctx.db,
            fields.data.session_id,
            engine.config.duplicateFaceThreshold,
            engine.duplicateSearch,
          ).catch((err: unknown) =>
            request.log.warn({ err: (err as Error).name }, 'face_duplicate_check_failed'),
          );
        return scanned;
      } catch (err) {
        // Session problems are answered in the body too, so the browser can match 'session expired'.
        if (
          err instanceof IdentityError &&
          (err.code === 'session_expired' ||
            err.code === 'session_invalid' ||
            err.code === 'attempts_exhausted')
        ) {
          return { success: false, kyc_complete: false, error: err.message, reason: err.code };
        }
        throw err;
      }
    });
  });

  app.post('/kyc-reject', async (request): Promise<KycRejectResponse> => {
    const body = kycRejectRequest.safeParse(request.body);
    if (!body.success) throw new HttpError(400, messages.badRequest);
    const engine = await engineOf();
    await answer(() => engine.rejectKyc(ctx.db, body.data.session_id, body.data.reason));
    return { success: true };
  });
}
