import type { FastifyInstance } from 'fastify';
import {
  deletionCodeRequest,
  deletionConfirmRequest,
  type DeletionCodeResponse,
  type DeletionStatusResponse,
} from '../../contract/my-data-deletion';
import type { AppContext } from '../context';
import { parseBody } from '../http/errors';
import { askDeletionCode, cancelDeletion, confirmDeletion, pendingDeletion } from './deletion';
import { startDeletionJob } from './deletion-job';
import { deletionMessages as m } from './deletion-messages';
import { sessionPatient } from './session';

/**
 * 'Eliminar mi cuenta' (issue 45 item 6) under /api/mis-datos/eliminar, for the live session's
 * patient only; and the job that deletes the accounts whose wait is over.
 */
export async function deletionRoutes(
  app: FastifyInstance,
  opts: { ctx: AppContext },
): Promise<void> {
  const { ctx } = opts;
  const waitHours = ctx.deletion.waitMs / 3_600_000;
  const patientOf = sessionPatient(ctx, m.noSession);

  app.get('/eliminar', async (request): Promise<DeletionStatusResponse> => {
    const patientId = await patientOf(request);
    return { success: true, deletion: await pendingDeletion(ctx, patientId), waitHours };
  });

  app.post('/eliminar/codigo', async (request): Promise<DeletionCodeResponse> => {
    const patientId = await patientOf(request);
    const body = parseBody(deletionCodeRequest, request.body, { pin: m.badPin }, m.badPin);
    const { resendAfterMs } = await askDeletionCode(ctx, request.log, {
      patientId,
      pin: body.pin,
      clientIp: request.ip,
    });
    return {
      success: true,
      message: m.codeSent,
      resendAfterSeconds: Math.ceil(resendAfterMs / 1000),
    };
  });

  app.post('/eliminar', async (request): Promise<DeletionStatusResponse> => {
    const patientId = await patientOf(request);
    const body = parseBody(deletionConfirmRequest, request.body, { codigo: m.badCode }, m.badCode);
    const deletion = await confirmDeletion(ctx, request.log, {
      patientId,
      codigo: body.codigo,
      clientIp: request.ip,
    });
    request.log.info({ event: 'my_data.deletion_requested', patientId }, 'my-data');
    return { success: true, deletion, waitHours };
  });

  app.post('/eliminar/cancelar', async (request): Promise<DeletionStatusResponse> => {
    const patientId = await patientOf(request);
    await cancelDeletion(ctx, patientId);
    request.log.info({ event: 'my_data.deletion_cancelled', patientId }, 'my-data');
    return { success: true, deletion: null, waitHours };
  });

  let job: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    job = startDeletionJob(ctx, app.log);
  });
  app.addHook('onClose', async () => job?.stop());
}
