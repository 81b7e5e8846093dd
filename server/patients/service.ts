import { splitFullName, type IdData } from '../../contract/onboarding';
import type { PatientInput } from '../../contract/patients';
import { clearLoginGuard } from '../login/service';
import type { AppContext } from '../context';
import { isUniqueViolation, type Db } from '../db/client';

/**
 * The only module that writes `patients` (issue 27 part 4): the operator's and the demo's upsert,
 * registration's insert and PIN recovery's new PIN. Every new or re-keyed patient's login ledger is
 * cleared through `clearLoginGuard`, the only writer of `login_guards` outside login.
 */

/** Creates a patient or updates the one with that document number; clears any login lock. */
export async function upsertPatient(
  ctx: Pick<AppContext, 'db' | 'pins'>,
  input: PatientInput,
): Promise<{ id: string; created: boolean }> {
  const pinHash = await ctx.pins.hash(input.pin);
  const { rows } = await ctx.db.query<{ id: string; created: boolean }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, celular, email, pin_hash, fecha_nacimiento)
          VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (numero_documento) DO UPDATE
          SET nombre = EXCLUDED.nombre, apellido = EXCLUDED.apellido,
              celular = COALESCE(EXCLUDED.celular, patients.celular),
              email = COALESCE(EXCLUDED.email, patients.email),
              fecha_nacimiento = COALESCE(EXCLUDED.fecha_nacimiento, patients.fecha_nacimiento),
              pin_hash = EXCLUDED.pin_hash, updated_at = now()
     RETURNING id::text AS id, (xmax = 0) AS created`,
    [
      input.numero_documento,
      input.nombre,
      input.apellido,
      input.celular ?? null,
      input.email ?? null,
      pinHash,
      input.fecha_nacimiento ?? null,
    ],
  );
  await clearLoginGuard(ctx, input.numero_documento);
  const row = rows[0];
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** A registered patient's record, as registration read it from the card and the form. */
type RegisteredPatient = {
  numero_documento: string;
  nombre: string;
  apellido: string;
  celular: string;
  email: string | null;
  fecha_nacimiento: string | null;
  sexo: string | null;
  nacionalidad: string | null;
  estado_civil: string | null;
  tipo_sangre: string | null;
  direccion: string | null;
  ciudad_id: string;
  pin_hash: string;
  /** the terms and privacy notice accepted at the PIN step (versions: null when not recorded) */
  terms_accepted_at: Date | null;
  terms_version: string | null;
  privacy_version: string | null;
};

/**
 * Registration's new patient (inside its transaction): its id, or null when the document or the
 * mobile is already a patient's (nothing written). A login ledger left for that document goes.
 */
export async function insertRegisteredPatient(
  db: Db,
  p: RegisteredPatient,
  now: Date,
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO patients (numero_documento, nombre, apellido, celular, email, fecha_nacimiento, sexo,
                           nacionalidad, estado_civil, tipo_sangre, direccion, ciudad_id, pin_hash,
                           created_at, updated_at, terms_accepted_at, terms_version, privacy_version)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16, $17)
     ON CONFLICT DO NOTHING
     RETURNING id::text AS id`,
    [
      p.numero_documento,
      p.nombre,
      p.apellido,
      p.celular,
      p.email,
      p.fecha_nacimiento,
      p.sexo,
      p.nacionalidad,
      p.estado_civil,
      p.tipo_sangre,
      p.direccion,
      p.ciudad_id,
      p.pin_hash,
      now,
      p.terms_accepted_at,
      p.terms_version,
      p.privacy_version,
    ],
  );
  const id = rows[0]?.id ?? null;
  if (id) await clearLoginGuard({ db }, p.numero_documento);
  return id;
}

/**
 * PIN recovery's new PIN (inside its transaction), for the patient with this id AND document:
 * the patient's mobile for the notice, or null when there is no such patient. The login ledger
 * (a lock included) is cleared.
 */
export async function setPatientPin(
  db: Db,
  input: { patientId: string; documento: string; pinHash: string },
  now: Date,
): Promise<{ celular: string | null } | null> {
  const { rows } = await db.query<{ celular: string | null }>(
    `UPDATE patients SET pin_hash = $2, updated_at = $3
      WHERE id = $1 AND numero_documento = $4
      RETURNING celular`,
    [input.patientId, input.pinHash, now, input.documento],
  );
  const patient = rows[0];
  if (patient) await clearLoginGuard({ db }, input.documento);
  return patient ?? null;
}

/** The identity fields as `patients` keeps them (the name as the card prints it: surnames first). */
const IDENTITY_COLUMNS = {
  FullName: `trim(p.apellido || ' ' || p.nombre)`,
  DocumentNumber: 'p.numero_documento',
  DateOfBirth: `to_char(p.fecha_nacimiento, 'YYYY-MM-DD')`,
  Gender: 'p.sexo',
  Nationality: 'p.nacionalidad',
  MaritalStatus: 'p.estado_civil',
} as const satisfies Record<keyof IdData, string>;

/** The patient's identity fields, as a case holds them ('' for none); null: no such patient. */
export async function patientIdentity(db: Db, patientId: string): Promise<IdData | null> {
  const cols = Object.entries(IDENTITY_COLUMNS).map(([f, c]) => `COALESCE(${c}, '') AS "${f}"`);
  const { rows } = await db.query<IdData>(
    `SELECT ${cols.join(', ')} FROM patients p WHERE p.id = $1`,
    [patientId],
  );
  return rows[0] ?? null;
}

/**
 * An approved correction (issue 45 item 5, inside the decision's transaction): the field says `to`,
 * only while it still says `from` (what the person approved it over), so it is written once.
 * 'stale': it no longer says `from`; 'taken': the new document number is another patient's, found
 * by the unique index itself (a registration or another approval that took it after the caller's
 * check); nothing written in either. The write runs under a savepoint, so the caller's transaction
 * stays usable on PostgreSQL after the refusal. A new document number starts a clean login ledger,
 * as a registration does.
 */
export async function setPatientIdentityField(
  db: Db,
  c: { patientId: string; field: keyof IdData; from: string; to: string },
  now: Date,
): Promise<'written' | 'stale' | 'taken'> {
  const name = splitFullName(c.to);
  const [set, values] =
    c.field === 'FullName'
      ? ['nombre = $4, apellido = $5', [name.nombre, name.apellido]]
      : [
          {
            DocumentNumber: 'numero_documento = $4',
            DateOfBirth: 'fecha_nacimiento = $4::date',
            Gender: 'sexo = $4',
            Nationality: 'nacionalidad = $4',
            MaritalStatus: 'estado_civil = $4',
          }[c.field],
          [c.to],
        ];
  await db.query('SAVEPOINT set_identity_field');
  let rows: { id: string }[];
  try {
    ({ rows } = await db.query<{ id: string }>(
      `UPDATE patients p SET ${set}, updated_at = $3
        WHERE p.id = $1 AND COALESCE(${IDENTITY_COLUMNS[c.field]}, '') = $2
        RETURNING p.id::text AS id`,
      [c.patientId, c.from, now, ...values],
    ));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await db.query('ROLLBACK TO SAVEPOINT set_identity_field');
    return 'taken';
  }
  await db.query('RELEASE SAVEPOINT set_identity_field');
  if (!rows.length) return 'stale';
  if (c.field === 'DocumentNumber') await clearLoginGuard({ db }, c.to);
  return 'written';
}

/** The development demo patient, named in the README. */
export const DEMO_PATIENT: PatientInput = {
  numero_documento: '1234567',
  pin: '482915',
  celular: '0981123456',
  nombre: 'MARÍA JOSÉ',
  apellido: 'GONZÁLEZ BENÍTEZ',
};

/**
 * 'Eliminar mi cuenta' (issue 45 item 6), inside the deletion job's transaction: the patient row
 * (its sessions, face template, grants and registrations cascade) and the cédula number's login
 * ledger, so nothing says an account existed. Returns whether there was such a patient.
 */
export async function deletePatient(
  db: Db,
  patientId: string,
  documento: string,
): Promise<boolean> {
  const { rows } = await db.query('DELETE FROM patients WHERE id = $1 RETURNING 1', [patientId]);
  await clearLoginGuard({ db }, documento);
  return rows.length > 0;
}

/**
 * 'Mi rostro' (issue 45 item 4, migration 035): locks face recognition of a patient with an
 * enrolled face. False when it was locked already or there is no face. The row lock it takes
 * orders it with a recognition being decided (server/face-login reads the row FOR SHARE).
 */
export async function lockPatientFace(db: Db, patientId: string, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE patients p SET face_locked_at = $2
      WHERE p.id = $1 AND p.face_locked_at IS NULL
        AND EXISTS (SELECT 1 FROM face_enrollments e WHERE e.patient_id = p.id)
      RETURNING 1`,
    [patientId, at],
  );
  return rows.length > 0;
}

/** Lifts the face lock (unlocked with PIN and code, or the face withdrawn); true when it was set. */
export async function unlockPatientFace(db: Db, patientId: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE patients SET face_locked_at = NULL WHERE id = $1 AND face_locked_at IS NOT NULL
      RETURNING 1`,
    [patientId],
  );
  return rows.length > 0;
}

/**
 * A face withdrawn: no lock is left on it. Always writes the row, so it takes the patient's row
 * lock whatever the lock's state (a recognition being decided finishes first or sees the change).
 */
export async function clearPatientFaceLock(db: Db, patientId: string): Promise<void> {
  await db.query('UPDATE patients SET face_locked_at = NULL WHERE id = $1', [patientId]);
}
