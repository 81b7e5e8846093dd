import sharp from 'sharp';
import type { Db } from '../db/client';
import type { IdentityReason } from '../../contract/identity';
import { findPortrait } from './cedula';
import type { IdentityConfig } from './config';
import type { StraightenedCard } from './card-geometry';
import type { DocumentReader } from './document';
import type { EvidenceKeeper } from './evidence';
import type { DocumentReading, DocumentReason, IdData } from './document-verdict';
import { IdentityError, identityMessages } from './errors';
import { describeMain } from './faces';
import { checkUpload, type ImageLimits, type RgbImage } from './image';
import { ms, round3, short, type IdentityLog } from './log';
import type { FacePool } from './pool';
import * as store from './store';
import {
  cosineSimilarity,
  noInsight,
  type EngineInsight,
  type FaceObservation,
  type FrameAnalysis,
} from './types';

/**
 * Document scan: the second step of a KYC session. A live session's selfie is compared with the
 * card's printed portrait, found by the face detector wherever the layout puts it (cedula.ts
 * findPortrait); the card is read (document.ts) and, when both hold, the session is completed with
 * the identity read. A refusal says why twice: the Spanish sentence (`error`) and its code (`reason`).
 */
export type ScanAnswer = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  reason?: IdentityReason;
  id_data?: IdData;
};

/** Runs a scan's costly part (the document work queue, in the routes); directly by default. */
type ScanRunner = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A front with no card outline needs this many text lines to show a card (a face photo shows 0-2, a
 * card cropped to itself 4-13). With an outline the count is not trusted: a tilted, blurred photo's
 * warp can break its lines (1 measured on a genuine front), and the OCR decides.
 */
const MIN_FRONT_TEXT_LINES = 3;

/** The front's face check, before any OCR: why it refuses (message key and code), or the match. */
type PortraitJudgement = {
  find: 'found' | 'no_face' | 'not_a_card' | 'second_face';
  similarity: number | null;
  match: boolean;
  /** The card's printed portrait, when found. */
  portrait: FaceObservation | null;
  refused: {
    message: 'notADocument' | 'noFaceOnDocument' | 'faceMismatch';
    reason: DocumentReason;
  } | null;
};

/**
 * The straightened front's faces against the selfie (issue 28): no card on the front (no outline and
 * next to no text lines, or a face filling the picture) is 'not a document'; no portrait is 'we could not see
 * your card's photo' (the front is retaken); a second portrait-sized face (a pasted photo) or a
 * portrait that is not the selfie's face is the mismatch.
 */
export function judgePortrait(
  card: Pick<StraightenedCard, 'found' | 'textLines'>,
  frame: FrameAnalysis,
  selfie: ArrayLike<number>,
  threshold: number,
): PortraitJudgement {
  const found = findPortrait(frame);
  const portrait = 'portrait' in found ? found.portrait : null;
  const similarity = portrait?.embedding ? cosineSimilarity(portrait.embedding, selfie) : null;
  const match = similarity !== null && similarity >= threshold;
  const find = 'refused' in found ? found.refused : 'found';
  const refused: PortraitJudgement['refused'] =
    (!card.found && card.textLines < MIN_FRONT_TEXT_LINES) || find === 'not_a_card'
      ? { message: 'notADocument', reason: 'not_a_document' }
      : find === 'no_face'
        ? { message: 'noFaceOnDocument', reason: 'no_face_on_document' }
        : !match
          ? { message: 'faceMismatch', reason: 'face_mismatch' }
          : null;
  return { find, similarity, match, portrait, refused };
}

export interface DocumentScan {
  scanDocument(
    db: Db,
    sessionId: string,
    /**
     * Both sides; a session made for the repeat of one side (issue 30) keeps the other, and a scan
     * of it may send only the side repeated. Without a front (sent or kept): 400 'Falta la imagen'.
     */
    images: { front?: Uint8Array | undefined; back?: Uint8Array | undefined },
    options?: { run?: ScanRunner },
  ): Promise<ScanAnswer>;
  /** Reads a document with no session (CLI): MRZ, printed fields, checks. */
  readDocument(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
}

/** A straightened side as the JPEG the face workers analyse. */
const jpegOf = (img: RgbImage): Promise<Buffer> =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();

/**
 * The card's portrait cropped from the straightened front (with a margin of a quarter of the face),
 * for the evidence: the face box is in the analysed image's pixels, which may be downscaled.
 */
function portraitCrop(
  card: RgbImage,
  frame: FrameAnalysis,
  face: FaceObservation,
): Promise<Buffer> {
  const sx = card.width / frame.width;
  const sy = card.height / frame.height;
  const [x, y, w, h] = face.box;
  const left = Math.max(0, Math.floor((x - w / 4) * sx));
  const top = Math.max(0, Math.floor((y - h / 4) * sy));
  const right = Math.min(card.width, Math.ceil((x + (w * 5) / 4) * sx));
  const bottom = Math.min(card.height, Math.ceil((y + (h * 5) / 4) * sy));
  return sharp(card.data, { raw: { width: card.width, height: card.height, channels: 3 } })
    .extract({ left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export function createDocumentScan(deps: {
  config: IdentityConfig;
  pool: FacePool;
  reader: DocumentReader;
  limits: ImageLimits;
  log: IdentityLog;
  /** Where decisions are reported (journey insight); none by default. */
  insight?: EngineInsight;
  /** The KYC selfie's liveness profile: only its sessions take a document. */
  decider: string;
  /** Where each scan's evidence is kept (issue 30); nothing is kept without it. */
  evidence?: EvidenceKeeper | null;
}): DocumentScan {
  const { config, pool, reader, limits, log } = deps;
  const insight = deps.insight ?? noInsight;
  /**
   * Sessions whose scan runs in this process (issue 29 item 2): one scan per session at a time, a
   * second one refused at once instead of queued behind the first, so that one session cannot hold
   * the document reader for several budgets.
   */
  const scanning = new Set<string>();

  /** The scan's costly part: the portrait, then the OCR; the session was checked and counted. */
  async function scan(
    db: Db,
    sessionId: string,
    selfie: number[],
    images: { front: Uint8Array; back?: Uint8Array | undefined },
    tStart: number,
  ): Promise<ScanAnswer> {
    const threshold = config.documentMatchThreshold;
    const refuse = (error: string, reason: DocumentReason): ScanAnswer => {
      insight.document({ reason, durationMs: performance.now() - tStart });
      return { success: false, kyc_complete: false, error, reason };
    };
    // The sides as the evidence keeps them, encoded while the card is read.
    const sides = deps.evidence?.sides(images.front, images.back ?? null);
    /** Keeps what this scan saw (sealed) for a person's review; a failure costs the answer nothing. */
    const keep = async (reason: DocumentReason | null, reading: DocumentReading | null) => {
      if (!deps.evidence || !sides) return;
      try {
        await deps.evidence.scan(db, sessionId, {
          sides,
          portrait:
            face.portrait &&
            (await portraitCrop(frontCard.image, front.frame, face.portrait).catch(() => null)),
          idData: reading?.idData ?? reading?.fields ?? null,
          reason,
          similarity: face.similarity,
          threshold,
          selfieEmbedding: selfie,
          portraitEmbedding: face.portrait?.embedding ?? null,
        });
      } catch (err) {
        log.warn({
          event: 'evidence_failed',
          session: short(sessionId),
          error: (err as Error).name,
        });
      }
    };
    // The card found in the front's photo and straightened; its faces are found and described there.
    // The portrait first: a front with no card on it, no portrait, or a portrait that is not the
    // selfie's face ends the attempt before any OCR.
    const frontCard = await reader.straighten(images.front);
    const front = await describeMain(pool, limits, await jpegOf(frontCard.image));
    const face = judgePortrait(frontCard, front.frame, selfie, threshold);
    const logFace = (extra: Record<string, unknown>) =>
      log.info({
        session: short(sessionId),
        faces: front.frame.faces.length,
        portrait: face.find,
        card_found: frontCard.found,
        text_lines: frontCard.textLines,
        similarity: round3(face.similarity),
        threshold,
        match: face.match,
        ...extra,
        ms: ms(tStart),
      });
    if (face.refused || !images.back) {
      logFace({ event: 'document_face' });
      if (!face.refused) {
        await keep('back_missing', null);
        return refuse(identityMessages.backMissing, 'back_missing');
      }
      // Faces that differ on a real card: a person may approve it, with the fields read (the
      // OCR runs for the evidence only: the answer is the refusal, whatever the reading).
      const back = images.back;
      const reading =
        deps.evidence && face.refused.reason === 'face_mismatch' && back
          ? await reader
              .straighten(back)
              .then((backCard) => reader.read(frontCard, backCard))
              .catch(() => null)
          : null;
      await keep(face.refused.reason, reading);
      return refuse(identityMessages[face.refused.message], face.refused.reason);
    }
    const backCard = await reader.straighten(images.back);
    const reading = await reader.read(frontCard, backCard);
    logFace({
      event: 'document_read',
      ok: reading.ok,
      checks: reading.checks,
      passes: reading.passes,
      front_passes: reading.frontPasses,
      found: [frontCard.found, backCard.found],
      skew: [frontCard.skew, backCard.skew],
    });
    await keep(reading.ok && reading.idData ? null : (reading.reason ?? 'mrz_unreadable'), reading);
    if (!reading.ok || !reading.idData)
      return refuse(
        reading.error ?? identityMessages.mrzUnreadable,
        reading.reason ?? 'mrz_unreadable',
      );
    await store.completeSession(db, sessionId, {
      id_data: reading.idData,
      checks: { ...reading.checks, portraitFound: true },
      face: { similarity: face.similarity, threshold },
    });
    insight.document({ durationMs: performance.now() - tStart });
    return { success: true, kyc_complete: true, id_data: reading.idData };
  }

  return {
    async scanDocument(db, sessionId, images, options = {}) {
      const tStart = performance.now();
      if (images.front) checkUpload(images.front, limits);
      if (images.back) checkUpload(images.back, limits);
      if (!images.front && !images.back)
        throw new IdentityError('missing_file', identityMessages.missingFile);
      const session = await store.loadSession(db, sessionId);
      if (session.decider !== deps.decider)
        throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
      if (session.status === 'rejected' || session.status === 'completed')
        throw new IdentityError('session_closed', identityMessages.sessionClosed);
      if (session.status !== 'live' || !session.selfie_embedding)
        throw new IdentityError('liveness_missing', identityMessages.livenessMissing);
      // Claimed with no await since the session was read: two requests cannot both get past it.
      if (scanning.has(sessionId))
        throw new IdentityError('scan_in_progress', identityMessages.scanInProgress);
      scanning.add(sessionId);
      try {
        // A session made for the repeat of one side keeps the other; any other needs the front.
        const kept =
          (!images.front || !images.back) && deps.evidence
            ? await deps.evidence.kept(db, sessionId)
            : { front: null, back: null };
        const front = images.front ?? kept.front;
        if (!front) throw new IdentityError('missing_file', identityMessages.missingFile);
        const sides = { front, back: images.back ?? kept.back ?? undefined };
        if (!(await store.countScanAttempt(db, sessionId, config.bounds.scanAttemptsPerSession))) {
          insight.record({
            flow: 'onboarding',
            step: 'document',
            outcome: 'failed',
            error: 'attempts_exhausted',
          });
          throw new IdentityError('attempts_exhausted', identityMessages.attemptsExhausted);
        }
        const selfie = session.selfie_embedding.map(Number);
        const run: ScanRunner = options.run ?? ((task) => task());
        return await run(() => scan(db, sessionId, selfie, sides, tStart));
      } finally {
        scanning.delete(sessionId);
      }
    },

    readDocument: async (front, back) => {
      checkUpload(front, limits);
      checkUpload(back, limits);
      return reader.read(await reader.straighten(front), await reader.straighten(back));
    },
  };
}
