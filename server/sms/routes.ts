import type { FastifyInstance } from 'fastify';
import { normalizeParaguayPhone } from '../../contract/phone';
import type { SmsOutboxResponse } from '../../contract/onboarding';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { readOutbox } from './outbox';

/**
 * Development only (app.ts never registers it in production): the SMS the outbox provider
 * "sent" to a phone, newest first (GET /api/dev/sms-outbox?celular=0981123456).
 */
export async function devSmsRoutes(app: FastifyInstance, opts: { ctx: AppContext }): Promise<void> {
  const { db } = opts.ctx;
  app.get<{ Querystring: { celular?: unknown } }>(
    '/sms-outbox',
    async (request): Promise<SmsOutboxResponse> => {
      const raw = request.query.celular;
      const celular = typeof raw === 'string' ? normalizeParaguayPhone(raw) : null;
      if (!celular)
        throw new HttpError(400, 'Indicá un número de celular válido (?celular=09XXXXXXXX).');
      return readOutbox(db, celular);
    },
  );
}
