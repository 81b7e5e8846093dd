import type { Db } from '../db/client';

/** What is written to a patient's access log: never a PIN, a code or an image. */
export type AccessEntry = {
  kind:
    | 'login'
    | 'pin_recovery'
    | 'face_login'
    | 'kiosk'
    | 'my_data'
    // the patient's own requests (issue 45 items 2, 4-7; migration 034)
    | 'download'
    | 'face_lock'
    | 'face_unlock'
    | 'face_withdraw'
    | 'correction'
    | 'deletion_request'
    | 'deletion_cancel'
    | 'secondary_use';
  /** 'locked': a recognition refused because the patient locked their face */
  result: 'ok' | 'failed' | 'locked';
  /** the kiosk device that recognised the patient */
  deviceId?: string | null;
  at: Date;
};

/**
 * The one writer of `patient_access_log` (append-only, issue 45 item 3): every way into a
 * patient's account and every look at their own data, for 'Quién vio mis datos'.
 */
export async function recordAccess(
  db: Db,
  entry: AccessEntry & { patientId: string },
): Promise<void> {
  await db.query(
    `INSERT INTO patient_access_log (patient_id, kind, result, device_id, at)
     VALUES ($1, $2, $3, $4, $5)`,
    [entry.patientId, entry.kind, entry.result, entry.deviceId ?? null, entry.at],
  );
}

/**
 * A login by document number, right or wrong, or a PIN recovery that failed for one (a wrong or
 * expired SMS code, a mobile that is not the patient's, too many tries). The same statement runs
 * whether the number is registered or not (it inserts no row for an unknown one), so the answer's
 * time tells nobody.
 */
export async function recordByDocument(
  db: Db,
  entry: { documento: string; kind: 'login' | 'pin_recovery'; result: 'ok' | 'failed'; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO patient_access_log (patient_id, kind, result, at)
     SELECT id, $2, $3, $4 FROM patients WHERE numero_documento = $1`,
    [entry.documento, entry.kind, entry.result, entry.at],
  );
}

/** A login by document number, right or wrong (recordByDocument). */
export const recordLogin = (
  db: Db,
  entry: { documento: string; result: 'ok' | 'failed'; at: Date },
): Promise<void> => recordByDocument(db, { ...entry, kind: 'login' });
