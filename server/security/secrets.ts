import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';

export type Secrets = { pinPepper: string; otpSecret: string };

/**
 * Secrets come from configuration; outside production, missing ones are generated once into the
 * data folder (mode 0600) so that PIN hashes survive a restart.
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  if (config.pinPepper && config.otpSecret)
    return { pinPepper: config.pinPepper, otpSecret: config.otpSecret };
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
  } catch {
    stored = {};
  }
  const secrets: Secrets = {
    pinPepper: config.pinPepper ?? stored.pinPepper ?? randomBytes(32).toString('base64url'),
    otpSecret: config.otpSecret ?? stored.otpSecret ?? randomBytes(32).toString('base64url'),
  };
  if (secrets.pinPepper !== stored.pinPepper || secrets.otpSecret !== stored.otpSecret) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
}
