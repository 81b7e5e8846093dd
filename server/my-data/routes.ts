import type { FastifyInstance } from 'fastify';
import type { AccessesResponse, MyDataResponse } from '../../contract/my-data';
import type { AppContext } from '../context';
import { correctionRoutes } from './corrections';
import { deletionRoutes } from './deletion-routes';
import { downloadRoutes } from './download-routes';
import { myFaceRoutes } from './face-routes';
import { accessesOf, myData } from './service';
import { sessionPatient } from './session';

/**
 * 'Mis datos' (issue 45), under /api/mis-datos, for the patient of the live session only: nothing
 * in a path or a query names a patient, so no one reads another's rows.
 */
export async function myDataRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const patientOf = sessionPatient(ctx);

  app.get('/', async (request): Promise<MyDataResponse> => myData(ctx, await patientOf(request)));

  // 'Mi rostro' (issue 45 item 4): its own routes file.
  await app.register(myFaceRoutes, { ctx, prefix: '/rostro' });

  app.get('/accesos', async (request): Promise<AccessesResponse> =>
    accessesOf(ctx, await patientOf(request)),
  );

  // The download (item 2) and secondary uses (item 7).
  downloadRoutes(app, ctx, patientOf);
  // 'Eliminar mi cuenta' (item 6): its own routes and job.
  await app.register(deletionRoutes, { ctx });
  // 'Corregir' (item 5): a request is a case a person decides.
  correctionRoutes(app, ctx, patientOf);
}
