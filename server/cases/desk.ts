import type { DeskPhotoResponse } from '../../contract/operators';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { IdentityEngine } from '../identity/engine';
import { IdentityError } from '../identity/errors';
import { checkGates } from '../identity/gates';
import { sniffImage } from '../identity/image';
import { cosineSimilarity } from '../identity/types';
import {
  actorOf,
  audited,
  caseIdOf,
  heldCase,
  holds,
  json,
  nowOf,
  readCase,
  refusedAs,
  type CaseOperator,
} from './access';
import { voidApprovals } from './approval';
import { audit } from './audit';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import { setDeskPhoto } from './store';

/**
 * The desk camera's photo at the health centre: a JPEG with exactly one clear face (the selfie's
 * gates), its description compared with the card's portrait as a signal, both kept sealed; on
 * approval it is the enrolled face.
 */
export const deskPhoto = (...a: Parameters<typeof takeDeskPhoto>) =>
  audited(a[0], a[1], 'desk_photo', () => takeDeskPhoto(...a));

async function takeDeskPhoto(
  ctx: AppContext,
  op: CaseOperator,
  rawId: string,
  jpeg: Buffer,
  engine: () => Promise<Pick<IdentityEngine, 'analyze' | 'config'>>,
): Promise<DeskPhotoResponse> {
  if (sniffImage(jpeg) !== 'jpeg') throw new HttpError(415, m.deskNotJpeg);
  const now = nowOf(ctx);
  // The claim is checked before the engine's work, and again when storing.
  const before = await readCase(ctx.db, caseIdOf(rawId));
  if (before.status !== 'open') throw refusedAs.decided(before.id);
  if (!holds(ctx, before, op, now)) throw refusedAs.notYours(before.id);
  if (before.kind !== 'centro') throw new HttpError(409, m.notCentro);
  const identity = await engine();
  let embedding: number[];
  try {
    const frame = await identity.analyze(jpeg);
    const gates = checkGates(frame, identity.config);
    if (!gates.ok || !gates.face.embedding)
      throw new HttpError(422, gates.hints.length ? gates.hints.join(' ') : m.deskNoFace);
    embedding = Array.from(gates.face.embedding);
  } catch (err) {
    if (err instanceof IdentityError) throw new HttpError(err.status, err.message);
    throw err;
  }
  const sealer = caseSealer(ctx);
  const portrait = sealer.openJson<number[]>(
    before.id,
    'portrait_embedding',
    before.portrait_embedding,
  );
  const similarity = portrait ? Number(cosineSimilarity(embedding, portrait).toFixed(4)) : null;
  const threshold = portrait ? identity.config.documentMatchThreshold : null;
  await ctx.db.transaction(async (tx) => {
    const row = await heldCase(ctx, tx, op, before.id, nowOf(ctx));
    await setDeskPhoto(tx, row.id, {
      jpeg: sealer.seal(row.id, 'desk', jpeg),
      embedding: sealer.sealJson(row.id, 'desk_embedding', embedding),
      similarity,
    });
    await audit(tx, {
      caseId: row.id,
      actor: actorOf(op),
      action: 'desk_photo',
      detail: { similarity, threshold },
      at: now,
    });
    // Another face to enrol: what was approved is not what would be registered.
    await voidApprovals(tx, {
      caseId: row.id,
      approvals: json(row.approvals),
      actor: actorOf(op),
      cause: 'desk_photo',
      at: now,
    });
  });
  return { success: true, faceSimilarity: similarity, faceThreshold: threshold };
}
