import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import { messages } from '../http/messages';
import { identityMessages } from './errors';

export type Upload = { fields: Record<string, string>; files: Record<string, Buffer> };

/** Limit errors of @fastify/multipart that the app's error handler answers (413). */
const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads a multipart request into text fields and file buffers, with a per-file size limit, a cap on
 * parts, and only the expected file names: the one place every image upload is parsed. A file over
 * the limit is a 413; a non-multipart body a 415; a malformed body (no or wrong boundary, a part cut
 * short, a broken part header) a 400 with a Spanish message, never busboy's English error or a 500.
 */
export async function readUpload(
  request: FastifyRequest,
  fileNames: readonly string[],
  maxBytes: number,
): Promise<Upload> {
  if (!request.isMultipart()) throw new HttpError(415, identityMessages.unsupportedType);
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  const mb = Math.floor(maxBytes / (1024 * 1024)) || 1;
  const tooLarge = () => new HttpError(413, identityMessages.tooLarge.replace('{mb}', String(mb)));
  try {
    const parts = request.parts({
      limits: {
        fileSize: maxBytes,
        files: fileNames.length,
        fields: 8,
        parts: 12,
        fieldSize: 4096,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (!fileNames.includes(part.fieldname)) {
          await part.toBuffer().catch(() => {});
          throw new HttpError(400, messages.badRequest);
        }
        const buf = await part.toBuffer().catch((err: { code?: string }) => {
          if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw err;
        });
        if (part.file.truncated) throw tooLarge();
        files[part.fieldname] = buf;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && LIMIT_CODES.has(code)) throw err;
    request.log.info(
      { event: 'malformed_multipart', error: String((err as Error).message).slice(0, 80) },
      'bad upload',
    );
    throw new HttpError(400, identityMessages.malformedUpload);
  }
  return { fields, files };
}
