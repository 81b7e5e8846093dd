/**
 * The Playwright webServer command: a fresh data folder, the suite's patients written as the
 * operator command writes them, then the REAL server (server/main.ts) serving dist/ and /api on one
 * port.
 *
 * Seeding happens here and not in a Playwright globalSetup because Playwright starts webServer
 * BEFORE globalSetup, and PGlite cannot be shared by two processes (see e2e/patients.ts). It runs
 * in this process, through the command's own steps (the database as the command opens it, the
 * pepper's check, the PIN's hash, `upsertPatient`): the command itself, one process a patient,
 * took 29 s of CI for the 8 (a Node.js, tsx and PGlite start each); its refusals and its writes
 * while a server runs are tests/server's (operator-pin, operator-live).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { patientInput } from '../contract/patients';
import { normalizeParaguayPhone } from '../contract/phone';
import { openCliDatabase } from '../server/cli/db';
import { loadConfig } from '../server/config';
import { upsertPatient } from '../server/patients/service';
import { checkPepper } from '../server/security/pepper-check';
import { createPinHasher } from '../server/security/pin';
import { resolveSecrets } from '../server/security/secrets';
import { SEED_PATIENTS, type PatientSeed } from './patients';
import { isAlive } from './support/pid';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !path.resolve(dataDir).includes(`${path.sep}.e2e-data${path.sep}`)) {
  console.error(
    `e2e/server.ts: refusing to wipe DATA_DIR=${dataDir ?? '(unset)'}; it must live under .e2e-data/`,
  );
  process.exit(2);
}

rmSync(dataDir, { recursive: true, force: true });
removeStaleRuns(path.dirname(path.resolve(dataDir)));
const started = Date.now();
await seedPatients(Object.values(SEED_PATIENTS));
console.log(
  `e2e: seeded ${Object.keys(SEED_PATIENTS).length} patients in ${Date.now() - started} ms into ${dataDir}`,
);

await import('../server/main');

/** Each patient created as `npm run patients -- add` creates it (server/cli/patients.ts). */
async function seedPatients(patients: PatientSeed[]): Promise<void> {
  const config = loadConfig(process.env);
  const db = await openCliDatabase(config);
  try {
    const { pinPepper } = await resolveSecrets(config);
    if ((await checkPepper(db, pinPepper)) === 'mismatch') throw new Error('pin_pepper_mismatch');
    const pins = await createPinHasher(pinPepper);
    for (const p of patients) {
      const input = patientInput.parse({
        numero_documento: p.documento,
        pin: p.pin,
        celular: normalizeParaguayPhone(p.celular),
        nombre: p.nombre,
        apellido: p.apellido,
        email: p.email,
        fecha_nacimiento: p.nacimiento,
      });
      const { created } = await upsertPatient({ db, pins }, input);
      if (!created) throw new Error(`seeding ${p.documento}: it was there already`);
    }
  } finally {
    await db.close();
  }
}

/** Data folders of earlier runs (`run-<runner pid>`) whose runner is gone. */
function removeStaleRuns(parent: string): void {
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    if (!pid || isAlive(Number(pid))) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}
