import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { patientInput } from '../../contract/patients';
import { loadConfig } from '../config';
import { openCliDatabase } from './db';
import { normalizeParaguayPhone } from '../../contract/phone';
import { checkPepper, PEPPER_MISMATCH_MESSAGE } from '../security/pepper-check';
import { createPinHasher } from '../security/pin';
import { resolveSecrets } from '../security/secrets';
import { upsertPatient } from '../patients/service';
import { enrollFromPhoto } from '../face-login/enroll';
import { loadIdentityConfig } from '../identity/config';
import { createIdentityEngine } from '../identity/engine';
import { checkGates } from '../identity/gates';

const USAGE = `Usage: npm run patients -- add --documento 1234567 --celular 0981123456 --nombre "NOMBRES" --apellido "APELLIDOS" [--email correo@ejemplo.com] [--nacimiento AAAA-MM-DD] [--foto FOTO.jpg] [--pin-stdin]
Creates the patient, or updates the one with that document number (and clears a login lock).
The PIN is never an argument (every local user sees a command's arguments): the command asks for
it on the terminal (twice, not shown), or reads its first line from standard input with
--pin-stdin (scripts: printf '%s\n' "$PIN" | npm run patients -- add ... --pin-stdin).
--foto enrols the patient's face for face authentication, with the selfie's checks (one face, large
enough, lit, centred); only the face description is stored (the photo too if IDENTITY_STORE_PHOTOS).`;

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    let value = '';
    const finish = (err?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004') return finish(new Error('cancelled'));
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The first line of standard input (the PIN, piped by a script). */
async function firstLineOfStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    text += chunk as string;
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** The PIN from stdin (--pin-stdin) or the terminal prompt; null when neither can give it. */
async function readPin(fromStdin: boolean): Promise<string | null> {
  if (fromStdin) return firstLineOfStdin();
  if (!process.stdin.isTTY) return null;
  const pin = await promptHidden('PIN (6 digits, not shown): ');
  const again = await promptHidden('PIN again: ');
  if (pin !== again) throw new Error('The two PINs differ. Nothing was written.');
  return pin;
}

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
      // Refused below: kept so that the refusal can say why.
      pin: { type: 'string' },
      'pin-stdin': { type: 'boolean' },
      celular: { type: 'string' },
      nombre: { type: 'string' },
      apellido: { type: 'string' },
      email: { type: 'string' },
      nacimiento: { type: 'string' },
      foto: { type: 'string' },
    },
    strict: true,
  });
  if (values.pin !== undefined) {
    console.error(
      `--pin is not accepted: a command's arguments are visible to every local user (ps) and stay in the shell history. Type the PIN at the prompt, or pipe it with --pin-stdin.\n${USAGE}`,
    );
    return 2;
  }
  const pin = await readPin(values['pin-stdin'] === true);
  if (pin === null) {
    console.error(
      `No PIN: run the command on a terminal (it asks for it) or pipe it with --pin-stdin.\n${USAGE}`,
    );
    return 2;
  }
  const celular = values.celular ? normalizeParaguayPhone(values.celular) : undefined;
  const parsed = patientInput.safeParse({
    numero_documento: values.documento,
    pin,
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
    const config = loadConfig(process.env);
    const db = await openCliDatabase(config);
    try {
      const secrets = await resolveSecrets(config);
      // Prove this command holds the server's pepper before writing a PIN hash with it.
      if ((await checkPepper(db, secrets.pinPepper)) === 'mismatch') {
        console.error(JSON.stringify({ ok: false, error: 'pin_pepper_mismatch' }));
        console.error(PEPPER_MISMATCH_MESSAGE);
        return 4;
      }
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
