import type { PatientInput } from '../../contract/patients';
import { clearLoginGuard } from '../login/service';
import type { AppContext } from '../context';

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
  await clearLoginGuard(ctx as AppContext, input.numero_documento);
  const row = rows[0];
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** The development demo patient, named in the README. */
export const DEMO_PATIENT: PatientInput = {
  numero_documento: '1234567',
  pin: '482915',
  celular: '0981123456',
  nombre: 'MARÍA JOSÉ',
  apellido: 'GONZÁLEZ BENÍTEZ',
};
