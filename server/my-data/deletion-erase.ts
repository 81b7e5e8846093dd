import { eraseCasesOf } from '../cases/store';
import type { Db } from '../db/client';
import { deletePatient } from '../patients/service';
import { forgetCodes } from '../security/otp';

/**
 * What deleting an account removes, table by table (issue 45 item 6). `ERASED_TABLES` and
 * `KEPT_TABLES` name every table with a column that can identify a patient:
 * tests/server/my-data-deletion-tables.test.ts fails on a table in neither list, so a table added
 * later cannot be forgotten here.
 */
export const ERASED_TABLES = {
  patients: 'the account: name, cédula number, birth date, mobile, e-mail, PIN hash',
  sessions: "the patient's sessions (cascade from patients)",
  face_enrollments: 'the face template (cascade; its trigger tells the face index to drop it)',
  recovery_grants: 'PIN recovery grants (cascade)',
  onboarding_registrations: 'which registration made the account (cascade)',
  registration_drafts: "the patient's registration drafts (mobile, e-mail, PIN hash)",
  registration_tokens: "the drafts' links and tokens (cascade from registration_drafts)",
  kyc_sessions: "the registration's KYC sessions (selfie, its description, the card's result)",
  kyc_evidence: "the KYC sessions' sealed evidence (cascade)",
  liveness_frames: "the KYC sessions' frames (cascade)",
  face_auth_sessions: 'face logins that recognised the patient, and those of their KYC sessions',
  face_duplicate_checks:
    "the registration's duplicate checks (cascade); another registrant's check naming the patient loses that name (ON DELETE SET NULL)",
  cases:
    "the patient's review cases, images and fields; another's possible-duplicate case naming the patient loses that name and the sealed record",
  otp_codes: 'SMS codes sent to the mobile or for the cédula number',
  sms_outbox: 'SMS kept by the development outbox for the mobile',
  sms_send_log: 'the log of SMS sent to the mobile',
  login_guards: "the cédula number's login ledger",
  rate_limit_events: 'limit counters keyed by the mobile or the cédula number',
  my_data_downloads: "the patient's download: its sealed file and link (cascade from patients)",
  patient_secondary_use: "the patient's secondary-use choice (cascade from patients)",
} as const;

/** Tables kept after a deletion, and why: none holds a name, a number or a mobile of the patient. */
export const KEPT_TABLES = {
  case_audit:
    'append-only record of the back office (kept by law): case ids and operators, which name nobody once the cases are deleted',
  patient_access_log:
    "append-only record of every way into the account and the patient's own requests (kept by law): a patient id that names nobody",
  account_deletions: 'the request itself: a patient id that names nobody, when asked and done',
  face_enrollment_deletions:
    'a patient id and when, read by the face index to drop the template, then names nobody',
  operators: "the service's staff, not patients",
  departments: 'reference data: place names, not patients',
  cities: 'reference data: place names, not patients',
} as const;

type Erased = { documento: string; celular: string | null };

/**
 * Deletes the patient and everything naming them, inside the caller's transaction (the job's,
 * which has claimed the request). Returns what the receipt needs, or null when the patient is gone.
 */
export async function erasePatient(tx: Db, patientId: string): Promise<Erased | null> {
  const patient = (
    await tx.query<{ documento: string; celular: string | null }>(
      'SELECT numero_documento AS documento, celular FROM patients WHERE id = $1 FOR UPDATE',
      [patientId],
    )
  ).rows[0];
  if (!patient) return null;
  const { documento, celular } = patient;

  // The registration's KYC sessions: the one it registered with, its drafts' and their earlier ones.
  const kyc = (
    await tx.query<{ id: string }>(
      `WITH regs AS (SELECT session_id FROM onboarding_registrations WHERE patient_id = $1),
            drafts AS (SELECT kyc_session_id, earlier_kyc_sessions FROM registration_drafts
                        WHERE kyc_session_id IN (SELECT session_id FROM regs) OR celular = $2)
       SELECT session_id AS id FROM regs
       UNION SELECT kyc_session_id FROM drafts WHERE kyc_session_id IS NOT NULL
       UNION SELECT unnest(earlier_kyc_sessions) FROM drafts`,
      [patientId, celular],
    )
  ).rows.map((r) => r.id);
  const drafts = (
    await tx.query<{ id: string }>(
      // A draft holding the mobile is its owner's: a mobile is verified by SMS before a draft.
      'SELECT id::text AS id FROM registration_drafts WHERE kyc_session_id = ANY($1::text[]) OR celular = $2',
      [kyc, celular],
    )
  ).rows.map((r) => r.id);

  await eraseCasesOf(tx, { patientId, kycSessions: kyc, drafts });
  await tx.query('DELETE FROM registration_drafts WHERE id = ANY($1::uuid[])', [drafts]);
  const uuids = kyc.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  await tx.query('DELETE FROM kyc_sessions WHERE id = ANY($1::uuid[])', [uuids]);
  await tx.query('DELETE FROM face_auth_sessions WHERE patient_id = $1', [patientId]);
  await forgetCodes(tx, { celular, documento });
  if (celular) {
    await tx.query('DELETE FROM sms_outbox WHERE celular = $1', [celular]);
    await tx.query('DELETE FROM sms_send_log WHERE celular = $1', [celular]);
  }
  // Keys are a mobile, a cédula number, or such parts joined by ':' and '@' (never a substring).
  await tx.query(
    `DELETE FROM rate_limit_events
      WHERE $1 = ANY(regexp_split_to_array(key, '[:@]')) OR $2 = ANY(regexp_split_to_array(key, '[:@]'))`,
    [documento, celular ?? documento],
  );
  // Cascades: sessions, face_enrollments (the index's trigger), recovery_grants, registrations;
  // and the cédula number's login ledger.
  await deletePatient(tx, patientId, documento);
  return { documento, celular };
}
