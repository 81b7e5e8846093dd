import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import { messages } from '../http/messages';
import { identityMessages } from './errors';

type Upload = { fields: Record<string, string>; files: Record<string, Buffer[]> };
/** The file parts a route accepts: how many of each name, each one's byte limit and its 413 text. */
type FileSpec = Record<string, { max: number; maxBytes: number; tooLarge: string }>;

/** Limit errors of @fastify/multipart that the app's error handler answers (413). */
const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads a multipart request into text fields and file buffers, with a per-file size limit, a cap on
 * parts, and only the expected file names, each at most `max` times (repeated `frame` parts carry
 * several liveness frames): the one place every image upload is parsed. A file over its limit is a
 * 413, more files than allowed a 413 (`tooMany`); a non-multipart body a 415; a malformed body (no or
 * wrong boundary, a part cut short, a broken part header) a 400 with a Spanish message, never
 * busboy's English error or a 500.
 */
export async function readUpload(
  request: FastifyRequest,
  spec: FileSpec,
  tooMany: string = messages.payloadTooLarge,
): Promise<Upload> {
  if (!request.isMultipart()) throw new HttpError(415, identityMessages.unsupportedType);
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer[]> = {};
  const rules = Object.values(spec);
  const maxFiles = rules.reduce((n, r) => n + r.max, 0);
  try {
    const parts = request.parts({
      limits: {
        fileSize: Math.max(...rules.map((r) => r.maxBytes)),
        files: maxFiles,
        fields: 8,
        parts: maxFiles + 8,
        fieldSize: 4096,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const rule = Object.hasOwn(spec, part.fieldname) ? spec[part.fieldname] : undefined;
        if (!rule) {
          await part.toBuffer().catch(() => {});
          throw new HttpError(400, messages.badRequest);
        }
        const list = (files[part.fieldname] ??= []);
        if (list.length >= rule.max) throw new HttpError(413, tooMany);
        const buf = await part.toBuffer().catch((err: { code?: string }) => {
          if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, rule.tooLarge);
          throw err;
        });
        if (part.file.truncated || buf.length > rule.maxBytes)
          throw new HttpError(413, rule.tooLarge);
        list.push(buf);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_FILES_LIMIT') throw new HttpError(413, tooMany);
    if (typeof code === 'string' && LIMIT_CODES.has(code)) throw err;
    request.log.info(
      { event: 'malformed_multipart', error: String((err as Error).message).slice(0, 80) },
      'bad upload',
    );
    throw new HttpError(400, identityMessages.malformedUpload);
  }
  return { fields, files };
}
