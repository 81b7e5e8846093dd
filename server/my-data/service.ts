import type { Access, AccessesResponse, MyDataResponse } from '../../contract/my-data';
import { EVIDENCE_PARTS } from '../../contract/my-data';
import type { AppContext } from '../context';
import { recordAccess } from './access-log';

/**
 * The cases of a patient ($1), read (never written) from the tables server/cases owns: a case
 * belongs to the patient when its KYC session, its decision's session or its registration's session
 * is the one the patient registered with (onboarding_registrations), or it names the patient (a
 * correction they asked, issue 45 item 5).
 */
export const PATIENT_CASES = `
  regs AS (SELECT session_id FROM onboarding_registrations WHERE patient_id = $1),
  mine AS (
    SELECT c.id FROM cases c
     WHERE c.patient_id = $1
        OR c.kyc_session_id IN (SELECT session_id FROM regs)
        OR c.decision_session_id IN (SELECT session_id FROM regs)
        OR c.draft_id IN (
          SELECT d.id FROM registration_drafts d WHERE d.kyc_session_id IN (SELECT session_id FROM regs)))`;

/** The back office's looks at a case: the case itself, one of its images, a centre's code look-up. */
const LOOK = `(a.action IN ('view', 'lookup') OR a.action LIKE 'image:%')`;

type PatientRow = {
  nombre: string;
  apellido: string;
  numero_documento: string;
  fecha_nacimiento: string | null;
  sexo: string | null;
  nacionalidad: string | null;
  estado_civil: string | null;
  celular: string | null;
  email: string | null;
  created_at: Date;
  terms_accepted_at: Date | null;
  terms_version: string | null;
  privacy_version: string | null;
};

/** What the service holds about the patient (issue 45 item 1); the look is logged. */
export async function myData(ctx: AppContext, patientId: string): Promise<MyDataResponse> {
  const data = await readMyData(ctx, patientId);
  await recordAccess(ctx.db, {
    patientId,
    kind: 'my_data',
    result: 'ok',
    at: new Date(ctx.clock.now()),
  });
  return data;
}

/** The same, read only (the download logs itself as 'download'). */
export async function readMyData(ctx: AppContext, patientId: string): Promise<MyDataResponse> {
  const { db } = ctx;
  const patient = (
    await db.query<PatientRow>(
      `SELECT nombre, apellido, numero_documento, to_char(fecha_nacimiento, 'YYYY-MM-DD') AS fecha_nacimiento,
              sexo, nacionalidad, estado_civil, celular, email, created_at,
              terms_accepted_at, terms_version, privacy_version
         FROM patients WHERE id = $1`,
      [patientId],
    )
  ).rows[0];
  if (!patient) throw new Error('my-data: a live session without its patient');

  const corrected = new Set(
    (
      await db.query<{ field: string }>(
        `WITH ${PATIENT_CASES}
         SELECT DISTINCT a.detail->>'field' AS field FROM case_audit a JOIN mine ON mine.id = a.case_id
           JOIN cases c ON c.id = a.case_id
          WHERE a.action = 'correct' AND (c.kind <> 'correction' OR c.status = 'approved')`,
        [patientId],
      )
    ).rows.map((r) => r.field),
  );
  const face = (
    await db.query<{ created_at: Date }>(
      'SELECT created_at FROM face_enrollments WHERE patient_id = $1',
      [patientId],
    )
  ).rows[0];
  const evidence = (
    await db.query<Record<(typeof EVIDENCE_PARTS)[number], boolean> & { until: Date | null }>(
      `WITH ${PATIENT_CASES}
       SELECT c.selfie IS NOT NULL AS selfie, c.portrait IS NOT NULL AS portrait,
              c.front IS NOT NULL AS front, c.back IS NOT NULL AS back, c.desk IS NOT NULL AS desk,
              c.fields IS NOT NULL AS fields, c.purge_after AS until
         FROM cases c JOIN mine ON mine.id = c.id
        WHERE c.purged_at IS NULL ORDER BY c.opened_at`,
      [patientId],
    )
  ).rows
    .map((row) => ({
      parts: EVIDENCE_PARTS.filter((part) => row[part]),
      until: row.until ? new Date(row.until).toISOString() : null,
    }))
    .filter((e) => e.parts.length > 0);

  const values: Record<MyDataResponse['identity'][number]['field'], string | null> = {
    FullName: `${patient.nombre} ${patient.apellido}`.trim(),
    DocumentNumber: patient.numero_documento,
    DateOfBirth: patient.fecha_nacimiento,
    Gender: patient.sexo,
    Nationality: patient.nacionalidad,
    MaritalStatus: patient.estado_civil,
  };
  return {
    success: true,
    identity: Object.entries(values).map(([field, value]) => ({
      field: field as keyof typeof values,
      value,
      source: corrected.has(field) ? 'person' : 'engine',
    })),
    celular: patient.celular,
    email: patient.email,
    registeredAt: new Date(patient.created_at).toISOString(),
    // Recorded on the patient at registration (migration 039); before it: the time where the
    // registration's draft still held it, the versions unknown (null).
    terms: {
      acceptedAt: patient.terms_accepted_at
        ? new Date(patient.terms_accepted_at).toISOString()
        : null,
      version: patient.terms_version,
      privacyVersion: patient.privacy_version,
    },
    face: { enrolled: !!face, since: face ? new Date(face.created_at).toISOString() : null },
    evidence,
  };
}

type AccessRow = {
  kind: Access['kind'];
  at: Date;
  result: Access['result'];
  role: Access['role'];
  what: string | null;
  device: string | null;
};

/**
 * 'Quién vio mis datos' (issue 45 item 3): every look of the back office at the patient's cases
 * (case_audit: the operator's role only, never who), then every login, PIN recovery, face login and
 * look at Mis datos (patient_access_log), newest first. Only the session's patient's rows.
 */
export async function accessesOf(ctx: AppContext, patientId: string): Promise<AccessesResponse> {
  const { rows } = await ctx.db.query<AccessRow>(
    `WITH ${PATIENT_CASES}
     SELECT CASE WHEN a.action = 'view' THEN 'case_view'
                 WHEN a.action = 'lookup' THEN 'case_lookup'
                 ELSE 'case_image' END AS kind,
            a.at, 'ok' AS result, o.rol AS role,
            CASE WHEN a.action LIKE 'image:%' THEN substr(a.action, 7) END AS what,
            NULL::text AS device, 0 AS src, a.id AS seq
       FROM case_audit a JOIN mine ON mine.id = a.case_id
       LEFT JOIN operators o ON o.id::text = a.operator_id
      WHERE ${LOOK}
     UNION ALL
     SELECT l.kind, l.at, l.result, NULL, NULL, l.device_id::text, 1, l.id
       FROM patient_access_log l WHERE l.patient_id = $1
     ORDER BY at DESC, src DESC, seq DESC`,
    [patientId],
  );
  return {
    success: true,
    accesses: rows.map((r) => ({
      kind: r.kind,
      at: new Date(r.at).toISOString(),
      result: r.result,
      role: r.role,
      centre: null,
      what: r.what,
      device: r.device,
    })),
  };
}
