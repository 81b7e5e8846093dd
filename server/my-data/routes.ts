import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessesResponse, MyDataResponse } from '../../contract/my-data';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { SESSION_COOKIE, touchSession } from '../session/service';
import { downloadRoutes } from './download-routes';
import { deletionRoutes } from './deletion-routes';
import { myDataMessages } from './messages';
import { accessesOf, myData } from './service';

/**
 * 'Mis datos' (issue 45), under /api/mis-datos, for the patient of the live session only: nothing
 * in a path or a query names a patient, so no one reads another's rows.
 */
export async function myDataRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const patientOf = async (request: FastifyRequest) => {
    const session = await touchSession(ctx, request.cookies[SESSION_COOKIE]);
    if (!session) throw new HttpError(401, myDataMessages.noSession);
    return session.patientId;
  };

  app.get('/', async (request): Promise<MyDataResponse> => myData(ctx, await patientOf(request)));

  app.get('/accesos', async (request): Promise<AccessesResponse> =>
    accessesOf(ctx, await patientOf(request)),
  );

  // The download (item 2) and secondary uses (item 7).
  downloadRoutes(app, ctx, patientOf);
  // 'Eliminar mi cuenta' (item 6): its own routes and job.
  await app.register(deletionRoutes, { ctx });
}
