import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { SESSION_COOKIE, touchSession } from '../session/service';
import { myDataMessages } from './messages';

/**
 * The patient of the live session (the dashboard's), the only one every Mis datos route answers:
 * nothing in a path, a query or a body names a patient. No session: 401 with `noSession`.
 */
export const sessionPatient =
  (ctx: AppContext, noSession: string = myDataMessages.noSession) =>
  async (request: FastifyRequest): Promise<string> => {
    const session = await touchSession(ctx, request.cookies[SESSION_COOKIE]);
    if (!session) throw new HttpError(401, noSession);
    return session.patientId;
  };
