import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { centresResponse, type CentresResponse } from '../../contract/cases';
import { ConfigError, int, parseEnv } from '../env';

/** Assisted verification's settings (issue 30): deadlines, retention, claims, look-up limits. */
export type CasesSettings = {
  /** a review case tells the patient to expect an answer this long after it opened */
  reviewMs: number;
  /** a health-centre code's validity; an open case keeps its registration alive this long */
  centreMs: number;
  /** a decided case's sealed data is deleted this long after the decision */
  retentionMs: number;
  /** a claim with no action this long returns the case to the queue */
  claimIdleMs: number;
  /** how often the server expires codes and purges (and once at start) */
  purgeEveryMs: number;
  /** code look-ups per operator and hour, and by all operators together per hour */
  lookupsPerOperatorHour: number;
  lookupsPerHour: number;
  /** corrections a patient may ask from Mis datos in 24 hours (issue 45 item 5) */
  correctionsPerPatientDay: number;
  /** the health centres that verify, by department (validated at start) */
  centres: CentresResponse;
};

const schema = z.object({
  CASES_REVIEW_HOURS: int(48),
  CASES_CENTRE_DAYS: int(30),
  CASES_RETENTION_DAYS: int(30),
  CASES_CLAIM_IDLE_MINUTES: int(30),
  CASES_PURGE_MINUTES: int(60),
  CASES_LOOKUPS_PER_OPERATOR_HOUR: int(30),
  CASES_LOOKUPS_PER_HOUR: int(300),
  CASES_CORRECTIONS_PER_PATIENT_DAY: int(5),
  CASES_CENTRES_FILE: z.string().min(1).optional(),
});

const DEFAULT_CENTRES = fileURLToPath(new URL('./centros.json', import.meta.url));

const centresFile = zm.object({ nota: zm.optional(zm.string()), departamentos: centresResponse });

/** The centres file: `{nota?, departamentos: [{departamento, centros: [...]}]}`, at least one centre. */
export function loadCentres(file: string): CentresResponse {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration: CASES_CENTRES_FILE ${file} cannot be read as JSON (${String(err)})`,
    );
  }
  const parsed = centresFile.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(
      `Invalid configuration: CASES_CENTRES_FILE ${file} is not {departamentos: [{departamento, centros: [{nombre, direccion, ciudad, horario}]}]}`,
    );
  const departamentos = parsed.data.departamentos.filter((d) => d.centros.length > 0);
  if (!departamentos.length)
    throw new ConfigError(`Invalid configuration: CASES_CENTRES_FILE ${file} lists no centre`);
  return departamentos;
}

export function loadCasesSettings(env: Record<string, string | undefined>): CasesSettings {
  const c = parseEnv(schema, env);
  const HOUR = 3_600_000;
  return {
    reviewMs: c.CASES_REVIEW_HOURS * HOUR,
    centreMs: c.CASES_CENTRE_DAYS * 24 * HOUR,
    retentionMs: c.CASES_RETENTION_DAYS * 24 * HOUR,
    claimIdleMs: c.CASES_CLAIM_IDLE_MINUTES * 60_000,
    purgeEveryMs: c.CASES_PURGE_MINUTES * 60_000,
    lookupsPerOperatorHour: c.CASES_LOOKUPS_PER_OPERATOR_HOUR,
    lookupsPerHour: c.CASES_LOOKUPS_PER_HOUR,
    correctionsPerPatientDay: c.CASES_CORRECTIONS_PER_PATIENT_DAY,
    centres: loadCentres(c.CASES_CENTRES_FILE ?? DEFAULT_CENTRES),
  };
}
