import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';

/**
 * pinPepper: the Argon2id PINs' pepper; otpSecret: the HMAC key of stored codes; casesKey: 32
 * bytes (base64url) that seal identity evidence and review cases at rest (security/sealed.ts).
 */
export type Secrets = { pinPepper: string; otpSecret: string; casesKey: string };

const NAMES = ['pinPepper', 'otpSecret', 'casesKey'] as const;

/**
 * Secrets come from configuration; outside production, missing ones are generated once into the
 * data folder (mode 0600) so that PIN hashes and sealed evidence survive a restart.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  const configured = {
    pinPepper: config.pinPepper,
    otpSecret: config.otpSecret,
    casesKey: config.casesKey,
  };
  if (configured.pinPepper && configured.otpSecret && configured.casesKey)
    return configured as Secrets;
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
  } catch {
    stored = {};
  }
  const secrets = Object.fromEntries(
    NAMES.map((name) => [
      name,
      configured[name] ?? stored[name] ?? randomBytes(32).toString('base64url'),
    ]),
  ) as Secrets;
  if (NAMES.some((name) => secrets[name] !== stored[name])) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
}
