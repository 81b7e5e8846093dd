import type { IdentityConfig } from './config';
import { createDocumentOcr } from './document-ocr';
import { documentVerdict, type DocumentReading } from './document-verdict';

/**
 * Document reading: the OCR of both sides (document-ocr.ts: the back's MRZ cascade, the front's
 * printed text and layout) judged by the cédula's rules (document-verdict.ts, cedula.ts).
 */
export interface DocumentReader {
  warm(): Promise<void>;
  read(front: Uint8Array, back: Uint8Array): Promise<DocumentReading>;
  close(): Promise<void>;
}

export function createDocumentReader(config: IdentityConfig): DocumentReader {
  const ocr = createDocumentOcr({
    maxUploadBytes: config.maxUploadBytes,
    maxPixels: config.maxPixels,
    minImageSide: config.minImageSide,
  });
  return {
    warm: () => ocr.warm(),
    read: async (front, back) => documentVerdict(await ocr.read(front, back)),
    close: () => ocr.close(),
  };
}
