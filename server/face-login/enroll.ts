import type { Db } from '../db/client';
import { enrollFace, type IdentityEngine } from '../identity/engine';
import { checkGates, type GateName } from '../identity/gates';

type EnrollOutcome =
  { ok: true; faceWidth: number } | { ok: false; failed: GateName[]; hints: string[] };

/**
 * Enrols a patient's face from a photo (operator import, tests) with the selfie's gates: exactly
 * one face, large enough, lit, centred. Only the description is stored; the photo only when
 * IDENTITY_STORE_PHOTOS says so.
 */
export async function enrollFromPhoto(
  engine: IdentityEngine,
  db: Db,
  patientId: string,
  photo: Uint8Array,
): Promise<EnrollOutcome> {
  const frame = await engine.analyze(photo);
  const gates = checkGates(frame, engine.config);
  if (!gates.ok) return { ok: false, failed: gates.failed, hints: gates.hints };
  if (!gates.face.embedding) return { ok: false, failed: ['no_face'], hints: [] };
  await enrollFace(
    db,
    patientId,
    gates.face.embedding,
    engine.config.storePhotos ? photo : undefined,
  );
  return { ok: true, faceWidth: Math.round(gates.face.box[2]) };
}
