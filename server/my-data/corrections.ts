import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  correctionRequest,
  type CorrectionField,
  type CorrectionRequest,
  type CorrectionResponse,
  type CorrectionsResponse,
} from '../../contract/my-data-correct';
import { IDENTITY_FIELDS } from '../../contract/case-fields';
import { checkCorrection, correctionsOf, openCorrection } from '../cases/correction';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { consumeLimits } from '../security/rate-limits';
import { recordAccess } from './access-log';
import { correctMessages as m } from './messages';

const DAY = 24 * 3_600_000;

/** The request by its field's rule: a bad value says which rule, a bad reason or field says so. */
function parseRequest(body: unknown): CorrectionRequest {
  const parsed = correctionRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const field = (body as { field?: unknown } | null)?.field;
  if (!(IDENTITY_FIELDS as readonly unknown[]).includes(field))
    throw new HttpError(400, m.badField);
  const paths = parsed.error.issues.map((i) => i.path[0]);
  if (paths.includes('value')) throw new HttpError(400, m.badValue[field as CorrectionField]);
  throw new HttpError(400, m.badReason);
}

/**
 * 'Corregir' (issue 45 item 5), under /api/mis-datos: POST /correcciones asks that one field say
 * another value (a 'correction' case a person decides, server/cases/correction.ts), GET
 * /correcciones lists the patient's requests and their state. Both for the live session's patient
 * only. A request is written to the access log ('correction'); at most
 * CASES_CORRECTIONS_PER_PATIENT_DAY a day, counted only when one opens.
 */
export function correctionRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  patientOf: (request: FastifyRequest) => Promise<string>,
): void {
  app.get('/correcciones', async (request): Promise<CorrectionsResponse> => {
    const patientId = await patientOf(request);
    return { success: true, requests: await correctionsOf(ctx, patientId) };
  });

  app.post('/correcciones', async (request): Promise<CorrectionResponse> => {
    const patientId = await patientOf(request);
    const input = parseRequest(request.body);
    // A request that would be refused (same value, one open) spends nothing of the day's budget.
    await checkCorrection(ctx, patientId, input);
    const now = ctx.clock.now();
    const max = ctx.cases.correctionsPerPatientDay;
    await consumeLimits(
      ctx.db,
      [
        {
          bucket: 'my_data_correction',
          key: patientId,
          limits: [{ max, windowMs: DAY, refusal: () => m.tooMany(max) }],
        },
      ],
      now,
    );
    const created = await openCorrection(ctx, patientId, input);
    await recordAccess(ctx.db, { patientId, kind: 'correction', result: 'ok', at: new Date(now) });
    request.log.info({ event: 'my_data.correction', field: input.field }, 'my-data');
    return { success: true, request: created };
  });
}
