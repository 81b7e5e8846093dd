import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  secondaryUseRequest,
  type DownloadResponse,
  type SecondaryUseResponse,
} from '../../contract/my-data-download';
import type { AppContext } from '../context';
import { HttpError, parseOr400 } from '../http/errors';
import { fetchDownload, purgeDownloads, requestDownload } from './download';
import { downloadMessages as m } from './download-messages';
import { readSecondaryUse, setSecondaryUse } from './secondary-use';

/** A token as the server makes them: 32 random bytes in base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The download (issue 45 item 2) and secondary uses (item 7), inside myDataRoutes (its prefix,
 * its session check). The link's token travels in the query: the request log writes the path only
 * (server/http/logging.ts), so no token and no file reaches a log.
 */
export function downloadRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  patientOf: (request: FastifyRequest) => Promise<string>,
): void {
  app.post('/descarga', async (request): Promise<DownloadResponse> =>
    requestDownload(ctx, await patientOf(request)),
  );

  app.get('/descarga', async (request, reply) => {
    const patientId = await patientOf(request);
    const token = (request.query as Record<string, unknown>).t;
    if (typeof token !== 'string' || !token) throw new HttpError(400, m.noToken);
    if (!TOKEN.test(token)) throw new HttpError(404, m.notFound);
    const { file, fileName } = await fetchDownload(ctx, patientId, token);
    return reply
      .header('cache-control', 'no-store')
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .send(file);
  });

  app.get('/usos-secundarios', async (request): Promise<SecondaryUseResponse> => ({
    success: true,
    ...(await readSecondaryUse(ctx.db, await patientOf(request))),
  }));

  app.post('/usos-secundarios', async (request): Promise<SecondaryUseResponse> => {
    const patientId = await patientOf(request);
    const { optedOut } = parseOr400(secondaryUseRequest, request.body, m.badSecondaryUse);
    return setSecondaryUse(ctx, patientId, optedOut);
  });

  // Expired links' files are deleted at each request and every link's lifetime, here.
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(
      () => void purgeDownloads(ctx).catch((err) => app.log.warn({ err }, 'download purge failed')),
      ctx.myDataDownload.linkMs,
    ).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
