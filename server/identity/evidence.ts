import type { KycDeciderName } from '../../contract/identity';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../db/client';
import type { Sealer } from '../security/sealed';
import type { IdData } from './document-verdict';
import { sniffImage } from './image';
import { KYC_DECIDER } from './liveness';
import type { IdentityLog } from './log';
import * as store from './store';

/**
 * Evidence of a KYC session (issue 30): what a person needs to decide when the engine cannot. The
 * liveness decision keeps the deciding selfie frame, each document scan its front, back, portrait
 * crop, the fields read and why it refused; sealed under CASES_KEY, each value bound to
 * 'kyc:<session id>:<what>'. Without a sealer (CLI, benches, most tests) nothing is kept. Nothing
 * of it reaches a log.
 */

/** The sealed values of a session's evidence (and 'result': a verified session's identity and face). */
type Sealed = 'selfie' | 'front' | 'back' | 'portrait' | 'id_data' | 'result';
export const evidenceContext = (sessionId: string, what: Sealed) => `kyc:${sessionId}:${what}`;

/** One image per kind, bounded: a face frame or portrait ~256 KB, a side of the card 1 MB. */
export const EVIDENCE_BOUNDS = {
  face: { maxBytes: 256 * 1024, maxSide: 640 },
  card: { maxBytes: 1024 * 1024, maxSide: 2048 },
} as const;
type Bound = (typeof EVIDENCE_BOUNDS)[keyof typeof EVIDENCE_BOUNDS];

/**
 * An image as the evidence keeps it: a JPEG within the bound, as received when it already is one
 * (no re-encoding loss), else upright, downscaled and re-encoded until it fits.
 */
export async function evidenceJpeg(bytes: Uint8Array, bound: Bound): Promise<Buffer> {
  if (sniffImage(bytes) === 'jpeg' && bytes.length <= bound.maxBytes) {
    const m = await sharp(bytes).metadata();
    if (Math.max(m.width ?? 0, m.height ?? 0) <= bound.maxSide) return Buffer.from(bytes);
  }
  let out: Buffer = Buffer.alloc(0);
  for (const [scale, quality] of [
    [1, 85],
    [1, 70],
    [0.75, 60],
    [0.5, 50],
  ] as const) {
    const side = Math.round(bound.maxSide * scale);
    out = await sharp(bytes)
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality })
      .toBuffer();
    if (out.length <= bound.maxBytes) break;
  }
  return out;
}

type KeptSides = { front: Buffer | null; back: Buffer | null };

/** The engine's hand on the evidence: what the liveness decision and the document scan keep. */
export type EvidenceKeeper = {
  /** A liveness request's outcome (in its transaction). */
  liveness(
    tx: Db,
    sessionId: string,
    e: {
      selfie: { image: Uint8Array; rank: number; embedding: number[] | null } | null;
      reason: string | null;
      attempt: boolean;
      /** The session's challenge signals (issue 31), or null/absent to keep the stored ones. */
      signals?: Record<string, number> | null;
    },
  ): Promise<void>;
  /**
   * The sides of a scan as the evidence keeps them, encoded while the scan runs (never rejects: a
   * side that cannot be encoded is null).
   */
  sides(front: Uint8Array, back: Uint8Array | null): Promise<KeptSides>;
  /** A document scan's outcome, refused or not (its sides from `sides`). */
  scan(
    db: Db,
    sessionId: string,
    e: {
      sides: Promise<KeptSides>;
      portrait: Uint8Array | null;
      idData: IdData | null;
      reason: string | null;
      similarity: number | null;
      threshold: number;
      selfieEmbedding: number[];
      portraitEmbedding: number[] | null;
    },
  ): Promise<void>;
  /** The sides a session made for a repeat keeps (opened), for a scan that sends only the other. */
  kept(db: Db, sessionId: string): Promise<{ front: Buffer | null; back: Buffer | null }>;
};

/** The evidence keeper over `sealer`; failures to keep are logged (the code only) and dropped. */
export function evidenceKeeper(sealer: Sealer, log: IdentityLog): EvidenceKeeper {
  const seal = (id: string, what: Sealed, bytes: Uint8Array | null) =>
    bytes ? sealer.seal(bytes, evidenceContext(id, what)) : null;
  /** An image kept in its bound, or null (and a warning) when it cannot be encoded. */
  const image = async (bytes: Uint8Array | null, bound: Bound): Promise<Buffer | null> => {
    if (!bytes) return null;
    try {
      return await evidenceJpeg(bytes, bound);
    } catch (err) {
      log.warn({ event: 'evidence_image_failed', error: (err as Error).name });
      return null;
    }
  };
  return {
    async liveness(tx, sessionId, e) {
      const selfie = e.selfie && (await image(e.selfie.image, EVIDENCE_BOUNDS.face));
      await store.saveLivenessEvidence(tx, sessionId, {
        selfie:
          e.selfie && selfie
            ? {
                sealed: seal(sessionId, 'selfie', selfie)!,
                rank: e.selfie.rank,
                embedding: e.selfie.embedding,
              }
            : null,
        reason: e.reason,
        attempt: e.attempt,
        signals: e.signals ?? null,
      });
    },
    async sides(front, back) {
      const [f, b] = await Promise.all([
        image(front, EVIDENCE_BOUNDS.card),
        image(back, EVIDENCE_BOUNDS.card),
      ]);
      return { front: f, back: b };
    },
    async scan(db, sessionId, e) {
      const [{ front, back }, portrait] = await Promise.all([
        e.sides,
        image(e.portrait, EVIDENCE_BOUNDS.face),
      ]);
      await store.saveScanEvidence(db, sessionId, {
        front: seal(sessionId, 'front', front),
        back: seal(sessionId, 'back', back),
        portrait: seal(sessionId, 'portrait', portrait),
        idData: e.idData && seal(sessionId, 'id_data', Buffer.from(JSON.stringify(e.idData))),
        reason: e.reason,
        similarity: e.similarity,
        threshold: e.threshold,
        selfieEmbedding: e.selfieEmbedding,
        portraitEmbedding: e.portraitEmbedding,
      });
    },
    async kept(db, sessionId) {
      const k = await store.keptSides(db, sessionId);
      /** A kept side that does not open (another CASES_KEY) is as good as none. */
      const open = (what: 'front' | 'back', v: Uint8Array | null) => {
        if (!v) return null;
        try {
          return sealer.open(v, evidenceContext(sessionId, what));
        } catch (err) {
          log.warn({ event: 'evidence_unopened', side: what, error: (err as Error).name });
          return null;
        }
      };
      return { front: open('front', k.front), back: open('back', k.back) };
    },
  };
}

/** What a KYC session captured, opened (server/onboarding/kyc-store.ts `KycEvidence`). */
export type SessionEvidence = {
  selfie: Buffer | null;
  front: Buffer | null;
  back: Buffer | null;
  portrait: Buffer | null;
  idData: IdData | null;
  reasons: string[];
  faceSimilarity: number | null;
  faceThreshold: number | null;
  attempts: { liveness: number; scans: number };
  selfieEmbedding: number[] | null;
  portraitEmbedding: number[] | null;
  /** The liveness challenge's signals (issue 31): counts per signal, never verdicts; {} when none. */
  signals: Record<string, number>;
};

/** Stored signals (jsonb: an object, or its text on some drivers) as counts. */
function signalsOf(v: Record<string, number> | string | null | undefined): Record<string, number> {
  const o = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  if (!o || typeof o !== 'object') return {};
  return Object.fromEntries(
    Object.entries(o as Record<string, unknown>).filter(
      (e): e is [string, number] => typeof e[1] === 'number',
    ),
  );
}

const numbers = (v: ArrayLike<unknown> | null | undefined) => (v ? Array.from(v, Number) : null);

/** A session's evidence, opened; null when the session is unknown or purged. */
export async function readEvidence(
  db: Db,
  sealer: Sealer,
  sessionId: string,
): Promise<SessionEvidence | null> {
  if (!store.isSessionId(sessionId)) return null;
  const row = await store.loadEvidence(db, sessionId);
  if (!row) return null;
  const open = (what: Sealed, v: Uint8Array | null) =>
    v ? sealer.open(v, evidenceContext(sessionId, what)) : null;
  const idData = open('id_data', row.id_data);
  return {
    selfie: open('selfie', row.selfie),
    front: open('front', row.front),
    back: open('back', row.back),
    portrait: open('portrait', row.portrait),
    idData: idData && (JSON.parse(idData.toString('utf8')) as IdData),
    reasons: row.reasons ?? [],
    faceSimilarity: row.face_similarity === null ? null : Number(row.face_similarity),
    faceThreshold: row.face_threshold === null ? null : Number(row.face_threshold),
    attempts: { liveness: row.liveness_attempts ?? 0, scans: row.scans ?? 0 },
    selfieEmbedding: numbers(row.selfie_embedding) ?? numbers(row.session_selfie),
    portraitEmbedding: numbers(row.portrait_embedding),
    signals: signalsOf(row.signals),
  };
}

/**
 * A new KYC session past the selfie ('live'), for the repeat of one side of the card: its face is
 * `embedding`; the side not repeated is kept (sealed) for a scan that sends only the other.
 */
export async function createLiveSession(
  db: Db,
  sealer: Sealer,
  input: {
    embedding: ArrayLike<number>;
    keep: { front?: Buffer; back?: Buffer };
    expiresAt: Date;
  },
): Promise<string> {
  const id = randomUUID();
  const embedding = Array.from(input.embedding, Number);
  if (!embedding.length) throw new Error('createLiveSession: a face description is required');
  await store.insertMadeSession(db, {
    id,
    decider: KYC_DECIDER,
    status: 'live',
    state: { kind: 'assisted', phase: 'done' },
    embedding,
    result: null,
    expiresAt: input.expiresAt,
  });
  const seal = (what: 'front' | 'back', bytes: Buffer | undefined) =>
    bytes ? sealer.seal(bytes, evidenceContext(id, what)) : null;
  await store.insertKeptSides(
    db,
    id,
    { front: seal('front', input.keep.front), back: seal('back', input.keep.back) },
    embedding,
  );
  return id;
}

/** The decider of sessions an operator's approval made (no challenge and no document scan answer to it). */
export const OPERATOR_DECIDER = 'operator' satisfies KycDeciderName;

/**
 * A new completed KYC session for an approved case: its identity and face sealed (issue 42, L4: the
 * case keeps them sealed, so does its session: 'kyc:<id>:result'), so registration (getCompletedKyc,
 * consume, progress, enrolment) works unchanged once `openVerified` opens them.
 */
export async function createVerifiedSession(
  db: Db,
  sealer: Sealer,
  input: {
    idData: IdData | Record<string, unknown>;
    embedding: ArrayLike<number>;
    expiresAt: Date;
  },
): Promise<string> {
  if (!input.embedding.length)
    throw new Error('createVerifiedSession: a face description is required');
  const id = randomUUID();
  const verified: Verified = {
    id_data: input.idData as Record<string, unknown>,
    embedding: Array.from(input.embedding, Number),
  };
  await store.insertMadeSession(db, {
    id,
    decider: OPERATOR_DECIDER,
    status: 'completed',
    state: { kind: 'assisted', phase: 'done' },
    embedding: null,
    result: { checks: { operator: true } },
    sealed: sealer.seal(Buffer.from(JSON.stringify(verified)), evidenceContext(id, 'result')),
    expiresAt: input.expiresAt,
  });
  return id;
}

type Verified = { id_data: Record<string, unknown>; embedding: number[] };

/** A verified session's identity and face, opened (null: not such a session). */
export function openVerified(
  sealer: Sealer,
  sessionId: string,
  sealed: Uint8Array | null,
): Verified | null {
  if (!sealed) return null;
  return JSON.parse(
    sealer.open(sealed, evidenceContext(sessionId, 'result')).toString('utf8'),
  ) as Verified;
}

/**
 * A case copied the session's evidence, sealed on the case (issue 42, L4): the session's faces'
 * descriptions (its selfie's, the evidence's selfie and card portrait) and a read result leave it,
 * and it ends (rejected 'case_opened': no scan or registration answers to it any more). Its sealed
 * images and fields stay until the session's purge, for a later case of the same registration.
 */
export async function handOverEvidence(db: Db, sessionId: string): Promise<void> {
  if (!store.isSessionId(sessionId)) return;
  await store.forgetEvidenceFaces(db, sessionId);
  await store.rejectSession(db, sessionId, 'case_opened');
}
