import type { StraightenedCard } from './card-geometry';
import { createCardImages } from './card-images';
import type { IdentityConfig } from './config';
import { createDocumentOcr } from './document-ocr';
import { documentVerdict, type DocumentReading } from './document-verdict';
import { IdentityError } from './errors';
import { decodeRgb, type ImageLimits } from './image';

/**
 * Document reading: each photographed side found and straightened (card-images.ts, in the card
 * worker), read by the OCR (document-ocr.ts: the back's MRZ cascade, the front's cascade, within the
 * scan's time budget), and judged by the cédula's rules (document-verdict.ts, cedula.ts).
 */
export interface DocumentReader {
  warm(): Promise<void>;
  /** One side found in its photo and straightened; the photo as it is when that cannot be done. */
  straighten(bytes: Uint8Array): Promise<StraightenedCard>;
  /** Both sides read within `budgetMs` (default: the configured scan budget). */
  read(
    front: StraightenedCard,
    back: StraightenedCard,
    budgetMs?: number,
  ): Promise<DocumentReading>;
  close(): Promise<void>;
}

export function createDocumentReader(
  config: IdentityConfig,
  onEvent?: (event: string, data: Record<string, unknown>) => void,
): DocumentReader {
  const limits: ImageLimits = {
    maxUploadBytes: config.maxUploadBytes,
    maxPixels: config.maxPixels,
    minImageSide: config.minImageSide,
  };
  const ocr = createDocumentOcr();
  const cards = createCardImages({ limits, timeoutMs: config.cardTimeoutMs });
  return {
    warm: () => ocr.warm(),
    async straighten(bytes) {
      try {
        return await cards.straighten(bytes);
      } catch (err) {
        if (err instanceof IdentityError) throw err;
        // The card worker failed or took too long: read the photo as it is (nothing to refuse it for).
        onEvent?.('card_worker_failed', { reason: err instanceof Error ? err.message : 'unknown' });
        const image = await decodeRgb(bytes, limits, 2400);
        return {
          image,
          found: false,
          skew: 0,
          textLines: Number.POSITIVE_INFINITY,
          quality: { brightness: 128, glare: 0, sharpness: 100, fraction: 1 },
        };
      }
    },
    read: async (front, back, budgetMs = config.scanBudgetMs) =>
      documentVerdict(await ocr.read(front, back, budgetMs)),
    close: async () => {
      await Promise.allSettled([ocr.close(), cards.close()]);
    },
  };
}
