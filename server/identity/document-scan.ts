import sharp from 'sharp';
import type { Db } from '../db/client';
import { engineInsight, recordDocument } from '../insight/engine-recorder';
import { faceInArea } from './cedula';
import type { IdentityConfig } from './config';
import type { DocumentReader } from './document';
import type { DocumentReading, IdData } from './document-verdict';
import { IdentityError, identityMessages } from './errors';
import { describeMain } from './faces';
import { checkUpload, type ImageLimits, type RgbImage } from './image';
import { ms, round3, short, type IdentityLog } from './log';
import type { FacePool } from './pool';
import * as store from './store';
import { cosineSimilarity, type FaceObservation } from './types';

/**
 * Document scan: the second step of a KYC session. A live session's selfie is compared with the
 * face printed in the card's photo area; the card is read (document.ts) and, when both hold, the
 * session is completed with the identity read.
 */
export type ScanAnswer = {
  success: boolean;
  kyc_complete: boolean;
  error?: string;
  id_data?: IdData;
};

export interface DocumentScan {
  scanDocument(
    db: Db,
    sessionId: string,
    images: { front: Uint8Array; back?: Uint8Array | undefined },
  ): Promise<ScanAnswer>;
  /** Reads a document with no session (CLI): MRZ, printed fields, checks. */
  readDocument(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
}

/** A straightened side as the JPEG the face workers analyse. */
const jpegOf = (img: RgbImage): Promise<Buffer> =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();

export function createDocumentScan(deps: {
  config: IdentityConfig;
  pool: FacePool;
  reader: DocumentReader;
  limits: ImageLimits;
  log: IdentityLog;
  /** The KYC selfie's liveness profile: only its sessions take a document. */
  decider: string;
}): DocumentScan {
  const { config, pool, reader, limits, log } = deps;

  return {
    async scanDocument(db, sessionId, images) {
      const tStart = performance.now();
      checkUpload(images.front, limits);
      if (images.back) checkUpload(images.back, limits);
      const session = await store.loadSession(db, sessionId);
      if (session.decider !== deps.decider)
        throw new IdentityError('session_invalid', identityMessages.sessionInvalid);
      if (session.status === 'rejected' || session.status === 'completed')
        throw new IdentityError('session_closed', identityMessages.sessionClosed);
      if (session.status !== 'live' || !session.selfie_embedding)
        throw new IdentityError('liveness_missing', identityMessages.livenessMissing);
      if (!(await store.countScanAttempt(db, sessionId, config.bounds.scanAttemptsPerSession))) {
        engineInsight.record({
          flow: 'onboarding',
          step: 'document',
          outcome: 'failed',
          error: 'attempts_exhausted',
        });
        throw new IdentityError('attempts_exhausted', identityMessages.attemptsExhausted);
      }
      // The card found in the front's photo and straightened; its faces are described there, so that
      // the photo area the OCR locates and the faces share one image. Face first: when no face on
      // the front matches the selfie the attempt ends before the OCR.
      const selfie = session.selfie_embedding.map(Number);
      const threshold = config.documentMatchThreshold;
      const simOf = (f: FaceObservation | null) =>
        f?.embedding ? cosineSimilarity(f.embedding, selfie) : null;
      const frontCard = await reader.straighten(images.front);
      const front = await describeMain(pool, limits, await jpegOf(frontCard.image));
      const anyMatch = front.frame.faces.some((f) => (simOf(f) ?? -1) >= threshold);
      const refuse = (error: string): ScanAnswer => {
        recordDocument({ error, durationMs: performance.now() - tStart });
        return { success: false, kyc_complete: false, error };
      };
      if (!anyMatch || !images.back) {
        log.info({
          event: 'document_face',
          session: short(sessionId),
          faces: front.frame.faces.length,
          similarity: round3(simOf(front.face)),
          threshold,
          match: anyMatch,
          ms: ms(tStart),
        });
        if (!anyMatch)
          return refuse(
            front.face ? identityMessages.faceMismatch : identityMessages.noFaceOnDocument,
          );
        return refuse(identityMessages.backMissing);
      }
      const backCard = await reader.straighten(images.back);
      const reading = await reader.read(frontCard, backCard);
      // The face that counts is the one printed in the card's photo area, not any face in the picture.
      const cardFace = reading.photoArea ? faceInArea(front.frame, reading.photoArea) : null;
      const similarity = simOf(cardFace);
      const faceOk = similarity !== null && similarity >= threshold;
      log.info({
        event: 'document_read',
        session: short(sessionId),
        ok: reading.ok,
        checks: reading.checks,
        passes: reading.passes,
        front_passes: reading.frontPasses,
        found: [frontCard.found, backCard.found],
        skew: [frontCard.skew, backCard.skew],
        faces: front.frame.faces.length,
        similarity: round3(similarity),
        threshold,
        match: faceOk,
        ms: ms(tStart),
      });
      if (!reading.ok || !reading.idData)
        return refuse(reading.error ?? identityMessages.mrzUnreadable);
      if (!faceOk)
        return refuse(cardFace ? identityMessages.faceMismatch : identityMessages.noFaceOnDocument);
      await store.completeSession(db, sessionId, {
        id_data: reading.idData,
        checks: reading.checks,
        face: { similarity, threshold },
      });
      recordDocument({ durationMs: performance.now() - tStart });
      return { success: true, kyc_complete: true, id_data: reading.idData };
    },

    readDocument: async (front, back) => {
      checkUpload(front, limits);
      checkUpload(back, limits);
      return reader.read(await reader.straighten(front), await reader.straighten(back));
    },
  };
}
