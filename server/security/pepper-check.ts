import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';

/**
 * A keyed check value of PIN_PEPPER stored in the database (`app_settings.pin_pepper_check`), so
 * that a process can prove it holds the pepper the stored PIN hashes were made with, without the
 * pepper itself ever being stored (issue 21, item 11). The first process to ask records it.
 */
const NAME = 'pin_pepper_check';

function pepperCheckValue(pepper: string): string {
  return createHmac('sha256', pepper)
    .update('pacientes-py PIN_PEPPER check v1')
    .digest('base64url');
}

/** 'recorded' (first use of this database), 'match', or 'mismatch' (another pepper). */
export async function checkPepper(
  db: Pick<Db, 'query'>,
  pepper: string,
): Promise<'recorded' | 'match' | 'mismatch'> {
  const value = pepperCheckValue(pepper);
  const inserted = await db.query(
    'INSERT INTO app_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING 1',
    [NAME, value],
  );
  if (inserted.rows.length) return 'recorded';
  const { rows } = await db.query<{ value: string }>(
    'SELECT value FROM app_settings WHERE name = $1',
    [NAME],
  );
  const stored = Buffer.from(rows[0]?.value ?? '');
  const mine = Buffer.from(value);
  return stored.length === mine.length && timingSafeEqual(stored, mine) ? 'match' : 'mismatch';
}

export const PEPPER_MISMATCH_MESSAGE =
  "PIN_PEPPER is not the pepper this database was written with (its check value differs): every PIN written now would never verify. Use the server's PIN_PEPPER. Nothing was written.";
