import type { FastifyInstance } from 'fastify';
import {
  myFaceUnlockRequest,
  myFaceWithdrawRequest,
  type MyFaceCodeResponse,
  type MyFaceResponse,
} from '../../contract/my-face';
import type { AppContext } from '../context';
import { parseBody } from '../http/errors';
import { lockFace, myFace, sendUnlockCode, unlockFace, withdrawFace } from './face';
import { myFaceMessages as m } from './face-messages';
import { sessionPatient } from './session';

/**
 * 'Mi rostro' (issue 45 item 4) under /api/mis-datos/rostro: GET its state, POST /bloquear,
 * /desbloquear/codigo, /desbloquear { pin, otp }, /retirar { pin }. The session's patient only:
 * nothing in a path or a body names a patient.
 */
export async function myFaceRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { ctx } = opts;
  const patientOf = sessionPatient(ctx);

  app.get('/', async (request): Promise<MyFaceResponse> => ({
    success: true,
    face: await myFace(ctx, await patientOf(request)),
  }));

  app.post('/bloquear', async (request): Promise<MyFaceResponse> => {
    const face = await lockFace(ctx, await patientOf(request));
    request.log.info({ event: 'my_face.locked' }, 'my-face');
    return { success: true, message: m.locked, face };
  });

  app.post('/desbloquear/codigo', async (request): Promise<MyFaceCodeResponse> => {
    const { face, resendAfterMs } = await sendUnlockCode(ctx, await patientOf(request), request.ip);
    return {
      success: true,
      message: m.codeSent,
      resendAfterSeconds: Math.ceil(resendAfterMs / 1000),
      face,
    };
  });

  app.post('/desbloquear', async (request): Promise<MyFaceResponse> => {
    const patientId = await patientOf(request);
    const body = parseBody(
      myFaceUnlockRequest,
      request.body,
      { pin: m.badPin, otp: m.badOtp },
      m.badPin,
    );
    const face = await unlockFace(ctx, patientId, { ...body, clientIp: request.ip });
    request.log.info({ event: 'my_face.unlocked' }, 'my-face');
    return { success: true, message: m.unlocked, face };
  });

  app.post('/retirar', async (request): Promise<MyFaceResponse> => {
    const patientId = await patientOf(request);
    const body = parseBody(myFaceWithdrawRequest, request.body, { pin: m.badPin }, m.badPin);
    const face = await withdrawFace(ctx, patientId, { ...body, clientIp: request.ip });
    request.log.info({ event: 'my_face.withdrawn' }, 'my-face');
    return { success: true, message: m.withdrawn, face };
  });
}
