import { randomBytes, randomUUID } from 'node:crypto';
import { OPERATOR_ROLES, type OperatorRole } from '../../contract/operators';
import { releaseClaimsOf } from '../cases/claims';
import type { AppContext } from '../context';
import { isUniqueViolation, type Db } from '../db/client';
import { hashToken, newToken } from './tokens';

/**
 * Operator accounts (issue 30): created by `npm run operadores -- add` with a one-time enrolment
 * link (24 h) that registers a passkey; revoked with every passkey and session; a new link kills
 * the older ones.
 */

export const ENROL_TTL_MS = 24 * 3_600_000;
const USUARIO = /^[a-z0-9._-]{3,32}$/;
// Plain text: no control characters, no markup.
const NOMBRE = /^[^\p{Cc}<>]{1,80}$/u;

/** An operator command's input that cannot be accepted (its message says why, in English). */
export class OperatorInputError extends Error {}

export type OperatorRow = {
  id: string;
  usuario: string;
  nombre: string;
  rol: OperatorRole;
  created_at: string;
  revoked_at: string | null;
  passkeys: number;
  enrolment_pending: boolean;
};

type Clock = AppContext['clock'];

function checkInput(input: { usuario: string; nombre: string; rol: string }) {
  if (!USUARIO.test(input.usuario))
    throw new OperatorInputError('usuario: 3 to 32 of a-z, 0-9, ".", "_" and "-"');
  const nombre = input.nombre.trim();
  if (!NOMBRE.test(nombre)) throw new OperatorInputError('nombre: 1 to 80 characters, plain text');
  if (!(OPERATOR_ROLES as readonly string[]).includes(input.rol))
    throw new OperatorInputError(`rol: ${OPERATOR_ROLES.join(' or ')}`);
  return { usuario: input.usuario, nombre, rol: input.rol as OperatorRole };
}

/** A new enrolment link for an operator: older unused links die (the caller's transaction). */
async function issueEnrolment(tx: Db, operatorId: string, now: number) {
  await tx.query(
    'UPDATE operator_enrolments SET used_at = $2 WHERE operator_id = $1 AND used_at IS NULL',
    [operatorId, new Date(now)],
  );
  const enrolToken = newToken();
  const expiresAt = new Date(now + ENROL_TTL_MS);
  await tx.query(
    `INSERT INTO operator_enrolments (token_hash, operator_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [hashToken(enrolToken), operatorId, new Date(now), expiresAt],
  );
  return { enrolToken, expiresAt };
}

/** Creates an operator and a one-time enrolment token (the CLI and tests). */
export async function createOperator(
  db: Db,
  input: { usuario: string; nombre: string; rol: OperatorRole },
  clock: Clock,
): Promise<{ id: string; enrolToken: string; expiresAt: Date }> {
  const { usuario, nombre, rol } = checkInput(input);
  const id = randomUUID();
  const now = clock.now();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO operators (id, usuario, nombre, rol, user_handle, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, usuario, nombre, rol, randomBytes(16).toString('base64url'), new Date(now)],
      );
      return { id, ...(await issueEnrolment(tx, id, now)) };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new OperatorInputError(`usuario ${usuario} already exists`);
    throw err;
  }
}

/**
 * A new enrolment link for an existing operator, killing older ones. A revoked operator is
 * reinstated by it (with no passkey: the revoked ones stay revoked), e.g. after a lost device.
 */
export async function renewEnrolment(
  db: Db,
  usuario: string,
  clock: Clock,
): Promise<{ id: string; enrolToken: string; expiresAt: Date; reinstated: boolean } | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; revoked: boolean }>(
      `SELECT id::text AS id, revoked_at IS NOT NULL AS revoked FROM operators WHERE usuario = $1
         FOR UPDATE`,
      [usuario],
    );
    const op = rows[0];
    if (!op) return null;
    if (op.revoked) await tx.query('UPDATE operators SET revoked_at = NULL WHERE id = $1', [op.id]);
    return { id: op.id, reinstated: op.revoked, ...(await issueEnrolment(tx, op.id, now)) };
  });
}

/**
 * Revokes an operator: every passkey, session and pending link stops working at once, and the
 * cases they held go back to the queue.
 */
export async function revokeOperator(db: Db, usuario: string, clock: Clock): Promise<boolean> {
  const now = new Date(clock.now());
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE operators SET revoked_at = $2 WHERE usuario = $1 AND revoked_at IS NULL
       RETURNING id::text AS id`,
      [usuario, now],
    );
    const id = rows[0]?.id;
    if (!id) return false;
    await tx.query(
      'UPDATE operator_credentials SET revoked_at = $2 WHERE operator_id = $1 AND revoked_at IS NULL',
      [id, now],
    );
    await tx.query(
      'UPDATE operator_sessions SET ended_at = $2 WHERE operator_id = $1 AND ended_at IS NULL',
      [id, now],
    );
    await tx.query(
      'UPDATE operator_enrolments SET used_at = $2 WHERE operator_id = $1 AND used_at IS NULL',
      [id, now],
    );
    await releaseClaimsOf(tx, { id, usuario }, now);
    return true;
  });
}

export async function listOperators(db: Db, clock: Clock): Promise<OperatorRow[]> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT o.id::text AS id, o.usuario, o.nombre, o.rol, o.created_at::text AS created_at,
            o.revoked_at::text AS revoked_at,
            (SELECT count(*)::int FROM operator_credentials c
              WHERE c.operator_id = o.id AND c.revoked_at IS NULL) AS passkeys,
            EXISTS (SELECT 1 FROM operator_enrolments e WHERE e.operator_id = o.id
                      AND e.used_at IS NULL AND e.expires_at > $1) AS enrolment_pending
       FROM operators o ORDER BY o.usuario`,
    [new Date(clock.now())],
  );
  return rows;
}
