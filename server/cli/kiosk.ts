/**
 * Operators' command for trusted kiosk devices (face authentication).
 *
 *   npm run kiosk -- add "Recepción central"   # prints a one-time activation link
 *   npm run kiosk -- list
 *   npm run kiosk -- revoke ID
 *
 * Open the link on the kiosk's browser: it sets an HttpOnly device cookie and opens /face-login in
 * kiosk mode. Only hashes of the link's token and of the cookie are stored. The link's base is
 * PUBLIC_URL (default http://HOST:PORT). Safe while the server runs (like `patients`).
 */
import { KIOSK_ACTIVATION_FRAGMENT } from '../../contract/face-login';
import { loadConfig } from '../config';
import { loadFaceLoginConfig } from '../face-login/config';
import { createDevice, listDevices, revokeDevice } from '../face-login/devices';
import { openCliDatabase } from './db';

const USAGE = `Usage:
  npm run kiosk -- add "NOMBRE DEL DISPOSITIVO"
  npm run kiosk -- list
  npm run kiosk -- revoke ID`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const name = rest.join(' ').trim();
  if (
    !(command === 'add' && name.length > 0 && name.length <= 80) &&
    !(command === 'list' && rest.length === 0) &&
    !(command === 'revoke' && /^\d+$/.test(name))
  ) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const faceLogin = loadFaceLoginConfig(process.env, config.env);
  // Safe while the server runs: through its socket when it holds the PGlite folder (server/cli/db.ts).
  const db = await openCliDatabase(config);
  try {
    if (command === 'add') {
      const { id, activationToken } = await createDevice(db, name, faceLogin.activationTtlMs);
      const base = (faceLogin.publicUrl ?? `http://${config.host}:${config.port}`).replace(
        /\/$/,
        '',
      );
      const link = `${base}/face-login?modo=kiosco#${KIOSK_ACTIVATION_FRAGMENT}=${activationToken}`;
      const hours = Math.round(faceLogin.activationTtlMs / 3_600_000);
      console.log(JSON.stringify({ ok: true, id, name, link, expiresInHours: hours, via: db.via }));
      console.error(
        `Abrí este enlace una sola vez en el navegador del dispositivo "${name}" (vence en ${hours} h):\n${link}`,
      );
      return 0;
    }
    if (command === 'list') {
      console.log(JSON.stringify({ ok: true, devices: await listDevices(db) }));
      return 0;
    }
    const revoked = await revokeDevice(db, name);
    console.log(JSON.stringify({ ok: revoked, id: name }));
    return revoked ? 0 : 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
