import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { patientInput } from '../../contract/patients';
import { loadConfig } from '../config';
import { openCliDatabase } from './db';
import { normalizeParaguayPhone } from '../../contract/phone';
import { createPinHasher } from '../security/pin';
import { resolveSecrets } from '../security/secrets';
import { upsertPatient } from '../patients/service';
import { enrollFromPhoto } from '../face-auth/enroll';
import { loadIdentityConfig } from '../identity/config';
import { createIdentityEngine } from '../identity/engine';
import { checkGates } from '../identity/gates';

const USAGE = `Usage: npm run patients -- add --documento 1234567 --pin 482915 --celular 0981123456 --nombre "NOMBRES" --apellido "APELLIDOS" [--email correo@ejemplo.com] [--nacimiento AAAA-MM-DD] [--foto FOTO.jpg]
Creates the patient, or updates the one with that document number (and clears a login lock).
--foto enrols the patient's face for face authentication, with the selfie's checks (one face, large
enough, lit, centred); only the face description is stored (the photo too if IDENTITY_STORE_PHOTOS).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'add') {
    console.error(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      documento: { type: 'string' },
      pin: { type: 'string' },
      celular: { type: 'string' },
      nombre: { type: 'string' },
      apellido: { type: 'string' },
      email: { type: 'string' },
      nacimiento: { type: 'string' },
      foto: { type: 'string' },
    },
    strict: true,
  });
  const celular = values.celular ? normalizeParaguayPhone(values.celular) : undefined;
  const parsed = patientInput.safeParse({
    numero_documento: values.documento,
    pin: values.pin,
    celular: celular ?? undefined,
    nombre: values.nombre,
    apellido: values.apellido,
    email: values.email,
    fecha_nacimiento: values.nacimiento,
  });
  if (!parsed.success || (values.celular && !celular)) {
    const fields = parsed.success ? ['celular'] : parsed.error.issues.map((i) => i.path.join('.'));
    console.error(`Invalid value for: ${[...new Set(fields)].join(', ')}\n${USAGE}`);
    return 2;
  }
  const photo = values.foto ? await readFile(values.foto) : null;
  // The photo is checked before anything is written: a refused photo changes nothing.
  const engine = photo
    ? await createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1', ...process.env }), {
        ocr: false,
      })
    : null;
  try {
    const face = engine && photo ? checkGates(await engine.analyze(photo), engine.config) : null;
    if (face && !face.ok) {
      console.error(
        JSON.stringify({ ok: false, foto: values.foto, failed: face.failed, hints: face.hints }),
      );
      return 3;
    }
    const config = loadConfig();
    const db = await openCliDatabase(config);
    try {
      const secrets = await resolveSecrets(config);
      const pins = await createPinHasher(secrets.pinPepper);
      const { id, created } = await upsertPatient({ db, pins }, parsed.data);
      const enrolled = engine && photo ? await enrollFromPhoto(engine, db, id, photo) : null;
      if (enrolled && !enrolled.ok) throw new Error(`photo refused: ${enrolled.failed.join(', ')}`);
      console.log(
        JSON.stringify({
          ok: true,
          id,
          created,
          numero_documento: parsed.data.numero_documento,
          via: db.via,
          ...(enrolled ? { face: 'enrolled', photoStored: engine!.config.storePhotos } : {}),
        }),
      );
      return 0;
    } finally {
      await db.close();
    }
  } finally {
    await engine?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
