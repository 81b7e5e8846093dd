import { execFile, execFileSync } from 'node:child_process';

/**
 * Patients the browser suite needs, written BEFORE the e2e server starts by e2e/server.ts, as the
 * operator command (`npm run patients -- add ...`) writes them, in one process. A test that needs a
 * patient the command itself creates (with a face photo: `--foto`) runs it while the server runs
 * (`createPatient`, `createPatientInBackground` below: it then goes through the server's socket).
 *
 * To add a patient for your tests: add an entry here (unique documento, in the 9xxxxxxx range
 * used by no one else), then read it in a test through the `seeded` fixture (e2e/fixtures.ts).
 */
export type PatientSeed = {
  documento: string;
  pin: string;
  celular: string;
  nombre: string;
  apellido: string;
  email?: string;
  /** YYYY-MM-DD (`--nacimiento`): the PIN rules refuse a PIN made from it */
  nacimiento?: string;
};

export const SEED_PATIENTS = {
  /** Logs in once in login.spec.ts: a patient written as the operator command writes one logs in. */
  operator: {
    documento: '90000001',
    pin: '583920',
    celular: '0981200001',
    nombre: 'ANA BELÉN',
    apellido: 'RIVEROS',
  },
  /** Locked by 10 wrong PINs in login.spec.ts: nobody else may use it. */
  lockout: {
    documento: '90000002',
    pin: '719304',
    celular: '0981200002',
    nombre: 'LUIS',
    apellido: 'CÁCERES',
  },
  /** A patient with a registered mobile, for PIN recovery journeys (issue of PIN recovery). */
  recovery: {
    documento: '90000003',
    pin: '860413',
    celular: '0981200003',
    nombre: 'ROSA',
    apellido: 'ARCE',
  },
  /** Locked by 10 wrong PINs, then opened by PIN recovery (e2e/recovery.spec.ts). */
  recoveryLocked: {
    documento: '90000031',
    pin: '815206',
    celular: '0981200031',
    nombre: 'JORGE',
    apellido: 'BENÍTEZ',
  },
  /** Logged in elsewhere, then recovers the PIN: the old session ends (e2e/recovery.spec.ts). */
  recoverySession: {
    documento: '90000032',
    pin: '407192',
    celular: '0981200032',
    nombre: 'CLARA',
    apellido: 'OVIEDO',
  },
  /** Born 1987-03-14: its birthday and its document number are refused as a new PIN (e2e/recovery.spec.ts). */
  recoveryOwnData: {
    documento: '90000034',
    pin: '628410',
    celular: '0981200034',
    nombre: 'NOELIA',
    apellido: 'VERA',
    nacimiento: '1987-03-14',
  },
  /** Reaches step 2 and leaves by its back arrow (e2e/recovery.spec.ts). */
  recoveryBack: {
    documento: '90000033',
    pin: '952741',
    celular: '0981200033',
    nombre: 'PEDRO',
    apellido: 'GAONA',
  },
  /**
   * Walks through every action of Mis datos (e2e/my-data-walk.spec.ts, issue 45): its face (blink-h,
   * which no other spec plays or enrols) is enrolled by that spec, locked and withdrawn; its every
   * look is counted in 'Quién vio mis datos'; its account is deleted at the end.
   */
  myDataWalk: {
    documento: '90000457',
    pin: '527193',
    celular: '0981200457',
    nombre: 'IRMA',
    apellido: 'CAMINO',
  },
} as const satisfies Record<string, PatientSeed>;

export type SeedName = keyof typeof SEED_PATIENTS;

/** The demo patient every development server creates (server/patients/service.ts, README). */
export const DEMO = {
  documento: '1234567',
  pin: '482915',
  celular: '0981123456',
  nombre: 'MARÍA JOSÉ',
} as const;

type CreatedPatient = {
  ok: boolean;
  id: string;
  created: boolean;
  numero_documento: string;
  face?: string;
};

/** `npm run patients -- add`'s arguments and environment; the PIN goes on standard input. */
function addCommand(patient: PatientSeed, dataDir: string, options: { foto?: string }) {
  const args = ['run', '-s', 'patients', '--', 'add'];
  args.push('--documento', patient.documento, '--celular', patient.celular, '--pin-stdin');
  args.push('--nombre', patient.nombre, '--apellido', patient.apellido);
  if (patient.email) args.push('--email', patient.email);
  if (patient.nacimiento) args.push('--nacimiento', patient.nacimiento);
  if (options.foto) args.push('--foto', options.foto);
  return { args, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } };
}

/** The command's last line: `{ ok, id, created, numero_documento, face? }`. */
const lastLine = (out: string): CreatedPatient =>
  JSON.parse(out.trim().split('\n').pop() ?? '') as CreatedPatient;

/**
 * Runs the operator command against `dataDir` (before the server starts, or while it runs: the
 * command then writes through the server's socket). `foto` enrols the patient's face from a photo.
 * Returns the command's JSON line: `{ ok, id, created, numero_documento, face? }`.
 */
export function createPatient(
  patient: PatientSeed,
  dataDir: string,
  options: { foto?: string } = {},
): CreatedPatient {
  const { args, env } = addCommand(patient, dataDir, options);
  const out = execFileSync('npm', args, {
    env,
    encoding: 'utf8',
    // The PIN on standard input, never in the arguments (visible to every local user).
    input: `${patient.pin}\n`,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return lastLine(out);
}

/**
 * createPatient without holding the test's process: the command (which loads the identity engine
 * for `foto`, seconds) runs while the test's browser goes on.
 */
export function createPatientInBackground(
  patient: PatientSeed,
  dataDir: string,
  options: { foto?: string } = {},
): Promise<CreatedPatient> {
  const { args, env } = addCommand(patient, dataDir, options);
  return new Promise((resolve, reject) => {
    const child = execFile('npm', args, { env, encoding: 'utf8' }, (err, out, stderr) => {
      if (err) reject(new Error(`patients add: ${err.message}\n${stderr}`));
      else resolve(lastLine(out));
    });
    child.stdin?.end(`${patient.pin}\n`);
  });
}
