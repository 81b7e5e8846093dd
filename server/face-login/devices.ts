import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client';

/**
 * Trusted kiosk devices. The operator command creates one with a one-time activation token; the
 * browser that opens the link exchanges it for a device token kept in an HttpOnly cookie. Only
 * SHA-256 hashes of both tokens are stored (they are 256-bit random, so a plain hash suffices).
 */
type Device = { id: string; name: string };
type DeviceRow = Device & {
  created_at: string;
  activated_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
  activation_pending: boolean;
};

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function createDevice(
  db: Db,
  name: string,
  activationTtlMs: number,
): Promise<{ id: string; activationToken: string }> {
  const activationToken = newToken();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO kiosk_devices (name, activation_hash, activation_expires_at)
     VALUES ($1, $2, now() + ($3::bigint * interval '1 millisecond')) RETURNING id::text AS id`,
    [name, hash(activationToken), activationTtlMs],
  );
  return { id: rows[0]!.id, activationToken };
}

/**
 * Spends an activation token (once: the update is atomic, so of two concurrent uses one wins) and
 * returns the device token for the cookie, or null for an unknown, used, expired or revoked link.
 */
export async function activateDevice(
  db: Db,
  activationToken: string,
): Promise<{ device: Device; deviceToken: string } | null> {
  if (typeof activationToken !== 'string' || !TOKEN.test(activationToken)) return null;
  const deviceToken = newToken();
  const { rows } = await db.query<Device>(
    `UPDATE kiosk_devices SET activation_hash = NULL, activation_expires_at = NULL,
            token_hash = $2, activated_at = now(), last_seen_at = now()
      WHERE activation_hash = $1 AND activation_expires_at > now() AND revoked_at IS NULL
      RETURNING id::text AS id, name`,
    [hash(activationToken), hash(deviceToken)],
  );
  const device = rows[0];
  return device ? { device, deviceToken } : null;
}

/** The active device a cookie belongs to (and marks it seen), or null. */
export async function deviceOf(db: Db, deviceToken: string | undefined): Promise<Device | null> {
  if (!deviceToken || !TOKEN.test(deviceToken)) return null;
  const { rows } = await db.query<Device>(
    `UPDATE kiosk_devices SET last_seen_at = now()
      WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id::text AS id, name`,
    [hash(deviceToken)],
  );
  return rows[0] ?? null;
}

export async function listDevices(db: Db): Promise<DeviceRow[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT id::text AS id, name, created_at::text, activated_at::text, last_seen_at::text,
            revoked_at::text, (activation_hash IS NOT NULL AND activation_expires_at > now()) AS activation_pending
       FROM kiosk_devices ORDER BY id`,
  );
  return rows;
}

/** Revokes a device: its cookie stops working at once, and a pending link too. */
export async function revokeDevice(db: Db, id: string): Promise<boolean> {
  if (!/^\d{1,18}$/.test(id)) return false;
  const { rows } = await db.query(
    `UPDATE kiosk_devices SET revoked_at = now(), token_hash = NULL, activation_hash = NULL
      WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
    [id],
  );
  return rows.length === 1;
}
